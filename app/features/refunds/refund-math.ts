/**
 * The arithmetic of refunds (docs/decisions/0505-refunds-and-credit-notes.md), pure and exact: every
 * amount is an integer of minor units of its currency (cents, or yen for zero-decimal currencies), so
 * no float arithmetic touches money. Shared by the back office's form (what it may ask), the server
 * (what it records) and the credit note (how a refund splits into tax and USD).
 */
import { decimalsFor, formatMoney } from "~/features/currency/currency";

export type AmountInput = { ok: true; minor: number } | { ok: false; error: string };

/** The largest amount a form may name, in minor units: far above any invoice, below 2^53. */
const MAX_MINOR = 1e13;

/**
 * An amount typed by a person ("12.50", "1,200", " 80 ") → minor units of `currency`, read from its
 * digits (never through a float). More decimals than the currency has is refused, not rounded.
 */
export function parseAmountInput(text: string, currency: string): AmountInput {
  const cleaned = text.trim().replace(/[\s,]/g, "");
  const decimals = decimalsFor(currency);
  const match = /^(\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return { ok: false, error: "Enter the amount as a number, like 12.50." };
  const [, whole, fraction = ""] = match;
  const significant = fraction.replace(/0+$/, "");
  if (significant.length > decimals) {
    return {
      ok: false,
      error:
        decimals === 0
          ? `${currency} has no decimals: enter a whole amount.`
          : `${currency} has ${decimals} decimals: enter at most ${decimals} after the point.`,
    };
  }
  const minor = Number(whole) * 10 ** decimals + Number(significant.padEnd(decimals, "0") || "0");
  if (!Number.isSafeInteger(minor) || minor > MAX_MINOR)
    return { ok: false, error: "The amount is too large." };
  if (minor <= 0) return { ok: false, error: "Enter an amount above zero." };
  return { ok: true, minor };
}

/** Minor units → the major-unit number the database stores (numeric(14, 2)). */
export function minorToAmount(minor: number, currency: string): number {
  return minor / 10 ** decimalsFor(currency);
}

/** A stored amount (numeric read as a number) → exact minor units of its currency. */
export function amountToMinor(amount: number, currency: string): number {
  const factor = 10 ** decimalsFor(currency);
  return Math.round(amount * factor);
}

/** What the owner may still refund: the total less what was refunded and what is being refunded. */
export function refundableMinor(totalMinor: number, refundedMinor: number, pendingMinor: number): number {
  return Math.max(0, totalMinor - refundedMinor - pendingMinor);
}

export interface InvoiceShares {
  /** The invoice's total, tax and USD total, in minor units. */
  totalMinor: number;
  taxMinor: number;
  usdMinor: number;
}

export interface RefundShares {
  /** The refund's part of the invoice's tax, of its amount before tax, and its USD value (cents). */
  taxMinor: number;
  subtotalMinor: number;
  usdMinor: number;
}

/**
 * How a refund of `refundMinor`, after `refundedBeforeMinor` was already refunded, splits into tax
 * and USD: each share is the cumulative share after the refund less the cumulative share before it,
 * each rounded once, so the credit notes of an invoice always add up to exactly its tax and its USD
 * total when it is refunded in full, however many parts it was refunded in.
 */
export function refundShares(
  invoice: InvoiceShares,
  refundedBeforeMinor: number,
  refundMinor: number,
): RefundShares {
  const after = refundedBeforeMinor + refundMinor;
  if (refundMinor <= 0 || after > invoice.totalMinor)
    throw new RangeError("refund outside the invoice total");
  const cumulative = (part: number, refunded: number) =>
    invoice.totalMinor === 0 ? 0 : roundHalfUp((part * refunded) / invoice.totalMinor);
  const taxMinor = cumulative(invoice.taxMinor, after) - cumulative(invoice.taxMinor, refundedBeforeMinor);
  const usdMinor = cumulative(invoice.usdMinor, after) - cumulative(invoice.usdMinor, refundedBeforeMinor);
  return { taxMinor, subtotalMinor: refundMinor - taxMinor, usdMinor };
}

/** Rounds a non-negative quotient of integers half up (the products stay far below 2^53). */
function roundHalfUp(value: number): number {
  return Math.floor(value + 0.5 + 1e-9);
}

/** "{refunded} of {total} refunded" (the invoice's summary line once a refund is recorded). */
export function refundedLine(
  totalAmount: number,
  refundedAmount: number,
  currency: string,
  format = formatMoney,
): string {
  return `${format(refundedAmount, currency)} of ${format(totalAmount, currency)} refunded`;
}
