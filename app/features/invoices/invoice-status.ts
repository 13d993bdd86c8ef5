/**
 * What an invoice's status means, in one place for every audience (the portal, the back office, the
 * webhooks, the emails): pure, so the browser shows what the server decides. Its SQL twin, for lists
 * and totals, is invoice-status.server.ts.
 */
import type { InvoiceStatus } from "~/db/schema";
import { toMinorUnits } from "~/features/money/minor-units";

/** Money is still owed: sent, or marked overdue by the scheduled job (invoices/overdue.server.ts). */
export const UNPAID_INVOICE_STATUSES = ["sent", "overdue"] as const satisfies readonly InvoiceStatus[];

/** Unpaid (sent or overdue): the only invoices that can be paid, voided or offered Pay Now. */
export function isUnpaidOrOverdue(status: string): boolean {
  return status === "sent" || status === "overdue";
}

/**
 * Overdue: stored as overdue, or still sent after its due date (the scheduled job marks it within
 * minutes; pages do not wait for it).
 */
export function isOverdue(status: string, dueDate: Date | string, now: Date = new Date()): boolean {
  return status === "overdue" || (status === "sent" && new Date(dueDate).getTime() < now.getTime());
}

/** "The due date is red when past due and unpaid." */
export function isPastDue(dueDate: Date | string, status: string, now: Date = new Date()): boolean {
  return isUnpaidOrOverdue(status) && new Date(dueDate).getTime() < now.getTime();
}

export type RefundState = "none" | "partial" | "full";

/** "Refunded" when the whole total came back, "Partially refunded" when some did (exact minor units). */
export function refundState(totalAmount: number, refundedAmount: number, currency: string): RefundState {
  const refunded = toMinorUnits(refundedAmount, currency);
  if (refunded <= 0) return "none";
  return refunded >= toMinorUnits(totalAmount, currency) ? "full" : "partial";
}

export const REFUND_STATE_LABELS: Record<Exclude<RefundState, "none">, string> = {
  partial: "Partially refunded",
  full: "Refunded",
};

/** A stored status, or one of the two a paid invoice reads as once refunds are counted (ADR 0505). */
export type ShownInvoiceStatus = InvoiceStatus | "partially_refunded" | "refunded";

/** What `shownInvoiceStatus` reads of an invoice (a row of `invoices`, or any list's row of one). */
export interface InvoiceStatusFacts {
  status: string;
  dueDate: Date | string;
  totalAmount: number;
  /** What its credit notes gave back, in its currency (0, or absent, when nothing was refunded). */
  refundedAmount?: number | null;
  currency: string;
}

/**
 * The status a person sees for an invoice, the same on every page, list, PDF and live event:
 * - unpaid (sent or overdue) and past its due date reads "overdue", whether or not the scheduled job
 *   has stored it yet;
 * - paid with refunds reads "partially_refunded", or "refunded" once the whole total came back;
 * - otherwise its stored status (sent, paid, void).
 *
 * The two never apply together: only a paid invoice can be refunded (a refund gives back a payment,
 * and requestRefund refuses any other status), and a paid invoice is never overdue. Overdue is looked
 * at first all the same, so if the data ever held both, the money still owed is what the page says.
 */
export function shownInvoiceStatus(invoice: InvoiceStatusFacts, now: Date = new Date()): ShownInvoiceStatus {
  if (isOverdue(invoice.status, invoice.dueDate, now)) return "overdue";
  const status = invoice.status as InvoiceStatus;
  if (status !== "paid") return status;
  const state = refundState(invoice.totalAmount, invoice.refundedAmount ?? 0, invoice.currency);
  return state === "none" ? status : state === "full" ? "refunded" : "partially_refunded";
}

/**
 * The words of a shown status: "Refunded", "Partially refunded", else the status with a capital
 * ("Paid", "Sent", "Overdue").
 */
export function invoiceStatusLabel(shown: string): string {
  if (shown === "refunded") return REFUND_STATE_LABELS.full;
  if (shown === "partially_refunded") return REFUND_STATE_LABELS.partial;
  return shown.charAt(0).toUpperCase() + shown.slice(1);
}
