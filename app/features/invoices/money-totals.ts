/**
 * One money truth (issue 37; ADR 0500, "One money truth"): what a client, or one order, was invoiced,
 * paid, refunded and still owes, defined here once and shown so by every card, list and page:
 * - invoiced: the totals of the issued invoices that are not void;
 * - paid: what was received, the totals of the paid invoices (refunded or not: they were paid);
 * - refunded: what went back, the credit notes (each refund issues one; ADR 0505);
 * - net paid: paid less refunded ("Total Spent" and "Paid (net of refunds)");
 * - outstanding: the totals of the issued invoices not paid yet (sent or overdue).
 * A quote's order is invoiced as its deposit and later its balance, so an accepted quote whose
 * deposit alone was paid counts that deposit, never the whole quote. Pure: no React, no I/O.
 */
import { formatMoney } from "~/features/money/format";
import { fromMinorUnits } from "~/features/money/minor-units";
import { UNPAID_INVOICE_STATUSES } from "./invoice-status";

/** Figures in integer minor units of `currency`. */
export interface MoneyTotals {
  currency: string;
  invoiced: number;
  paid: number;
  refunded: number;
  netPaid: number;
  outstanding: number;
}

/** Invoices of one stored status: their totals, and what their credit notes gave back (minor units). */
export interface InvoiceSums {
  status: string;
  totalMinor: number;
  refundedMinor: number;
}

const UNPAID: readonly string[] = UNPAID_INVOICE_STATUSES;

export function moneyTotals(currency: string, sums: Iterable<InvoiceSums>): MoneyTotals {
  const t: MoneyTotals = { currency, invoiced: 0, paid: 0, refunded: 0, netPaid: 0, outstanding: 0 };
  for (const s of sums) {
    if (s.status !== "void") t.invoiced += s.totalMinor;
    if (s.status === "paid") t.paid += s.totalMinor;
    if (UNPAID.includes(s.status)) t.outstanding += s.totalMinor;
    t.refunded += s.refundedMinor;
  }
  t.netPaid = t.paid - t.refunded;
  return t;
}

/** The same figures written as every page shows them. */
export interface MoneyFigures {
  invoiced: string;
  paid: string;
  refunded: string;
  netPaid: string;
  outstanding: string;
  /** Something was refunded: pages name the refunded amount beside the net figure. */
  anyRefund: boolean;
}

export function moneyFigures(t: MoneyTotals, format = formatMoney): MoneyFigures {
  const show = (minor: number) => format(fromMinorUnits(minor, t.currency), t.currency);
  return {
    invoiced: show(t.invoiced),
    paid: show(t.paid),
    refunded: show(t.refunded),
    netPaid: show(t.netPaid),
    outstanding: show(t.outstanding),
    anyRefund: t.refunded > 0,
  };
}

/** The label of the net figure wherever it is named for what it is. */
export const NET_PAID_LABEL = "Paid (net of refunds)";

/** The note under a "Total Spent" or "Paid (net of refunds)" card: what it is, and what was refunded. */
export function netPaidNote(f: MoneyFigures): string {
  return f.anyRefund ? `${f.paid} paid, ${f.refunded} refunded` : NET_PAID_LABEL;
}
