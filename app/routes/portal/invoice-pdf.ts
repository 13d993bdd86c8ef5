import { requireClient } from "~/features/accounts/session.server";
import { pdfDownload, renderInvoicePdf } from "~/features/invoices/invoice-pdf.server";
import { getClientInvoice } from "~/features/invoices/invoices.server";
import { creditNotesToPrint } from "~/features/refunds/credit-notes.server";
import type { Route } from "./+types/invoice-pdf";

/** The invoice as a PDF file (the signed-in client's own only; anything else 404). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { client } = await requireClient(request, context);
  const db = context.runtime.database.db;
  const found = await getClientInvoice(db, client.id, params.invoiceId);
  if (!found)
    return new Response("Invoice Not Found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const creditNotes = await creditNotesToPrint(db, found.invoice);
  const pdf = await renderInvoicePdf({ ...found, creditNotes }, context.runtime.config.business);
  return pdfDownload(pdf, found.invoice.invoiceNumber);
}
