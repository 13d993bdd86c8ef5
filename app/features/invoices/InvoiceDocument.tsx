import { Link } from "react-router";
import { Badge, statusTone } from "~/ui/badge";
import { clientCreditNotePath } from "./credit-note-number";
import {
  BillToDetails,
  DocumentFacts,
  DocumentFrame,
  DocumentLines,
  DocumentTotals,
  SellerDetails,
  TaxNotes,
} from "./DocumentParts";
import type { InvoiceView } from "./invoice-view";

/** The printable invoice: seller, bill-to, dates, lines and totals, as the client's invoice page shows it. */
export function InvoiceDocument({ invoice: v }: { invoice: InvoiceView }) {
  // Green when paid, red otherwise; once refunded, the refund's own tone (refunded, partially refunded).
  const tone = v.refund ? statusTone(v.displayStatus) : v.tone === "paid" ? "success" : "danger";
  return (
    <DocumentFrame id="invoice" labelledBy="invoice-title">
      <header className="flex flex-wrap justify-between gap-6">
        <SellerDetails seller={v.business} />
        <div className="text-right">
          <h1 id="invoice-title" className="text-2xl font-bold">
            {v.title}
          </h1>
          <Badge
            data-testid="invoice-status"
            data-status={v.displayStatus}
            tone={tone}
            className="mt-2 px-3 py-1 text-sm"
          >
            {v.statusLabel}
          </Badge>
        </div>
      </header>
      <div className="mt-8 grid grid-cols-1 gap-6 sm:grid-cols-2">
        <BillToDetails billTo={v.billTo} />
        <DocumentFacts
          facts={[
            ["Invoice Date", v.issued],
            ["Due Date", v.due],
            ...(v.paid ? ([["Paid On", v.paid]] as Array<[string, string]>) : []),
            ["Currency", v.currency],
          ]}
        />
      </div>
      {v.partNote && (
        <p className="mt-6 text-sm text-slate-700" data-testid="invoice-part">
          {v.partNote}
        </p>
      )}
      <DocumentLines lines={v.lines} caption="What is invoiced" />
      <DocumentTotals
        rows={[
          ["Subtotal", v.subtotal],
          [v.taxLabel, v.tax],
        ]}
        total={["Total", v.total]}
        totalTestId="invoice-total"
      />
      {v.usdNote && <p className="mt-2 text-right text-xs text-slate-500">Total in USD: {v.usdNote}</p>}
      <TaxNotes notes={v.taxNotes} />
      {v.refund && (
        <section aria-labelledby="invoice-refunds" className="mt-6 border-t border-slate-200 pt-4 text-sm">
          <h2 id="invoice-refunds" className="font-semibold">
            Refunds
          </h2>
          <p className="mt-1" data-testid="invoice-refunded">
            {v.refund.line}
          </p>
          <p className="mt-1 font-semibold" data-testid="invoice-net-paid">
            Net paid: {v.refund.netPaid}
          </p>
          <p className="mt-1 text-slate-600">{v.refund.arrival}</p>
          {v.refund.creditNotes.length > 0 && (
            <ul aria-label="Credit notes" className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
              {v.refund.creditNotes.map((n) => (
                <li key={n.id}>
                  <Link to={clientCreditNotePath(n.id)} className="font-medium text-brand-700 underline">
                    Credit note {n.number}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </DocumentFrame>
  );
}
