import { idParam, requireAdmin } from "~/features/admin/route-helpers.server";
import { eInvoiceResponse, isEInvoiceFormat } from "~/features/invoices/einvoice-files.server";
import { creditNoteEInvoiceFile } from "~/features/refunds/credit-note-einvoice.server";
import { getCreditNoteDocument } from "~/features/refunds/credit-notes.server";
import type { Route } from "./+types/credit-note-einvoice";

/** A credit note as an e-invoice, for the owner (issue 40). 404 for anyone but an admin, and for unknown ids. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  if (!isEInvoiceFormat(params.format)) throw new Response("Not Found", { status: 404 });
  const found = await getCreditNoteDocument(context.runtime.database.db, idParam(params.creditNoteId));
  if (!found) throw new Response("Not Found", { status: 404 });
  return eInvoiceResponse(
    await creditNoteEInvoiceFile(found, params.format, context.runtime.config),
    "credit note",
  );
}
