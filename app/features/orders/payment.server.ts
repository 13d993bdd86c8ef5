/**
 * Recording a payment: the one place where an order and its invoice become paid, whoever learnt of it
 * (a provider's webhook, or the owner marking a bank transfer in the back office). In the caller's
 * transaction, which holds the order's row lock: the order becomes paid if it was pending, the invoice
 * paid if it was open, and the client gets the spec's notifications and live events for each change.
 * `markInvoicePaid` (a bank transfer) lives here, not with invoices: it pays the order too (ADR 0012).
 */
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { type Invoice, invoices, type Order, orders } from "~/db/schema";
import { type ChangeResult, type MailingChangeDeps, recordAudit } from "~/features/audit/audit.server";
import { emailInvoiceClient } from "~/features/invoices/invoice-email.server";
import { lockInvoice } from "~/features/invoices/invoice-lifecycle.server";
import { isUnpaidOrOverdue } from "~/features/invoices/invoice-status";
import { publishLiveEvent } from "~/features/live/live-events.server";
// Emails write money as the portal's pages do (the page's formatter), not as the back office's tables.
import { formatMoney } from "~/features/money/format";
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

/**
 * A bank transfer received: the invoice (and its order, if still pending) become paid; the client's
 * email leaves once it committed (the outbox woken).
 */
export async function markInvoicePaid(
  deps: MailingChangeDeps,
  id: string,
  reference: string,
): Promise<ChangeResult> {
  const result = await deps.db.transaction(async (tx): Promise<ChangeResult> => {
    const invoice = await lockInvoice(tx, id);
    if (!invoice) return { ok: false, status: 404, error: "Invoice not found." };
    if (!isUnpaidOrOverdue(invoice.status))
      return {
        ok: false,
        status: 409,
        error: `Invoice ${invoice.invoiceNumber} is ${invoice.status}; only an unpaid invoice can be marked paid.`,
      };
    const [order] = await tx.select().from(orders).where(eq(orders.id, invoice.orderId)).for("update");
    const paymentReference = `Bank transfer: ${reference}`;
    if (order) {
      const result = await recordPayment(tx, order, invoice, {
        provider: "manual",
        reference: paymentReference,
      });
      if (result.order.status !== order.status) {
        await recordAudit(tx, deps.actor, {
          action: "order.status",
          entity: "order",
          entityId: order.id,
          before: { status: order.status },
          after: { status: "paid", via: `invoice ${invoice.invoiceNumber} paid by bank transfer` },
        });
      }
    }
    await recordAudit(tx, deps.actor, {
      action: "invoice.paid",
      entity: "invoice",
      entityId: invoice.id,
      before: { status: invoice.status, paymentReference: invoice.paymentReference },
      after: { status: "paid", method: "bank transfer", paymentReference },
    });
    await emailInvoiceClient(tx, deps.config, invoice, {
      kind: "invoice-paid",
      subject: `Payment received: invoice ${invoice.invoiceNumber}`,
      lines: [
        `Payment Confirmed: Invoice ${invoice.invoiceNumber} has been paid.`,
        `We received your bank transfer of ${formatMoney(invoice.totalAmount, invoice.currency)} (reference ${reference}). Thank you.`,
      ],
    });
    return { ok: true, message: `Invoice ${invoice.invoiceNumber} is marked paid.` };
  });
  if (result.ok) deps.wakeOutbox();
  return result;
}
