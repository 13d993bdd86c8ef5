/**
 * Account deletion's orders (docs/decisions/0520-account-deletion.md): which orders refuse it, and the
 * unpaid pending ones it cancels the way the back office does.
 */
import { and, eq, inArray, isNull, notInArray } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { invoices, type Order, orders } from "~/db/schema";
import { type Actor, recordAudit } from "~/features/audit/audit.server";
import { unpaidInvoiceSql } from "~/features/invoices/invoice-status.server";
import { cancelOrder, lockOrder } from "~/features/orders/order-lifecycle.server";
import { WORK_OWED_ORDER_STATUSES } from "~/features/orders/order-status";
import type { OpenCheckout } from "~/features/payments/provider.server";
import { renewingPlans } from "~/features/plans/plan-privacy.server";
import type { DeletionBlocker } from "./account-deletion";

/**
 * What blocks a deletion (ADR 0520): orders whose work is owed (paid or in progress), the unpaid
 * invoices of orders past pending (a completed order's balance, say), and care plans that still renew,
 * each named by its own kind.
 */
export async function deletionBlockers(db: Tx | Database, clientId: string): Promise<DeletionBlocker[]> {
  // One after the other: inside the deletion's transaction they share its connection.
  const owed = await db
    .select({ orderId: orders.id, serviceName: orders.serviceName, status: orders.status })
    .from(orders)
    .where(
      and(
        eq(orders.clientId, clientId),
        inArray(orders.status, [...WORK_OWED_ORDER_STATUSES]),
        // A care plan's period is a sale, not work owed: the plan itself is the blocker.
        isNull(orders.planSubscriptionId),
      ),
    )
    .orderBy(orders.createdAt, orders.id);
  const unpaid = await db
    .select({
      invoiceId: invoices.id,
      invoiceNumber: invoices.invoiceNumber,
      serviceName: orders.serviceName,
    })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(
      and(
        eq(orders.clientId, clientId),
        notInArray(orders.status, ["pending", "cancelled"]),
        unpaidInvoiceSql,
      ),
    )
    .orderBy(invoices.invoiceNumber);
  const plans = await renewingPlans(db, clientId);
  return [
    ...unpaid.map((i) => ({ kind: "unpaid-invoice" as const, ...i })),
    ...plans.map((p) => ({ kind: "care-plan" as const, ...p })),
    ...owed.map((o) => ({
      kind: "work-owed" as const,
      orderId: o.orderId,
      serviceName: o.serviceName,
      status: o.status === "paid" ? ("paid" as const) : ("in_progress" as const),
    })),
  ];
}

/**
 * Unpaid pending orders are cancelled as the back office cancels them (invoices voided). A late payment
 * of one arrives as a payment for a cancelled order: "Needs attention" (webhooks.server). Answers the
 * cancelled orders and their open checkouts (to expire at the provider once committed).
 */
export async function cancelPendingOrders(
  tx: Tx,
  who: Actor,
  own: Array<Pick<Order, "id" | "status">>,
): Promise<{ cancelled: string[]; checkouts: OpenCheckout[] }> {
  const cancelled: string[] = [];
  const checkouts: OpenCheckout[] = [];
  for (const o of own.filter((x) => x.status === "pending")) {
    const locked = await lockOrder(tx, o.id);
    if (!locked) continue;
    await cancelOrder(tx, who, locked);
    await recordAudit(tx, who, {
      action: "order.status",
      entity: "order",
      entityId: o.id,
      before: { status: "pending" },
      after: { status: "cancelled", via: "account deleted" },
    });
    cancelled.push(o.id);
    const { provider, providerReference } = locked.order;
    checkouts.push({ orderId: o.id, provider, reference: providerReference });
  }
  return { cancelled, checkouts };
}
