import { accountLocaleOf } from "~/features/accounts/account-locale";
import { requireClient } from "~/features/accounts/session.server";
import { isUuid } from "~/features/ids/ids";
import { pdfDownload } from "~/features/invoices/invoice-pdf.server";
import { renderQuotePdf } from "~/features/quotes/quote-pdf.server";
import { getClientQuote } from "~/features/quotes/quote-queries.server";
import type { Route } from "./+types/quote-pdf";

/** The quote as a PDF file (the signed-in client's own, sent or later; anything else 404), as the invoice's. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { client } = await requireClient(request, context);
  const quote = isUuid(params.quoteId)
    ? await getClientQuote(context.runtime.database.db, client, params.quoteId)
    : null;
  if (!quote)
    return new Response("Quote Not Found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const { timeZone } = accountLocaleOf(client);
  const pdf = await renderQuotePdf(quote, context.runtime.config.business, undefined, timeZone);
  return pdfDownload(pdf, quote.quoteNumber ?? "quote");
}
