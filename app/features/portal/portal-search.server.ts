/**
 * The portal header's search (issue 37, item 14): the signed-in client's own orders and invoices (by
 * service, package, invoice number or id), quotes (by Q- number) and credit notes (by CN- number), for
 * the results page and for the suggestions the box offers as one types. Every query is scoped by the
 * session's client; a text that cannot be part of a quote's or a credit note's number does not ask for
 * them (the page's query budget: tests/integration/portal-pages.test.ts).
 */
import type { Database } from "~/db/client.server";
import { searchClientInvoices } from "~/features/invoices/invoice-lists.server";
import { shownInvoiceStatus } from "~/features/invoices/invoice-status";
import { searchClientOrders } from "~/features/orders/order-lists.server";
import { searchClientQuotes } from "~/features/quotes/quote-queries.server";
import { shownQuoteStatus } from "~/features/quotes/quote-status";
import { searchClientCreditNotes } from "~/features/refunds/credit-notes.server";
import {
  MAX_SUGGESTIONS,
  MIN_SUGGESTION_LENGTH,
  type SearchSuggestion,
  suggestionsOf,
} from "./portal-search";

/** Who searches: the session's client (quotes sent to their address before the account are theirs). */
export interface Searcher {
  id: string;
  email: string;
}

export async function searchPortal(db: Database, client: Searcher, q: string, limit: number, now: Date) {
  if (!q) return { orders: [], invoices: [], quotes: [], creditNotes: [] };
  const [orders, invoices, quotes, creditNotes] = await Promise.all([
    searchClientOrders(db, client.id, q, limit),
    searchClientInvoices(db, client.id, q, limit),
    searchClientQuotes(db, client, q, limit),
    searchClientCreditNotes(db, client.id, q, limit),
  ]);
  return {
    orders,
    invoices: invoices.map((i) => ({ ...i, shownStatus: shownInvoiceStatus(i, now) })),
    quotes: quotes.map((x) => ({
      id: x.id,
      number: x.quoteNumber ?? "",
      totalUsd: x.totalUsd,
      status: shownQuoteStatus(x, now),
    })),
    creditNotes: creditNotes.map((n) => ({ ...n, createdAt: n.createdAt.toISOString() })),
  };
}

export type PortalSearchResults = Awaited<ReturnType<typeof searchPortal>>;

/** The suggestions for the box as one types (`/client/search/suggestions?q=…`). */
export async function searchSuggestions(
  db: Database,
  client: Searcher,
  q: string,
  now: Date,
): Promise<SearchSuggestion[]> {
  if (q.length < MIN_SUGGESTION_LENGTH) return [];
  return suggestionsOf(q, await searchPortal(db, client, q, MAX_SUGGESTIONS, now));
}
