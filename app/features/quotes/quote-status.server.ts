/** The SQL twin of quote-status.ts: the sent quotes that read expired, for the scheduled expiry. */
import { and, eq, lt } from "drizzle-orm";
import { quotes } from "~/db/schema";
import { quoteDay } from "./quote-status";

/** `shownQuoteStatus(quote, now) === "expired"` for a quote still stored as sent. */
export const expiredSentQuoteSql = (now: Date) =>
  and(eq(quotes.status, "sent"), lt(quotes.validUntil, quoteDay(now)));
