import { Link } from "react-router";
import { idParam, requireAdmin } from "~/features/admin/route-helpers.server";
import { EInvoiceLinks, PdfDownloadLink } from "~/features/invoices/DocumentParts";
import { eInvoiceOffer } from "~/features/invoices/einvoice-files.server";
import { CreditNoteDocument } from "~/features/refunds/CreditNoteDocument";
import { creditNoteAsEInvoice } from "~/features/refunds/credit-note-einvoice.server";
import { creditNoteView } from "~/features/refunds/credit-note-view";
import { getCreditNoteDocument } from "~/features/refunds/credit-notes.server";
import { pageTitle } from "~/features/site/meta";
import { Page } from "~/ui/page";
import type { Route } from "./+types/credit-note";

export const meta: Route.MetaFunction = ({ data: d, matches }) => [
  { title: pageTitle(d ? `Credit note ${d.creditNote.number} · Back Office` : "Back Office", matches) },
];

/** A credit note as the client has it (ADR 0505), with its invoice and order; 404 for anyone else. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const found = await getCreditNoteDocument(context.runtime.database.db, idParam(params.creditNoteId));
  if (!found) throw new Response("Not Found", { status: 404 });
  const { doc, stored } = creditNoteAsEInvoice(found, context.runtime.config);
  return {
    creditNote: creditNoteView(found, context.runtime.config.business),
    orderId: found.creditNote.orderId,
    eInvoice: eInvoiceOffer(doc, stored, `/admin/credit-notes/${found.creditNote.id}/e-invoice`),
  };
}

export default function AdminCreditNote({ loaderData: d }: Route.ComponentProps) {
  const v = d.creditNote;
  const invoiceHref = `/admin/invoices/${v.invoice.id}`;
  return (
    <Page
      title={`Credit note ${v.number}`}
      actions={
        <div className="flex flex-wrap items-center gap-4">
          <Link to={invoiceHref} className="text-brand-700 underline">
            Invoice {v.invoice.number}
          </Link>
          <Link to={`/admin/orders/${d.orderId}`} className="text-brand-700 underline">
            Order
          </Link>
          <PdfDownloadLink href={`/admin/credit-notes/${v.id}/pdf`} />
        </div>
      }
    >
      <div className="mb-4">
        <EInvoiceLinks offer={d.eInvoice} showProblems />
      </div>
      <CreditNoteDocument creditNote={v} invoiceHref={invoiceHref} headingLevel={2} />
    </Page>
  );
}
