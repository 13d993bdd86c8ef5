import { Link } from "react-router";
import {
  BillToDetails,
  DocumentFacts,
  DocumentFrame,
  DocumentTotals,
  SellerDetails,
  TaxNotes,
} from "~/features/invoices/DocumentParts";
import type { CreditNoteView } from "./credit-note-view";

/**
 * The printable credit note, as the client's and the owner's pages show it: the seller and the buyer as
 * issued, its date, the invoice it credits (linked to `invoiceHref`), the reason and the amounts.
 * `headingLevel` 2 where the page has its own title (the back office).
 */
export function CreditNoteDocument({
  creditNote: v,
  invoiceHref,
  headingLevel = 1,
}: {
  creditNote: CreditNoteView;
  invoiceHref: string;
  headingLevel?: 1 | 2;
}) {
  const Heading = headingLevel === 1 ? "h1" : "h2";
  return (
    <DocumentFrame id="credit-note" labelledBy="credit-note-title">
      <header className="flex flex-wrap justify-between gap-6">
        <SellerDetails seller={v.business} />
        <div className="text-right">
          <Heading id="credit-note-title" className="text-2xl font-bold">
            Credit note {v.number}
          </Heading>
          <p className="mt-1 text-sm">
            for invoice{" "}
            <Link to={invoiceHref} className="font-medium text-brand-700 underline">
              {v.invoice.number}
            </Link>
          </p>
        </div>
      </header>
      <div className="mt-8 grid grid-cols-1 gap-6 sm:grid-cols-2">
        <BillToDetails billTo={v.billTo} />
        <DocumentFacts
          facts={[
            ["Date", v.issued],
            ["Invoice", v.invoice.number],
            ["Currency", v.currency],
          ]}
        />
      </div>
      <div className="mt-8 border-b border-slate-200 pb-4 text-sm">
        <h2 className="font-semibold">Reason</h2>
        <p className="mt-1 whitespace-pre-line wrap-anywhere" data-testid="credit-note-reason">
          {v.reason}
        </p>
      </div>
      <DocumentTotals
        rows={[
          ["Amount before tax", v.subtotal],
          [v.taxLabel, v.tax],
        ]}
        total={["Total credited", v.total]}
        totalTestId="credit-note-total"
      />
      {v.usdNote && (
        <p className="mt-2 text-right text-xs text-slate-500" data-testid="credit-note-usd">
          Total credited in USD: {v.usdNote}
        </p>
      )}
      <TaxNotes notes={v.taxNotes} />
    </DocumentFrame>
  );
}
