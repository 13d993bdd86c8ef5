/**
 * What part of its order an invoice bills, in words (ADR 0513, issue 37 item 2): a quote's deposit or
 * balance is labelled as such wherever an invoice appears (its page and PDF, the lists, the checkout's
 * line, the thank-you page), so a paid deposit never reads as the whole order paid. Pure.
 */

/** "Deposit" or "Balance" for a quote's part; null for an invoice of the whole order ("full", absent). */
export function invoicePartLabel(kind: string | null | undefined): "Deposit" | "Balance" | null {
  return kind === "deposit" ? "Deposit" : kind === "balance" ? "Balance" : null;
}

/** "Deposit invoice", "Balance invoice" or "Invoice". */
export function invoiceKindTitle(kind: string | null | undefined): string {
  const part = invoicePartLabel(kind);
  return part ? `${part} invoice` : "Invoice";
}
