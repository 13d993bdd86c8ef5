import { idParam, requireAdmin } from "~/features/admin/route-helpers.server";
import {
  eInvoiceResponse,
  invoiceEInvoiceFile,
  isEInvoiceFormat,
} from "~/features/invoices/einvoice-files.server";
import { getInvoiceDocument } from "~/features/invoices/invoices.server";
import type { Route } from "./+types/invoice-einvoice";

/** An invoice as an e-invoice, for the owner (issue 40). 404 for anyone but an admin, and for unknown ids. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  if (!isEInvoiceFormat(params.format)) throw new Response("Not Found", { status: 404 });
  const db = context.runtime.database.db;
  const found = await getInvoiceDocument(db, idParam(params.invoiceId));
  if (!found) throw new Response("Not Found", { status: 404 });
  return eInvoiceResponse(
    await invoiceEInvoiceFile(db, found, params.format, context.runtime.config),
    "invoice",
  );
}
