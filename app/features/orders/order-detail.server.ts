/**
 * One order as the back office's order page reads it: the order with its client and (first) invoice,
 * the care plan that covered it if any, and the history of both from the audit log, newest first.
 */
import { and, desc, eq, or } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog, clients, invoices, orders } from "~/db/schema";
import { firstInvoiceOf } from "~/features/invoices/invoice-status.server";
import { coveringPlanName } from "./covered-by.server";

export async function getOrderDetail(db: Database, id: string) {
  const [row] = await db
    .select({ order: orders, client: clients, invoice: invoices })
    .from(orders)
    .leftJoin(clients, eq(clients.id, orders.clientId))
    .leftJoin(invoices, firstInvoiceOf(orders.id))
    .where(eq(orders.id, id))
    .limit(1);
  if (!row) return null;
  const history = await db
    .select()
    .from(auditLog)
    .where(
      or(
        and(eq(auditLog.entity, "order"), eq(auditLog.entityId, id)),
        row.invoice ? and(eq(auditLog.entity, "invoice"), eq(auditLog.entityId, row.invoice.id)) : undefined,
      ),
    )
    .orderBy(desc(auditLog.at))
    .limit(50);
  // An incident a care plan covered: its plan, named where the amount would be (issue 38, item 6).
  return { ...row, history, coveredBy: await coveringPlanName(db, row.order) };
}
