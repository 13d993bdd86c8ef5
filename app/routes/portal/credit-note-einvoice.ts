import { requireClient } from "~/features/accounts/session.server";
import { eInvoiceResponse, isEInvoiceFormat } from "~/features/invoices/einvoice-files.server";
import { creditNoteEInvoiceFile } from "~/features/refunds/credit-note-einvoice.server";
import { getCreditNoteDocument } from "~/features/refunds/credit-notes.server";
import type { Route } from "./+types/credit-note-einvoice";

const notFound = (what: string) =>
  new Response(what, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/** The signed-in client's own credit note as an e-invoice (issue 40); anything else 404. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { client } = await requireClient(request, context);
  if (!isEInvoiceFormat(params.format)) return notFound("No such e-invoice format.");
  const found = await getCreditNoteDocument(context.runtime.database.db, params.creditNoteId, client.id);
  if (!found) return notFound("Credit Note Not Found");
  return eInvoiceResponse(
    await creditNoteEInvoiceFile(found, params.format, context.runtime.config),
    "credit note",
  );
}
