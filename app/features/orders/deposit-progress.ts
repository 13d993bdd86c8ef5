/**
 * Where a quote's order with a deposit stands in payment (ADR 0513, issue 37 item 2), in the words the
 * order page shows: a paid deposit is never "Paid" alone. Pure; the amounts are the invoices' totals,
 * tax included, and the quote's total (deposit + balance = total, to the cent).
 */
import { formatMoney } from "~/features/money/format";
import { fromMinorUnits, toMinorUnits } from "~/features/money/minor-units";

export interface PartInvoice {
  kind: string;
  /** The stored status (sent, paid, overdue, void). */
  status: string;
  totalAmount: number;
  currency: string;
}

export interface DepositProgress {
  /** "Deposit paid $152.50 of $305.00", "Paid in full: $305.00", "Deposit $152.50 of $305.00 due". */
  line: string;
  /** What is left to invoice or to pay, in a sentence; null once paid in full. */
  next: string | null;
  /** The order's badge while only the deposit is paid ("Deposit paid"), else null (its own status). */
  badge: string | null;
}

/** null for an order billed whole (no deposit invoice), or one whose deposit was voided. */
export function depositProgress(
  invoices: readonly PartInvoice[],
  totalAmount: number,
  format = formatMoney,
): DepositProgress | null {
  const deposit = invoices.find((i) => i.kind === "deposit");
  if (!deposit || deposit.status === "void") return null;
  const balance = invoices.find((i) => i.kind === "balance" && i.status !== "void");
  const { currency } = deposit;
  const money = (amount: number) => format(amount, currency);
  const total = money(totalAmount);
  if (deposit.status !== "paid") {
    return { line: `Deposit ${money(deposit.totalAmount)} of ${total} due`, next: null, badge: null };
  }
  if (balance?.status === "paid") return { line: `Paid in full: ${total}`, next: null, badge: null };
  return {
    line: `Deposit paid ${money(deposit.totalAmount)} of ${total}`,
    next: balance
      ? `Balance ${money(balance.totalAmount)} due`
      : `Balance ${money(fromMinorUnits(toMinorUnits(totalAmount, currency) - toMinorUnits(deposit.totalAmount, currency), currency))} invoiced when the work is complete`,
    badge: "Deposit paid",
  };
}
