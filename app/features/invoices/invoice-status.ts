/**
 * What an invoice's status means, in one place for every audience (the portal, the back office, the
 * webhooks, the emails): pure, so the browser shows what the server decides. Its SQL twin, for lists
 * and totals, is invoice-status.server.ts.
 */
import type { InvoiceStatus } from "~/db/schema";

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

/** The status an invoice is shown with: overdue as soon as it is, whatever its stored status. */
export function effectiveInvoiceStatus(status: string, dueDate: Date | string, now = new Date()): string {
  return isOverdue(status, dueDate, now) ? "overdue" : status;
}

/** "The due date is red when past due and unpaid." */
export function isPastDue(dueDate: Date | string, status: string, now: Date = new Date()): boolean {
  return isUnpaidOrOverdue(status) && new Date(dueDate).getTime() < now.getTime();
}
