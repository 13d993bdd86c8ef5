/** The SQL twins of invoice-status.ts's rules, for lists, counts and totals computed in the database. */
import { and, eq, inArray, ne, type SQLWrapper, sql } from "drizzle-orm";
import { invoices } from "~/db/schema";
import { UNPAID_INVOICE_STATUSES } from "./invoice-status";

/** `isUnpaidOrOverdue` in SQL. */
export const unpaidInvoiceSql = inArray(invoices.status, [...UNPAID_INVOICE_STATUSES]);

/** `isOverdue` in SQL: stored as overdue, or still sent after its due date. */
export const overdueInvoiceSql = sql<boolean>`(${invoices.status} = 'overdue' or (${invoices.status} = 'sent' and ${invoices.dueDate} < now()))`;

/**
 * Joins an order to its first invoice: the only one of a purchase, or a quote's deposit (its balance,
 * issued when the work is complete, is an invoice of its own in the invoice lists).
 */
export const firstInvoiceOf = (orderId: SQLWrapper | string) =>
  and(eq(invoices.orderId, orderId), ne(invoices.kind, "balance"));
