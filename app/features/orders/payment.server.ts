/**
 * Recording a payment: the one place where an order and its invoice become paid, whoever learnt of it
 * (a provider's webhook, or the owner marking a bank transfer in the back office). In the caller's
 * transaction, which holds the order's row lock: the order becomes paid if it was pending, the invoice
 * paid if it was open, and the client gets the spec's notifications and live events for each change.
 */
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { type Invoice, invoices, type Order, orders } from "~/db/schema";
import { isUnpaidOrOverdue } from "~/features/invoices/invoice-status";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { NOTIFICATIONS } from "~/features/notifications/messages";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { clientOrderPath } from "./order-access.server";

export interface PaymentRecord {
  /** 'sandbox', 'stripe', 'manual'… kept on the order unless it already names one. */
  provider: string;
  /** The provider's payment id, or the bank reference of a transfer. */
  reference: string | null;
  paidAt?: Date;
}

export async function recordPayment(
  tx: Database,
  order: Order,
  invoice: Invoice | null,
  payment: PaymentRecord,
): Promise<{ order: Order; invoice: Invoice | null }> {
  const paidAt = payment.paidAt ?? new Date();
  let paidOrder = order;
  if (order.status === "pending") {
    const [updated] = await tx
      .update(orders)
      .set({
        status: "paid",
        paidAt,
        provider: payment.provider === "manual" ? (order.provider ?? "manual") : payment.provider,
        providerReference: payment.reference ?? order.providerReference,
      })
      .where(eq(orders.id, order.id))
      .returning();
    paidOrder = updated!;
    await publishLiveEvent(tx, { userId: order.clientId, kind: "order", entityId: order.id, status: "paid" });
    const href = clientOrderPath(order.id);
    await raiseNotification(tx, order.clientId, { ...NOTIFICATIONS.orderPaid, href });
    await raiseNotification(tx, order.clientId, { ...NOTIFICATIONS.paymentReceived, href });
  }
  let paidInvoice = invoice;
  if (invoice && isUnpaidOrOverdue(invoice.status)) {
    const [updated] = await tx
      .update(invoices)
      .set({ status: "paid", paidAt, paymentReference: payment.reference })
      .where(eq(invoices.id, invoice.id))
      .returning();
    paidInvoice = updated!;
    await publishLiveEvent(tx, {
      userId: invoice.clientId,
      kind: "invoice",
      entityId: invoice.id,
      status: "paid",
    });
    await raiseNotification(tx, invoice.clientId, {
      ...NOTIFICATIONS.invoicePaid(invoice.invoiceNumber),
      href: `/client/invoice/${invoice.id}`,
    });
  }
  return { order: paidOrder, invoice: paidInvoice };
}
