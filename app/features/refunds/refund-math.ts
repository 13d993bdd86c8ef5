/**
 * The arithmetic of refunds (docs/decisions/0505-refunds-and-credit-notes.md), pure and exact: every
 * amount is an integer of minor units of its currency (cents, or yen for zero-decimal currencies), so
 * no float arithmetic touches money. Shared by the back office's form (what it may ask), the server
 * (what it records) and the credit note (how a refund splits into tax and USD).
 */

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
