import { idParam, requireAdmin } from "~/features/admin/route-helpers.server";
import { pdfDownload } from "~/features/invoices/invoice-pdf.server";
import { renderCreditNotePdf } from "~/features/refunds/credit-note-pdf.server";
import { getCreditNoteDocument } from "~/features/refunds/credit-notes.server";
import type { Route } from "./+types/credit-note-pdf";

/**
 * A credit note's PDF for the owner: the client's own file (the client's route serves only the client's
 * own notes, as the invoice PDF does). 404 for anyone but an admin, and for an unknown or malformed id.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const found = await getCreditNoteDocument(context.runtime.database.db, idParam(params.creditNoteId));
  if (!found) throw new Response("Not Found", { status: 404 });
  const pdf = await renderCreditNotePdf(found, context.runtime.config.business);
  return pdfDownload(pdf, found.creditNote.creditNoteNumber);
}
