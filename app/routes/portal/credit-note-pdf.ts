import { requireClient } from "~/features/accounts/session.server";
import { pdfDownload } from "~/features/invoices/invoice-pdf.server";
import { renderCreditNotePdf } from "~/features/refunds/credit-note-pdf.server";
import { getCreditNoteDocument } from "~/features/refunds/credit-notes.server";
import type { Route } from "./+types/credit-note-pdf";

/** The credit note as a PDF file (the signed-in client's own only; anything else 404), as the invoice's. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { client } = await requireClient(request, context);
  const found = await getCreditNoteDocument(context.runtime.database.db, params.creditNoteId, client.id);
  if (!found)
    return new Response("Credit Note Not Found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const pdf = await renderCreditNotePdf(found, context.runtime.config.business);
  return pdfDownload(pdf, found.creditNote.creditNoteNumber);
}
