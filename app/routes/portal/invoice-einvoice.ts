import { requireClient } from "~/features/accounts/session.server";
import {
  eInvoiceResponse,
  invoiceEInvoiceFile,
  isEInvoiceFormat,
} from "~/features/invoices/einvoice-files.server";
import { getClientInvoice } from "~/features/invoices/invoices.server";
import type { Route } from "./+types/invoice-einvoice";

const notFound = (what: string) =>
  new Response(what, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/** The signed-in client's own invoice as an e-invoice (issue 40); anything else 404. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { client } = await requireClient(request, context);
  if (!isEInvoiceFormat(params.format)) return notFound("No such e-invoice format.");
  const db = context.runtime.database.db;
  const found = await getClientInvoice(db, client.id, params.invoiceId);
  if (!found || params.invoiceId === "latest") return notFound("Invoice Not Found");
  return eInvoiceResponse(
    await invoiceEInvoiceFile(db, found, params.format, context.runtime.config),
    "invoice",
  );
}
