import { data, Form, Link } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { EInvoiceLinks, PrintAndDownload } from "~/features/invoices/DocumentParts";
import { eInvoiceOffer, invoiceAsEInvoice } from "~/features/invoices/einvoice-files.server";
import { InvoiceDocument } from "~/features/invoices/InvoiceDocument";
import { invoiceView } from "~/features/invoices/invoice-view";
import { getClientInvoice } from "~/features/invoices/invoices.server";
import { creditNotesToPrint } from "~/features/refunds/credit-notes.server";
import { pageTitle } from "~/features/site/meta";
import { ButtonLink, buttonClass } from "~/ui/button";
import type { Route } from "./+types/invoice";

export const meta: Route.MetaFunction = ({ data: d, matches }) => [
  { title: pageTitle(d?.invoice ? d.invoice.title : "Invoice Not Found", matches) },
  { name: "robots", content: "noindex" },
];

/** Only the signed-in client's own invoice; anything else is 'Invoice Not Found' (404), no hint either way. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { client } = await requireClient(request, context);
  const db = context.runtime.database.db;
  const found = await getClientInvoice(db, client.id, params.invoiceId);
  if (!found) return data({ invoice: null, orderHref: null, eInvoice: null }, { status: 404 });
  // Refunded (ADR 0505): its credit notes, each linked to its page.
  const creditNotes = await creditNotesToPrint(db, found.invoice);
  const view = invoiceView({ ...found, creditNotes }, context.runtime.config.business);
  const { doc, stored } = await invoiceAsEInvoice(db, found, context.runtime.config);
  const eInvoice = eInvoiceOffer(doc, stored, `/client/invoices/${found.invoice.id}/e-invoice`);
  return { invoice: view, orderHref: `/client/orders/${found.order.id}`, eInvoice };
}

export default function InvoicePage({ loaderData }: Route.ComponentProps) {
  const v = loaderData.invoice;
  if (!v) {
    return (
      <div className="mx-auto max-w-xl px-4 py-20 text-center">
        <h1 className="text-3xl font-bold">Invoice Not Found</h1>
        <p className="mt-4 text-slate-600">We could not find this invoice in your account.</p>
        <ButtonLink to="/client/dashboard" className="mt-8">
          Back to Dashboard
        </ButtonLink>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden" data-print-hide>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          <Link to="/client/dashboard" className="text-sm font-medium text-brand-700 hover:underline">
            ← Back to Dashboard
          </Link>
          {loaderData.orderHref && (
            <Link to={loaderData.orderHref} className="text-sm font-medium text-brand-700 hover:underline">
              View order
            </Link>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          {v.tone !== "paid" && v.status !== "void" && (
            <Form method="post" action={`/client/invoices/${v.id}/pay`}>
              <button type="submit" className={buttonClass("primary")}>
                Pay Now
              </button>
            </Form>
          )}
          <PrintAndDownload pdfHref={`/invoice/${v.id}/pdf`} />
        </div>
      </div>
      {loaderData.eInvoice && (
        <div className="mt-3 flex justify-end print:hidden" data-print-hide>
          <EInvoiceLinks offer={loaderData.eInvoice} />
        </div>
      )}
      <InvoiceDocument invoice={v} />
    </div>
  );
}
