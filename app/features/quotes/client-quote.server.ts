/**
 * The client's quote page (`/client/quotes/{id}`, issue "quotes"): what its loader shows and what its
 * two forms do. Only the signed-in client's own quote, sent or later (never a draft); another's, an
 * unknown or a malformed id are the same 404. Accepting sends the client straight on to the checkout of
 * the invoice it made (the deposit, or the whole amount), as a purchase does. Called with deps
 * (`clientQuoteDeps`, built by the route), as the order page's server code is.
 */
import { asc, eq } from "drizzle-orm";
import type { Client } from "~/db/schema";
import { invoices } from "~/db/schema";
import { accountLocaleOf } from "~/features/accounts/account-locale";
import { isUuid } from "~/features/ids/ids";
import { type OrderDeps, payInvoice } from "~/features/orders/orders.server";
import {
  type ActionFailure,
  type ActionResult,
  type ActionSuccess,
  type FieldErrors,
  formValues,
  parseForm,
} from "~/ui/form";
import { acceptInput, acceptQuote, declineQuote } from "./quote-acceptance.server";
import type { QuoteDeps } from "./quote-deps.server";
import { getClientQuote } from "./quote-queries.server";
import { type QuoteView, quoteView } from "./quote-view";

export interface ClientQuotePage {
  quote: QuoteView;
  /** The name on the account: a signature for oneself must be it (issue 37, item 9). */
  accountName: string;
  /** An accepted quote's order and its invoices (the deposit, then the balance once issued). */
  order: {
    id: string;
    href: string;
    invoices: Array<{ id: string; number: string; kind: string; status: string; href: string }>;
  } | null;
}

/** What the page's forms answer; an acceptance that went through answers where the browser goes next. */
export type ClientQuoteActionResult =
  | ActionResult<{ intent: "accept"; redirectTo: string }, AcceptFailure>
  | ActionResult<{ intent: "decline"; message: string }, { intent: "decline"; values: { reason: string } }>
  | ActionFailure<{ intent: null }>;

/** What the accept form posts, given back as typed when it is refused. */
export interface AcceptValues {
  signature: string;
  forCompany: string;
  company: string;
  signer: string;
}

type AcceptFailure = { intent: "accept"; fieldErrors: FieldErrors; values: AcceptValues };

/** What the page shows of an answer (an acceptance that went through is a redirect). */
export type ClientQuotePageResult = Exclude<ClientQuoteActionResult, ActionSuccess<{ intent: "accept" }>>;

type ClientRef = Pick<Client, "id" | "email" | "name" | "timeZone" | "language">;

/** What the quote page needs: the client's quote changes, the checkout of an accepted quote's invoice. */
export interface ClientQuoteDeps extends QuoteDeps {
  /** payInvoice's deps: an accepted quote goes on to the checkout of its first invoice. */
  checkout: OrderDeps;
  /** Called after a commit that queued email, so this process's outbox sends it at once. */
  wakeOutbox(): void;
}

/** The page's data, or null (404). */
export async function loadClientQuote(
  deps: Pick<QuoteDeps, "db" | "config">,
  client: ClientRef,
  quoteId: string,
): Promise<ClientQuotePage | null> {
  if (!isUuid(quoteId)) return null;
  const { db } = deps;
  const quote = await getClientQuote(db, client, quoteId);
  if (!quote) return null;
  let order: ClientQuotePage["order"] = null;
  if (quote.status === "accepted" && quote.orderId) {
    const rows = await db
      .select({
        id: invoices.id,
        number: invoices.invoiceNumber,
        kind: invoices.kind,
        status: invoices.status,
      })
      .from(invoices)
      .where(eq(invoices.orderId, quote.orderId))
      .orderBy(asc(invoices.createdAt), asc(invoices.invoiceSeq));
    order = {
      id: quote.orderId,
      href: `/client/orders/${quote.orderId}`,
      invoices: rows.map((r) => ({ ...r, href: `/client/invoice/${r.id}` })),
    };
  }
  const { timeZone } = accountLocaleOf(client);
  return {
    quote: quoteView(quote, deps.config.business, undefined, undefined, timeZone),
    accountName: client.name,
    order,
  };
}

export const UNKNOWN_QUOTE_FORM = "This form is not one of the page's. Please reload the page and try again.";

/**
 * Accept (intent=accept: the terms ticked, the full name typed) or decline (intent=decline, a reason
 * if any). An accepted quote answers where to go: the checkout of its invoice (or the invoice's page
 * when the provider could not start one); anything else answers what the page shows, with its status.
 */
export async function clientQuoteAction(
  deps: ClientQuoteDeps,
  client: ClientRef,
  quoteId: string,
  request: Request,
  meta: { ip: string | null },
): Promise<ClientQuoteActionResult> {
  const notFound = (): ClientQuoteActionResult => ({
    ok: false,
    status: 404,
    intent: null,
    error: "Quote not found.",
  });
  if (!isUuid(quoteId)) return notFound();
  const values = formValues(await request.formData());
  if (values.intent === "accept") {
    const typed: AcceptValues = {
      signature: values.signature ?? "",
      forCompany: values.forCompany ?? "",
      company: values.company ?? "",
      signer: values.signer ?? "",
    };
    // A signature that is not the signer's name (400) is the signature field's message.
    const fail = (status: number, error: string): ClientQuoteActionResult => ({
      ok: false,
      status,
      intent: "accept",
      error,
      ...(status === 400
        ? { fieldErrors: { signature: error }, inFields: true as const }
        : { fieldErrors: {} }),
      values: typed,
    });
    // The field each message belongs to; acceptQuote checks the same schema again.
    const parsed = parseForm(acceptInput, {
      terms: values.terms,
      signature: typed.signature,
      forCompany: typed.forCompany || undefined,
      company: typed.company,
      signer: typed.signer,
    });
    if (!parsed.ok) {
      // The quote's existence is checked before the form's errors are shown: another's is a 404.
      if (!(await getClientQuote(deps.db, client, quoteId))) return notFound();
      return { ...parsed, intent: "accept", values: typed };
    }
    const accepted = await acceptQuote(deps, client, quoteId, parsed.data, {
      ip: meta.ip,
      userAgent: request.headers.get("user-agent"),
    });
    if (!accepted.ok) return accepted.status === 404 ? notFound() : fail(accepted.status, accepted.error);
    deps.wakeOutbox();
    const checkout = await payInvoice(deps.checkout, { client, invoiceId: accepted.invoiceId });
    const redirectTo = checkout.ok ? checkout.redirectTo : `/client/invoice/${accepted.invoiceId}`;
    return { ok: true, intent: "accept", redirectTo };
  }
  if (values.intent === "decline") {
    const reason = values.reason ?? "";
    const declined = await declineQuote(deps, client, quoteId, { reason });
    if (!declined.ok) {
      if (declined.status === 404) return notFound();
      return { ...declined, intent: "decline", values: { reason } };
    }
    deps.wakeOutbox();
    return { ok: true, intent: "decline", message: declined.message };
  }
  if (!(await getClientQuote(deps.db, client, quoteId))) return notFound();
  return { ok: false, status: 400, intent: null, error: UNKNOWN_QUOTE_FORM };
}
