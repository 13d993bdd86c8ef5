/**
 * Account deletion's orders (docs/decisions/0520-account-deletion.md): which orders refuse it, and the
 * unpaid pending ones it cancels the way the back office does.
 */
import { and, eq, inArray, isNotNull, ne, or } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { invoices, type Order, orders } from "~/db/schema";
import { type Actor, recordAudit } from "~/features/audit/audit.server";
import { unpaidInvoiceSql } from "~/features/invoices/invoice-status.server";
import { cancelOrder, lockOrder } from "~/features/orders/order-lifecycle.server";
import { WORK_OWED_ORDER_STATUSES } from "~/features/orders/order-status";
import type { OpenCheckout } from "~/features/payments/provider.server";
import type { BlockingOrder } from "./account-deletion";

/** Orders that block: paid or in progress (work owed), or any with an invoice unpaid past pending. */
export async function blockingOrders(tx: Tx, clientId: string): Promise<BlockingOrder[]> {
  const rows = await tx
    .selectDistinct({ id: orders.id, serviceName: orders.serviceName, status: orders.status })
    .from(orders)
    .leftJoin(invoices, and(eq(invoices.orderId, orders.id), unpaidInvoiceSql))
    .where(
      and(
        eq(orders.clientId, clientId),
        or(
          inArray(orders.status, [...WORK_OWED_ORDER_STATUSES]),
          and(ne(orders.status, "pending"), ne(orders.status, "cancelled"), isNotNull(invoices.id)),
        ),
      ),
    )
    .orderBy(orders.id);
  return rows;
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
