/** The sandbox provider's memory of its checkouts, in the database (`sandbox_checkouts`, ADR 0503). */
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { sandboxCheckouts } from "~/db/schema";
import type { SandboxCheckoutStore } from "./sandbox.server";

export function databaseSandboxStore(db: Database): SandboxCheckoutStore {
  return {
    async created(s) {
      await db
        .insert(sandboxCheckouts)
        .values({ id: s.id, orderId: s.orderId, amount: s.amount, currency: s.currency })
        .onConflictDoNothing({ target: sandboxCheckouts.id });
    },
    async paid(id) {
      await db
        .update(sandboxCheckouts)
        .set({ paidAt: new Date() })
        .where(and(eq(sandboxCheckouts.id, id), isNull(sandboxCheckouts.paidAt)));
    },
    async find(id) {
      const [row] = await db.select().from(sandboxCheckouts).where(eq(sandboxCheckouts.id, id)).limit(1);
      return row
        ? { amount: row.amount, currency: row.currency, paidAt: row.paidAt, createdAt: row.createdAt }
        : null;
    },
  };
}
