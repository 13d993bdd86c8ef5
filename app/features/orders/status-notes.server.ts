/**
 * The owner's notes to the client with an order's status changes (issue 37, item 6), for the order
 * page's timeline. They are kept where the change is recorded, the audit log's `order.status` row
 * (`after.note`, written by `transitionOrder`), so there is one record of what was said. The caller
 * has already scoped the order to the viewer (order-access.server.ts).
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { type StatusNotes, statusNotesFrom } from "./order-timeline";

export async function statusNotesOf(db: Database, orderId: string): Promise<StatusNotes> {
  const rows = await db
    .select({ action: auditLog.action, after: auditLog.after, at: auditLog.at })
    .from(auditLog)
    .where(
      and(eq(auditLog.entity, "order"), eq(auditLog.entityId, orderId), eq(auditLog.action, "order.status")),
    );
  return statusNotesFrom(rows);
}
