/**
 * The credit note's number and address, kept with the invoices (ADR 0012): an invoice's document lists
 * and links its credit notes, and refunds, a layer above, issue them with these.
 */

/** Credit note numbers: `CN-{year}-{seq}`, their own series, padded to four digits like invoices'. */
export function creditNoteNumberFor(year: number, seq: number): string {
  return `CN-${year}-${String(seq).padStart(4, "0")}`;
}

/** Where the client reads a credit note (the owner's is under /admin). */
export function clientCreditNotePath(id: string): string {
  return `/client/credit-notes/${id}`;
}
