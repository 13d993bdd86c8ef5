/** The SQL twins of invoice-status.ts's rules, for lists, counts and totals computed in the database. */
import { and, eq, inArray, ne, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { type InvoiceStatus, invoices } from "~/db/schema";
import { type ShownInvoiceStatus, UNPAID_INVOICE_STATUSES } from "./invoice-status";

/**
 * `isUnpaidOrOverdue` of any status column in SQL, for statements written by hand that name the table
 * by an alias (`unpaidStatusSql(sql`i.status`)`).
 */
export const unpaidStatusSql = (status: SQLWrapper) => inArray(status, [...UNPAID_INVOICE_STATUSES]);

/** `isUnpaidOrOverdue` in SQL. */
export const unpaidInvoiceSql = unpaidStatusSql(invoices.status);

/** `isOverdue` in SQL: stored as overdue, or still sent after its due date. */
export const overdueInvoiceSql = sql<boolean>`(${invoices.status} = 'overdue' or (${invoices.status} = 'sent' and ${invoices.dueDate} < now()))`;

/**
 * `shownInvoiceStatus` in SQL, for a list that filters or counts by the status it shows (the client's
 * invoices and their chips, the back office's invoices, read against the database's clock).
 * Refunds are compared in the invoice's currency; both amounts are numeric(14, 2), so exactly.
 */
export const shownInvoiceStatusSql = sql<ShownInvoiceStatus>`(case
  when ${overdueInvoiceSql} then 'overdue'
  when ${invoices.status} = 'paid' and ${invoices.refundedAmount} > 0
    and ${invoices.refundedAmount} >= ${invoices.totalAmount} then 'refunded'
  when ${invoices.status} = 'paid' and ${invoices.refundedAmount} > 0 then 'partially_refunded'
  else ${invoices.status} end)`;

/** The stored statuses an invoice shown with a status can have (overdue: sent past due, or marked). */
const STORED_AS: Record<ShownInvoiceStatus, readonly InvoiceStatus[]> = {
  sent: ["sent"],
  overdue: ["sent", "overdue"],
  paid: ["paid"],
  partially_refunded: ["paid"],
  refunded: ["paid"],
  void: ["void"],
};

/**
 * Invoices shown with `shown` (`shownInvoiceStatusSql` equal to it), narrowed first to the stored
 * statuses that can read so, so that the (client_id, status, …) index serves a list filtered by it.
 */
export function shownStatusIs(shown: ShownInvoiceStatus): SQL {
  return and(inArray(invoices.status, [...STORED_AS[shown]]), sql`${shownInvoiceStatusSql} = ${shown}`)!;
}

/**
 * Joins an order to its first invoice: the only one of a purchase, or a quote's deposit (its balance,
 * issued when the work is complete, is an invoice of its own in the invoice lists).
 */
export const firstInvoiceOf = (orderId: SQLWrapper | string) =>
  and(eq(invoices.orderId, orderId), ne(invoices.kind, "balance"));
