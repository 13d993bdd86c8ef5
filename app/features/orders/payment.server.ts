/**
 * Recording a payment: the one place where an order and its invoice become paid, whoever learnt of it
 * (a provider's webhook, or the owner marking a bank transfer in the back office). In the caller's
 * transaction, which holds the order's row lock: the order becomes paid if it was pending, the invoice
 * paid if it was open; the client gets the live events of each change and one notice for the payment,
 * the owner a notice of a new paid order.
 * `markInvoicePaid` (a bank transfer) lives here, not with invoices: it pays the order too (ADR 0012).
 */
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { clients, type Invoice, invoices, type Order, orders } from "~/db/schema";
import { type ChangeResult, type MailingChangeDeps, recordAudit } from "~/features/audit/audit.server";
import { emailInvoiceClient } from "~/features/invoices/invoice-email.server";
import { lockInvoice } from "~/features/invoices/invoice-lifecycle.server";
import { clientInvoicePath } from "~/features/invoices/invoice-paths";
import { isUnpaidOrOverdue } from "~/features/invoices/invoice-status";
import { publishLiveEvent } from "~/features/live/live-events.server";
// Emails write money as the portal's pages do (the page's formatter), not as the back office's tables.
import { formatMoney } from "~/features/money/format";
import { NOTIFICATIONS } from "~/features/notifications/messages";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { BUSINESS_TIME_ZONE, formatMoment } from "~/ui/format";
import { adminOrderPath, clientOrderPath, notifyOwners } from "./order-access.server";

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
  }
  const orderBecamePaid = paidOrder !== order;
  const invoiceBecamePaid = invoice !== null && paidInvoice !== invoice;
  if (orderBecamePaid || invoiceBecamePaid) {
    // One payment, one notice, leading to the order it started or else the invoice it paid (ADR 0515).
    await raiseNotification(tx, order.clientId, {
      ...NOTIFICATIONS.paymentReceived(invoiceBecamePaid ? invoice!.invoiceNumber : null, orderBecamePaid),
      href: orderBecamePaid ? clientOrderPath(order.id) : clientInvoicePath(invoice!.id),
    });
  }
  // The owner hears of a new paid order, unless the owner recorded the payment by hand.
  if (orderBecamePaid && payment.provider !== "manual") {
    await tellOwnersOfPaidOrder(tx, paidOrder, invoiceBecamePaid ? invoice : null, paidAt);
  }
  return { order: paidOrder, invoice: paidInvoice };
}

async function tellOwnersOfPaidOrder(tx: Database, order: Order, invoice: Invoice | null, paidAt: Date) {
  const [client] = await tx
    .select({ name: clients.name })
    .from(clients)
    .where(eq(clients.id, order.clientId))
    .limit(1);
  const amount = invoice
    ? formatMoney(invoice.totalAmount, invoice.currency)
    : formatMoney(order.amountInCurrency, order.currency);
  await notifyOwners(tx, {
    // The back office writes its moments in the seller's zone (ADR 0521), in words, never ISO.
    ...NOTIFICATIONS.newPaidOrder(
      client?.name ?? "A client",
      `${order.serviceName} (${order.packageName})`,
      amount,
      formatMoment(paidAt, BUSINESS_TIME_ZONE),
    ),
    href: adminOrderPath(order.id),
  });
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
