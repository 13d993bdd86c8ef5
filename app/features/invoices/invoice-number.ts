/** Invoice numbers: `INV-{year}-{seq}`, the sequence padded to four digits (it may grow past 9999). */
export function invoiceNumberFor(year: number, seq: number): string {
  return `INV-${year}-${String(seq).padStart(4, "0")}`;
}

/** The due date of an invoice issued at `issuedAt` with a term of `dueDays` days. */
export function dueDateFor(issuedAt: Date, dueDays: number): Date {
  return new Date(issuedAt.getTime() + dueDays * 24 * 60 * 60 * 1000);
}

/** Green when paid, red otherwise (client-portal.md "Invoice view"). */
export function invoiceStatusTone(status: string): "paid" | "unpaid" {
  return status === "paid" ? "paid" : "unpaid";
}
