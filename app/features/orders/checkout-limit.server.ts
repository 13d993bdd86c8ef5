/**
 * The limit on calls to the payment provider (ARCHITECTURE.md "rate limits on … checkout"): every
 * operation that asks the provider for a checkout (a purchase, Pay Now, and whatever comes next)
 * counts against one budget per client, in the database (ADR 0301), so it holds whichever page or
 * process calls it. It is the operation's limit, not a page's: the page cannot forget it.
 */
import type { Database } from "~/db/client.server";
import { consumeRateLimit } from "~/features/rate-limit/rate-limit.server";

/** Checkouts a client may start per hour, purchases and Pay Now together. */
export const CHECKOUTS_PER_HOUR = 30;
const WINDOW_MS = 60 * 60 * 1000;

export type CheckoutAllowance =
  | { allowed: true }
  | { allowed: false; status: 429; retryAfterSeconds: number };

/** Counts one provider checkout for the client; refused past the hourly budget. */
export async function consumeCheckoutAllowance(db: Database, clientId: string): Promise<CheckoutAllowance> {
  const limit = await consumeRateLimit(db, `checkout:${clientId}`, CHECKOUTS_PER_HOUR, WINDOW_MS);
  return limit.allowed
    ? { allowed: true }
    : { allowed: false, status: 429, retryAfterSeconds: limit.retryAfterSeconds };
}
