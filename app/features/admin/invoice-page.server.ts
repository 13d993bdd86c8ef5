/**
 * The back office's invoice page (/admin/invoices/{id}): the invoice with its client, order, history,
 * refunds and credit notes, and its forms' posts, each handed to the domain that decides: resending is
 * the invoice's (invoices/invoice-resend.server.ts), voiding too (invoices/invoice-lifecycle.server.ts),
 * marking paid by bank transfer the payment's, which pays the order too (orders/payment.server.ts), a
 * refund the refunds' (through refund-form.server.ts). The list is invoices/invoice-lists.server.ts.
 */
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { auditLog, clients, invoices, orders } from "~/db/schema";
import type { ChangeResult } from "~/features/audit/audit.server";
import { voidInvoice } from "~/features/invoices/invoice-lifecycle.server";
import { resendInvoice } from "~/features/invoices/invoice-resend.server";
import { shownInvoiceStatusSql } from "~/features/invoices/invoice-status.server";
import { fromMinorUnits, toMinorUnits } from "~/features/money/minor-units";
import { markInvoicePaid } from "~/features/orders/payment.server";
import { creditNotesOfInvoice } from "~/features/refunds/credit-notes.server";
import type { RefundFormAnswer } from "~/features/refunds/refund-form";
import { type RefundFormDeps, refundFormAction } from "~/features/refunds/refund-form.server";
import { refundableMinor } from "~/features/refunds/refund-math";
import { refundsOfInvoice, refundVia } from "~/features/refunds/refund-queries.server";
import { type FormFailure, parseForm } from "~/ui/form";

export async function getInvoiceDetail(db: Database, id: string) {
  const [row] = await db
    .select({ invoice: invoices, shownStatus: shownInvoiceStatusSql, client: clients, order: orders })
    .from(invoices)
    .leftJoin(clients, eq(clients.id, invoices.clientId))
    .leftJoin(orders, eq(orders.id, invoices.orderId))
    .where(eq(invoices.id, id))
    .limit(1);
  if (!row) return null;
  const history = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, "invoice"), eq(auditLog.entityId, id)))
    .orderBy(desc(auditLog.at))
    .limit(50);
  const [refundRows, creditNoteRows] = await Promise.all([
    refundsOfInvoice(db, id),
    creditNotesOfInvoice(db, id),
  ]);
  const { invoice, order } = row;
  const pending = refundRows
    .filter((r) => r.status === "pending")
    .reduce((sum, r) => sum + toMinorUnits(r.amount, invoice.currency), 0);
  const refundable =
    invoice.status === "paid"
      ? fromMinorUnits(
          refundableMinor(
            toMinorUnits(invoice.totalAmount, invoice.currency),
            toMinorUnits(invoice.refundedAmount, invoice.currency),
            pending,
          ),
          invoice.currency,
        )
      : 0;
  const creditNoteByRefund = new Map(creditNoteRows.map((n) => [n.refundId, n]));
  return {
    ...row,
    history,
    refunds: refundRows.map((r) => ({
      ...r,
      creditNote: creditNoteByRefund.get(r.id) ?? null,
    })),
    /** What may still be refunded, and how (ADR 0505). */
    refundable,
    refundVia: order ? refundVia(order, invoice) : "manual",
  };
}

const invoiceActionForm = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("mark-paid"),
    reference: z
      .string()
      .trim()
      .min(2, { message: "Enter the bank transfer's reference" })
      .max(200, { message: "The reference must be at most 200 characters" }),
  }),
  z.object({ intent: z.literal("resend") }),
  z.object({
    intent: z.literal("void"),
    reason: z
      .string()
      .trim()
      .max(500, { message: "The reason must be at most 500 characters" })
      .optional()
      .transform((v) => v || null),
  }),
]);

/**
 * The invoice page's forms: refund (its steps in refund-form.server.ts), mark paid by bank transfer,
 * resend, or void; a rejected form answers 400. `deps.wakeOutbox` sends each one's email once it
 * committed (each change calls it).
 */
export async function invoiceAdminAction(
  deps: RefundFormDeps,
  id: string,
  values: Record<string, unknown>,
): Promise<ChangeResult | FormFailure | RefundFormAnswer> {
  if (typeof values.intent === "string" && values.intent.startsWith("refund")) {
    return refundFormAction(deps, id, values);
  }
  const parsed = parseForm(invoiceActionForm, values);
  if (!parsed.ok) return parsed;
  const input = parsed.data;
  if (input.intent === "mark-paid") return markInvoicePaid(deps, id, input.reference);
  if (input.intent === "resend") return resendInvoice(deps, id);
  return voidInvoice(deps, id, input.reason);
}
