import { requireClient } from "~/features/accounts/session.server";
import { renderInvoicePdf } from "~/features/invoices/invoice-pdf.server";
import { getClientInvoice } from "~/features/invoices/invoices.server";
import type { Route } from "./+types/invoice-pdf";

/** The invoice as a PDF file (the signed-in client's own only; anything else 404). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { client } = await requireClient(request, context);
  const found = await getClientInvoice(context.runtime.database.db, client.id, params.invoiceId);
  if (!found)
    return new Response("Invoice Not Found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const pdf = await renderInvoicePdf(found, context.runtime.config.business);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${found.invoice.invoiceNumber}.pdf"`,
      "Content-Length": String(pdf.length),
      "Cache-Control": "private, no-store",
    },
  });
}
