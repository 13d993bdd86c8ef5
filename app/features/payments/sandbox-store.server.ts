/** The sandbox provider's memory of its checkouts and refunds, in the database (`sandbox_checkouts`, `sandbox_refunds`; ADRs 0503, 0505). */
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { sandboxCheckouts, sandboxRefunds, sandboxSavedCards } from "~/db/schema";
import type { SandboxCheckoutStore } from "./sandbox.server";
import { isSandboxTestCard } from "./sandbox-cards";

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
    async refund(r) {
      await db
        .insert(sandboxRefunds)
        .values({ id: r.id, checkoutId: r.checkoutId, amount: r.amount })
        .onConflictDoNothing({ target: sandboxRefunds.id });
    },
    async refunded(checkoutId, except) {
      const [row] = await db
        .select({ total: sql<string>`coalesce(sum(${sandboxRefunds.amount}), 0)` })
        .from(sandboxRefunds)
        .where(
          and(eq(sandboxRefunds.checkoutId, checkoutId), except ? ne(sandboxRefunds.id, except) : undefined),
        );
      return Number(row?.total ?? 0);
    },
    async saveCard(card) {
      await db.insert(sandboxSavedCards).values(card).onConflictDoNothing();
    },
    async savedCard(by) {
      const [row] = await db
        .select()
        .from(sandboxSavedCards)
        .where(
          "checkoutId" in by
            ? eq(sandboxSavedCards.checkoutId, by.checkoutId)
            : eq(sandboxSavedCards.paymentMethodId, by.paymentMethodId),
        )
        .limit(1);
      if (!row || !isSandboxTestCard(row.card)) return null;
      return { ...row, card: row.card };
    },
    async find(id) {
      const [row] = await db.select().from(sandboxCheckouts).where(eq(sandboxCheckouts.id, id)).limit(1);
      return row
        ? { amount: row.amount, currency: row.currency, paidAt: row.paidAt, createdAt: row.createdAt }
        : null;
    },
  };
}
