/**
 * The sentence a client reads when an order's follow-up period is over, apart from conversation.ts (which
 * holds zod) so the order page's browser code can write it in the client's zone (ADR 0521).
 */
import { formatDate, type TimeZone } from "~/ui/format";

/** The day in the zone given (the client's on their page; the seller's, UTC, otherwise). */
export const followUpEndedMessage = (endedOn: Date | string, timeZone?: TimeZone) =>
  `Follow-up period ended on ${formatDate(endedOn, "long", timeZone)}.`;
