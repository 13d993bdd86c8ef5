import { data, redirect } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { ClientQuotePage, QuoteNotFound } from "~/features/quotes/ClientQuotePage";
import { clientQuoteAction, loadClientQuote } from "~/features/quotes/client-quote.server";
import { clientQuoteDeps } from "~/features/quotes/client-quote-deps.server";
import { pageTitle } from "~/features/site/meta";
import { actionResponse } from "~/ui/form";
import type { Route } from "./+types/quote";

export const meta: Route.MetaFunction = ({ data: d, matches }) => [
  { title: pageTitle(d?.page ? `Quote ${d.page.quote.number}` : "Quote Not Found", matches) },
  { name: "robots", content: "noindex" },
];

/**
 * Not in the spec (issue "quotes"): one of the signed-in client's quotes, sent or later; another's, a
 * draft, or a malformed id is 'Quote Not Found' (404), no hint either way.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { client } = await requireClient(request, context);
  const page = await loadClientQuote(clientQuoteDeps(context, client), client, params.quoteId);
  if (!page) return data({ page: null }, { status: 404 });
  return { page };
}

/** Accept (on to the checkout of its invoice) or decline. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { client } = await requireClient(request, context);
  const deps = clientQuoteDeps(context, client);
  const result = await clientQuoteAction(deps, client, params.quoteId, request, { ip: context.clientIp });
  if (result.ok && result.intent === "accept") throw redirect(result.redirectTo);
  return actionResponse(result);
}

export default function ClientQuote({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.page) return <QuoteNotFound />;
  return <ClientQuotePage key={loaderData.page.quote.id} page={loaderData.page} result={actionData} />;
}
