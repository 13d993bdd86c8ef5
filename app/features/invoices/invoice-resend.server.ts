/**
 * Sending an invoice to its client again (the back office's "Resend"): a copy of a paid one, or the
 * unpaid one with its due date (and a reminder once past it); never a void one. Queued through the
 * outbox in the same transaction as its audit row.
 */
import { eq } from "drizzle-orm";
import { invoices } from "~/db/schema";
import { type ChangeResult, type MailingChangeDeps, recordAudit } from "~/features/audit/audit.server";
import { formatMoney } from "~/features/money/format";
import { formatDate } from "~/ui/format";
import { emailInvoiceClient } from "./invoice-email.server";
import { isOverdue } from "./invoice-status";

/** Emails the invoice to its client again (the outbox woken once it is queued). */
export async function resendInvoice(deps: MailingChangeDeps, id: string): Promise<ChangeResult> {
  const result = await deps.db.transaction(async (tx): Promise<ChangeResult> => {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, id)).limit(1);
    if (!invoice) return { ok: false, status: 404, error: "Invoice not found." };
    if (invoice.status === "void")
      return {
        ok: false,
        status: 409,
        error: `Invoice ${invoice.invoiceNumber} is void; there is nothing to send.`,
      };
    const overdue = isOverdue(invoice.status, invoice.dueDate);
    const lines =
      invoice.status === "paid"
        ? [
            `Here is a copy of invoice ${invoice.invoiceNumber}, paid on ${formatDate(invoice.paidAt, "iso")}.`,
          ]
        : [
            `Here is invoice ${invoice.invoiceNumber} for ${formatMoney(invoice.totalAmount, invoice.currency)}, due ${formatDate(invoice.dueDate, "iso")}.`,
            ...(overdue ? ["It is past its due date; please pay it at your earliest convenience."] : []),
          ];
    await emailInvoiceClient(tx, deps.config, invoice, {
      kind: "invoice-resend",
      subject: `Invoice ${invoice.invoiceNumber}`,
      lines,
    });
    await recordAudit(tx, deps.actor, {
      action: "invoice.resend",
      entity: "invoice",
      entityId: id,
      after: { status: invoice.status },
    });
    return { ok: true, message: `Invoice ${invoice.invoiceNumber} was sent to the client again.` };
  });
  if (result.ok) deps.wakeOutbox();
  return result;
}
