/**
 * The client's quote page (`/client/quotes/{id}`, issue "quotes"): what its loader shows and what its
 * two forms do. Only the signed-in client's own quote, sent or later (never a draft); another's, an
 * unknown or a malformed id are the same 404. Accepting sends the client straight on to the checkout of
 * the invoice it made (the deposit, or the whole amount), as a purchase does.
 */
import { asc, eq } from "drizzle-orm";
import { type AppLoadContext, data, redirect } from "react-router";
import type { Client } from "~/db/schema";
import { invoices } from "~/db/schema";
import { accountLocaleOf } from "~/features/accounts/account-locale";
import { isUuid } from "~/features/ids/ids";
import { payInvoice } from "~/features/orders/orders.server";
import { orderDeps } from "~/features/payments/deps.server";
import { type FieldErrors, formValues, parseForm } from "~/ui/form";
import { acceptInput, acceptQuote, declineQuote } from "./quote-acceptance.server";
import type { QuoteDeps } from "./quote-deps.server";
import { getClientQuote } from "./quote-queries.server";
import { type QuoteView, quoteView } from "./quote-view";

export interface ClientQuotePage {
  quote: QuoteView;
  /** An accepted quote's order and its invoices (the deposit, then the balance once issued). */
  order: {
    id: string;
    href: string;
    invoices: Array<{ id: string; number: string; kind: string; status: string; href: string }>;
  } | null;
}

export type ClientQuoteActionResult =
  | {
      intent: "accept";
      ok: false;
      error: string;
      fieldErrors: FieldErrors;
      values: { signature: string };
    }
  | { intent: "decline"; ok: true; message: string }
  | { intent: "decline"; ok: false; error: string; values: { reason: string } }
  | { intent: null; ok: false; error: string };

type ClientRef = Pick<Client, "id" | "email" | "timeZone" | "language">;

/** The page's data, or null (404). */
export async function loadClientQuote(
  context: AppLoadContext,
  client: ClientRef,
  quoteId: string,
): Promise<ClientQuotePage | null> {
  if (!isUuid(quoteId)) return null;
  const db = context.runtime.database.db;
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
  return { quote: quoteView(quote, context.runtime.config.business, undefined, undefined, timeZone), order };
}

function quoteDeps(context: AppLoadContext, client: ClientRef): QuoteDeps {
  return {
    db: context.runtime.database.db,
    config: context.runtime.config,
    actor: { id: client.id, email: client.email },
  };
}

export const UNKNOWN_QUOTE_FORM = "This form is not one of the page's. Please reload the page and try again.";

/**
 * Accept (intent=accept: the terms ticked, the full name typed) or decline (intent=decline, a reason
 * if any). An acceptance throws the redirect to the checkout of its invoice (or to the invoice's page
 * when the provider could not start one); anything else answers the page's data with its status.
 */
export async function clientQuoteAction(
  context: AppLoadContext,
  request: Request,
  client: ClientRef,
  quoteId: string,
) {
  const notFound = () =>
    data<ClientQuoteActionResult>({ intent: null, ok: false, error: "Quote not found." }, 404);
  if (!isUuid(quoteId)) return notFound();
  const values = formValues(await request.formData());
  const deps = quoteDeps(context, client);
  if (values.intent === "accept") {
    const signature = values.signature ?? "";
    const fail = (status: number, error: string, fieldErrors: FieldErrors = {}) =>
      data<ClientQuoteActionResult>(
        { intent: "accept", ok: false, error, fieldErrors, values: { signature } },
        status,
      );
    // The field each message belongs to; acceptQuote checks the same schema again.
    const parsed = parseForm(acceptInput, { ...values, signature });
    if (!parsed.ok) {
      // The quote's existence is checked before the form's errors are shown: another's is a 404.
      if (!(await getClientQuote(deps.db, client, quoteId))) return notFound();
      return fail(400, parsed.error, parsed.fieldErrors);
    }
    const accepted = await acceptQuote(deps, client, quoteId, parsed.data, {
      ip: context.clientIp,
      userAgent: request.headers.get("user-agent"),
    });
    if (!accepted.ok) return accepted.status === 404 ? notFound() : fail(accepted.status, accepted.error);
    context.runtime.outbox.wake();
    const checkout = await payInvoice(orderDeps(context), { client, invoiceId: accepted.invoiceId });
    throw redirect(checkout.ok ? checkout.redirectTo : `/client/invoice/${accepted.invoiceId}`);
  }
  if (values.intent === "decline") {
    const reason = values.reason ?? "";
    const declined = await declineQuote(deps, client, quoteId, { reason });
    if (!declined.ok) {
      if (declined.status === 404) return notFound();
      return data<ClientQuoteActionResult>(
        { intent: "decline", ok: false, error: declined.error, values: { reason } },
        declined.status,
      );
    }
    context.runtime.outbox.wake();
    return data<ClientQuoteActionResult>({ intent: "decline", ok: true, message: declined.message });
  }
  if (!(await getClientQuote(deps.db, client, quoteId))) return notFound();
  return data<ClientQuoteActionResult>({ intent: null, ok: false, error: UNKNOWN_QUOTE_FORM }, 400);
}
