import { idParam, requireAdmin } from "~/features/admin/route-helpers.server";
import { pdfDownload } from "~/features/invoices/invoice-pdf.server";
import { renderQuotePdf } from "~/features/quotes/quote-pdf.server";
import { getQuote } from "~/features/quotes/quote-queries.server";
import type { Route } from "./+types/quote-pdf";

/**
 * A quote's PDF for the owner: the client's own file (a draft too, to read it over before sending).
 * 404 for anyone but an admin, and for an unknown or malformed id.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const quote = await getQuote(context.runtime.database.db, idParam(params.quoteId));
  if (!quote) throw new Response("Not Found", { status: 404 });
  const pdf = await renderQuotePdf(quote, context.runtime.config.business);
  return pdfDownload(pdf, quote.quoteNumber ?? "quote-draft");
}
