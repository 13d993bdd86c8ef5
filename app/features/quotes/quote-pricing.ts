/**
 * A quote's amounts (issue "quotes"), pure and exact: integer cents of USD throughout. Lines are
 * quantity × unit price; the discount comes off the sum; tax is charged on what is left at the rate of
 * the invoices; a deposit is a whole percent of the total, its tax the same share of the tax (rounded
 * once), and the balance is exactly what is left, so deposit + balance = total to the cent.
 */
import type { Quote, QuoteLine } from "~/db/schema";
import { lineAmountMinor, roundHalfAwayFromZero, toMinorUnits } from "~/features/money/minor-units";

export interface QuoteAmounts {
  /** Each line's amount, in cents, in order. */
  lineCents: number[];
  subtotalCents: number;
  discountCents: number;
  taxCents: number;
  totalCents: number;
}

export const cents = (usd: number) => toMinorUnits(usd, "USD");
export const dollars = (c: number) => c / 100;

export function quoteAmounts(
  lines: readonly QuoteLine[],
  discountUsd: number,
  taxRatePercent: number,
): QuoteAmounts {
  const lineCents = lines.map((l) => lineAmountMinor(l.unitPriceUsd, l.quantity, "USD"));
  const subtotalCents = lineCents.reduce((a, b) => a + b, 0);
  const discountCents = Math.min(cents(discountUsd), subtotalCents);
  const taxable = subtotalCents - discountCents;
  const taxCents = roundHalfAwayFromZero((taxable * taxRatePercent) / 100);
  return { lineCents, subtotalCents, discountCents, taxCents, totalCents: taxable + taxCents };
}

export interface InvoiceSplit {
  /** Before tax, the tax, the total: cents. */
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
}

/** The deposit (a whole percent of the total) and the balance; without a deposit, all in the first. */
export function depositSplit(
  amounts: Pick<QuoteAmounts, "taxCents" | "totalCents">,
  depositPercent: number | null,
): { first: InvoiceSplit; balance: InvoiceSplit | null } {
  const whole = {
    subtotalCents: amounts.totalCents - amounts.taxCents,
    taxCents: amounts.taxCents,
    totalCents: amounts.totalCents,
  };
  if (!depositPercent) return { first: whole, balance: null };
  const totalCents = roundHalfAwayFromZero((amounts.totalCents * depositPercent) / 100);
  const taxCents = roundHalfAwayFromZero((amounts.taxCents * depositPercent) / 100);
  const first = { subtotalCents: totalCents - taxCents, taxCents, totalCents };
  return {
    first,
    balance: {
      subtotalCents: whole.subtotalCents - first.subtotalCents,
      taxCents: whole.taxCents - taxCents,
      totalCents: whole.totalCents - totalCents,
    },
  };
}

/** A stored quote's amounts as the owner's page shows them: each line's, the deposit and the balance. */
export interface QuoteFigures {
  lineUsd: number[];
  depositUsd: number | null;
  balanceUsd: number | null;
}

export function quoteFigures(
  quote: Pick<Quote, "lines" | "discountUsd" | "taxRatePercent" | "taxUsd" | "totalUsd" | "depositPercent">,
): QuoteFigures {
  const { lineCents } = quoteAmounts(quote.lines, quote.discountUsd, quote.taxRatePercent);
  const split = depositSplit(
    { taxCents: cents(quote.taxUsd), totalCents: cents(quote.totalUsd) },
    quote.depositPercent,
  );
  return {
    lineUsd: lineCents.map((c) => c / 100),
    depositUsd: split.balance ? split.first.totalCents / 100 : null,
    balanceUsd: split.balance ? split.balance.totalCents / 100 : null,
  };
}

/** Quote numbers: `Q-{year}-{seq}`, four digits like invoices'. */
export function quoteNumberFor(year: number, seq: number): string {
  return `Q-${year}-${String(seq).padStart(4, "0")}`;
}
