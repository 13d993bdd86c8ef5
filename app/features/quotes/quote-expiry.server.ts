/**
 * The scheduled quote expiry (issue "quotes"): sent quotes past their valid-until day become expired,
 * and both sides are told (`expireQuotes`). Every process offers it on the overdue job's interval
 * (server/timed-jobs.ts, through the periodic-job runner), one at a time through a lease row
 * (`job_leases`, features/jobs, ADR 0503); the update itself re-checks the status, so even two runs never expire or tell twice.
 */
import type { Database } from "~/db/client.server";
import { acquireLease, releaseLease } from "~/features/jobs/leases.server";
import { expireQuotes, type QuoteDeps } from "./quotes.server";

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
