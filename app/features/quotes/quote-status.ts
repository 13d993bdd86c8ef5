/**
 * Where a quote stands, in one place for the client's pages, the back office and the PDF (pure): a
 * sent quote reads expired from the day after its valid-until day (UTC), whether or not the scheduled
 * expiry (quote-expiry.server.ts) has stored it yet. Its SQL twin is quote-status.server.ts.
 */
import type { QuoteStatus } from "~/db/schema";

/** The day (UTC, "YYYY-MM-DD") a quote's valid-until day is compared with. */
export function quoteDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** A sent quote can be accepted while it is sent and its valid-until day (UTC) has not passed. */
export function isAcceptable(status: string, validUntil: string, now: Date = new Date()): boolean {
  return status === "sent" && quoteDay(now) <= validUntil;
}

/** The status a person sees for a quote: its stored one, except a sent quote past its day is expired. */
export function shownQuoteStatus(
  quote: { status: QuoteStatus; validUntil: string },
  now: Date = new Date(),
): QuoteStatus {
  return quote.status === "sent" && quoteDay(now) > quote.validUntil ? "expired" : quote.status;
}
