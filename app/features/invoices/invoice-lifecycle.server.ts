/**
 * An invoice's state changes made by a person (docs/decisions/0010-domains-not-audiences.md): paid by
 * hand (a bank transfer) and voided. Each runs in one transaction with the live events, the audit row
 * and the client's email. A voided invoice keeps its number: numbers are never reused, so the sequence
 * keeps no gaps. Paid by a provider is the webhook's (payments/webhooks.server.ts), overdue the
 * scheduled job's (overdue.server.ts); both, like this module, go through the orders' recordPayment.
 */
import { eq } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { type Invoice, invoices, orders } from "~/db/schema";
import { type Actor, type ChangeDeps, type ChangeResult, recordAudit } from "~/features/audit/audit.server";
// Emails write money as the portal's pages do (the page's formatter), not as the back office's tables.
import { publishLiveEvent } from "~/features/live/live-events.server";
import { formatMoney } from "~/features/money/format";
import { recordPayment } from "~/features/orders/payment.server";
import { emailInvoiceClient } from "./invoice-email.server";
import { isUnpaidOrOverdue } from "./invoice-status";

export async function lockInvoice(tx: Tx, id: string): Promise<Invoice | null> {
  const [row] = await tx.select().from(invoices).where(eq(invoices.id, id)).for("update").limit(1);
  return row ?? null;
}

/**
 * Voids an unpaid invoice the caller has locked: the one place an invoice becomes void (voided by
 * hand, or because its order was cancelled). It keeps its number.
 */
export async function voidUnpaidInvoice(
  tx: Tx,
  actor: Actor,
  invoice: Invoice,
  reason: string | null,
): Promise<Invoice> {
  const [voided] = await tx
    .update(invoices)
    .set({ status: "void" })
    .where(eq(invoices.id, invoice.id))
    .returning();
  await publishLiveEvent(tx, {
    userId: invoice.clientId,
    kind: "invoice",
    entityId: invoice.id,
    status: "void",
  });
  await recordAudit(tx, actor, {
    action: "invoice.void",
    entity: "invoice",
    entityId: invoice.id,
    before: { status: invoice.status },
    after: { status: "void", ...(reason ? { reason } : {}) },
  });
  return voided!;
}

/** A bank transfer received: the invoice (and its order, if still pending) become paid. */
export async function markInvoicePaid(
  deps: ChangeDeps,
  id: string,
  reference: string,
): Promise<ChangeResult> {
  return deps.db.transaction(async (tx) => {
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
}

/** Voids an unpaid invoice by hand; it keeps its number, and the client is told. */
export async function voidInvoice(
  deps: ChangeDeps,
  id: string,
  reason: string | null,
): Promise<ChangeResult> {
  return deps.db.transaction(async (tx) => {
    const invoice = await lockInvoice(tx, id);
    if (!invoice) return { ok: false, status: 404, error: "Invoice not found." };
    if (!isUnpaidOrOverdue(invoice.status))
      return {
        ok: false,
        status: 409,
        error: `Invoice ${invoice.invoiceNumber} is ${invoice.status}; only an unpaid invoice can be voided.`,
      };
    await voidUnpaidInvoice(tx, deps.actor, invoice, reason);
    await emailInvoiceClient(tx, deps.config, invoice, {
      kind: "invoice-void",
      subject: `Invoice ${invoice.invoiceNumber} has been voided`,
      lines: [
        `Invoice ${invoice.invoiceNumber} has been voided: nothing is due on it.`,
        ...(reason ? [reason] : []),
      ],
    });
    return { ok: true, message: `Invoice ${invoice.invoiceNumber} is void. It keeps its number.` };
  });
}
