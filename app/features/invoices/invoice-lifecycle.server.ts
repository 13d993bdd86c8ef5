/**
 * An invoice's state changes that concern the invoice alone (docs/decisions/0010-domains-not-audiences.md):
 * voided, by hand or with its cancelled order. Voiding by hand runs in one transaction with the live
 * event, the audit row and the client's email. A voided invoice keeps its number: numbers are never
 * reused, so the sequence keeps no gaps. Paid changes the order too, so it lives a layer up (ADR 0012):
 * by a bank transfer is `markInvoicePaid`, by a provider the webhook's, both through the orders'
 * `recordPayment` (orders/payment.server.ts); overdue is the scheduled job's (overdue.server.ts).
 */
import { eq } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { type Invoice, invoices } from "~/db/schema";
import {
  type Actor,
  type ChangeResult,
  type MailingChangeDeps,
  recordAudit,
} from "~/features/audit/audit.server";
import { publishLiveEvent } from "~/features/live/live-events.server";
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

/** Voids an unpaid invoice by hand; it keeps its number, and the client is told (the outbox woken). */
export async function voidInvoice(
  deps: MailingChangeDeps,
  id: string,
  reason: string | null,
): Promise<ChangeResult> {
  const result = await deps.db.transaction(async (tx): Promise<ChangeResult> => {
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
  if (result.ok) deps.wakeOutbox();
  return result;
}
