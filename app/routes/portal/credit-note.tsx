import { data, Link } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { clientCreditNotePath } from "~/features/invoices/credit-note-number";
import { EInvoiceLinks, PrintAndDownload } from "~/features/invoices/DocumentParts";
import { eInvoiceOffer } from "~/features/invoices/einvoice-files.server";
import { CreditNoteDocument } from "~/features/refunds/CreditNoteDocument";
import { creditNoteAsEInvoice } from "~/features/refunds/credit-note-einvoice.server";
import { creditNoteView } from "~/features/refunds/credit-note-view";
import { getCreditNoteDocument } from "~/features/refunds/credit-notes.server";
import { pageTitle } from "~/features/site/meta";
import { ButtonLink } from "~/ui/button";
import type { Route } from "./+types/credit-note";

export const meta: Route.MetaFunction = ({ data: d, matches }) => [
  {
    title: pageTitle(d?.creditNote ? `Credit note ${d.creditNote.number}` : "Credit Note Not Found", matches),
  },
  { name: "robots", content: "noindex" },
];

/** Only the signed-in client's own credit note; anything else is 'Credit Note Not Found' (404), as invoices. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { client } = await requireClient(request, context);
  const found = await getCreditNoteDocument(context.runtime.database.db, params.creditNoteId, client.id);
  if (!found) return data({ creditNote: null, eInvoice: null }, { status: 404 });
  const { doc, stored } = creditNoteAsEInvoice(found, context.runtime.config);
  return {
    creditNote: creditNoteView(found, context.runtime.config.business),
    eInvoice: eInvoiceOffer(doc, stored, `${clientCreditNotePath(found.creditNote.id)}/e-invoice`),
  };
}

export default function CreditNotePage({ loaderData }: Route.ComponentProps) {
  const v = loaderData.creditNote;
  if (!v) {
    return (
      <div className="mx-auto max-w-xl px-4 py-20 text-center">
        <h1 className="text-3xl font-bold">Credit Note Not Found</h1>
        <p className="mt-4 text-slate-600">We could not find this credit note in your account.</p>
        <ButtonLink to="/client/invoices" className="mt-8">
          Back to Invoices
        </ButtonLink>
      </div>
    );
  }
  const invoiceHref = `/client/invoice/${v.invoice.id}`;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden" data-print-hide>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          <Link to="/client/invoices" className="text-sm font-medium text-brand-700 hover:underline">
            ← Back to Invoices
          </Link>
          <Link to={invoiceHref} className="text-sm font-medium text-brand-700 hover:underline">
            View invoice {v.invoice.number}
          </Link>
        </div>
        <div className="flex flex-wrap gap-2">
          <PrintAndDownload pdfHref={`${clientCreditNotePath(v.id)}/pdf`} />
        </div>
      </div>
      {loaderData.eInvoice && (
        <div className="mt-3 flex justify-end print:hidden" data-print-hide>
          <EInvoiceLinks offer={loaderData.eInvoice} />
        </div>
      )}
      <CreditNoteDocument creditNote={v} invoiceHref={invoiceHref} />
    </div>
  );
}
