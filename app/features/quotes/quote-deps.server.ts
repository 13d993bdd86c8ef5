/**
 * Quotes (issue "quotes"): the owner writes a draft and revises it (quote-drafts.server.ts), sends it
 * (quote-sending.server.ts: numbered `Q-{year}-{seq}` then, from a gap-free counter, and frozen by a
 * trigger); the client accepts or declines it (quote-acceptance.server.ts: terms ticked, full name typed
 * as signature, stored with the time and address); unanswered it expires (quote-expiry.server.ts).
 * Accepting makes the work real in one transaction: the order (one per quote: a unique index) and its
 * first invoice (the deposit, or the whole amount); the balance invoice is issued when the owner
 * completes the order (quote-balance.server.ts). The lists and one quote: quote-queries.server.ts. Every
 * amount is the server's, from the catalogue and the owner's lines.
 *
 * This file: what every verb of the flow shares, its deps and its answer.
 */
import type { Config } from "~/config.server";
import type { ChangeDeps } from "~/features/audit/audit.server";
import type { ActionResult } from "~/ui/form";

/** A change to quotes: the audit's deps, with the invoice rules (tax rate, due days). */
export interface QuoteDeps extends Omit<ChangeDeps, "config"> {
  config: Pick<Config, "business" | "publicUrl" | "invoices"> & Partial<Pick<Config, "tax">>;
}

/** A quote verb's answer: the one form answer (`ActionResult`), its message always said. */
export type QuoteResult<T extends object = { id: string }> = ActionResult<{ message: string } & T>;

export const clientQuotePath = (id: string) => `/client/quotes/${id}`;
export const adminQuotePath = (id: string) => `/admin/quotes/${id}`;
/** The owner's page that writes a quote from a request (its requester and description filled in). */
export const adminQuoteFromRequestPath = (requestId: string) => `/admin/quotes/new?request=${requestId}`;
