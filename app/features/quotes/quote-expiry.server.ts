/**
 * The scheduled quote expiry (issue "quotes"): sent quotes past their valid-until day become expired,
 * and both sides are told (`expireQuotes`). Every process offers it on the overdue job's interval
 * (server/timed-jobs.ts, through the periodic-job runner), one at a time through a lease row
 * (`job_leases`, features/jobs, ADR 0503); the update itself re-checks the status, so even two runs never expire or tell twice.
 */
import type { Database } from "~/db/client.server";
import { quotes } from "~/db/schema";
import { type Actor, recordAudit } from "~/features/audit/audit.server";
import { acquireLease, releaseLease } from "~/features/jobs/leases.server";
import { formatDate } from "~/ui/format";
import type { QuoteDeps } from "./quote-deps.server";
import { tellClient, tellOwner } from "./quote-notices.server";
import { expiredSentQuoteSql } from "./quote-status.server";

export const QUOTE_EXPIRY_LEASE = "quote-expiry";
/** A lease outlives a run that dies without releasing it by this much at most. */
export const QUOTE_EXPIRY_LEASE_MS = 5 * 60 * 1000;

export interface QuoteExpiryDeps extends Pick<QuoteDeps, "config"> {
  db: Database;
  /** Called after a run that queued email, so this process's outbox sends it at once. */
  wakeOutbox?: () => void;
}

/** One run: `ran` false when another process holds the lease (nothing was done). */
export async function runQuoteExpiry(
  deps: QuoteExpiryDeps,
  options: { now?: Date; holder?: string } = {},
): Promise<{ ran: boolean; expired: number }> {
  const now = options.now ?? new Date();
  const holder = options.holder ?? `quote-expiry-${process.pid}-${Math.random().toString(36).slice(2)}`;
  if (!(await acquireLease(deps.db, QUOTE_EXPIRY_LEASE, holder, now, QUOTE_EXPIRY_LEASE_MS)))
    return { ran: false, expired: 0 };
  try {
    const expired = await expireQuotes(deps, now);
    if (expired > 0) deps.wakeOutbox?.();
    return { ran: true, expired };
  } finally {
    await releaseLease(deps.db, QUOTE_EXPIRY_LEASE, holder).catch(() => {});
  }
}

/** Sent quotes past their valid-until day become expired; both sides are told. Returns how many. */
export async function expireQuotes(
  deps: Pick<QuoteDeps, "db" | "config">,
  now = new Date(),
): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const expired = await tx
      .update(quotes)
      .set({ status: "expired", expiredAt: now })
      .where(expiredSentQuoteSql(now))
      .returning();
    const system: Actor = { id: null, email: "system" };
    for (const quote of expired) {
      await recordAudit(tx, system, { action: "quote.expire", entity: "quote", entityId: quote.id });
      await tellClient(tx, deps, quote, {
        title: "Quote Expired",
        message: `Quote ${quote.quoteNumber} has expired.`,
        subject: `Quote ${quote.quoteNumber} has expired`,
        lines: [
          `Quote ${quote.quoteNumber} was valid until ${formatDate(quote.validUntil, "medium")}. Ask us for a new one if you still need the work.`,
        ],
      });
      await tellOwner(
        tx,
        deps,
        quote,
        `Quote ${quote.quoteNumber} expired`,
        [
          `Quote ${quote.quoteNumber} for ${quote.name} expired unanswered on ${formatDate(quote.validUntil, "medium")}.`,
        ],
        "expired",
      );
    }
    return expired.length;
  });
}
