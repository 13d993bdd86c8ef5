/**
 * The printable quote (issue "quotes"), as the client's page shows it, built from the invoice's own
 * document parts: the seller, who it is for, its dates, the lines with their quantities and unit
 * prices, the amounts with the deposit and the balance, and the terms in full.
 */
import {
  DocumentFacts,
  DocumentFrame,
  DocumentLines,
  DocumentTotals,
  SellerDetails,
  TaxNotes,
} from "~/features/invoices/DocumentParts";
import { Badge, statusTone } from "~/ui/badge";
import type { QuoteView } from "./quote-view";

export function QuoteDocument({ quote: v }: { quote: QuoteView }) {
  return (
    <DocumentFrame id="quote" labelledBy="quote-title">
      <header className="flex flex-wrap justify-between gap-6">
        <SellerDetails seller={v.business} />
        <div className="text-right">
          <h1 id="quote-title" className="text-2xl font-bold">
            Quote {v.number}
          </h1>
          <Badge
            data-testid="quote-status"
            data-status={v.shownStatus}
            tone={statusTone(v.shownStatus)}
            className="mt-2 px-3 py-1 text-sm"
          >
            {v.statusLabel}
          </Badge>
        </div>
      </header>
      <div className="mt-8 grid grid-cols-1 gap-6 sm:grid-cols-2">
        <div>
          <h2 className="text-sm font-semibold uppercase text-slate-500">Prepared For</h2>
          <p className="mt-1 font-semibold">{v.preparedFor.name}</p>
          {v.preparedFor.company && <p>{v.preparedFor.company}</p>}
          <p className="wrap-anywhere">{v.preparedFor.email}</p>
        </div>
        <DocumentFacts
          facts={[
            ["Quote Date", v.issued],
            ["Valid Until", v.validUntil],
            ["Currency", "USD"],
          ]}
        />
      </div>
      <DocumentLines lines={v.lines} caption="The work quoted" rowTestId="quote-line" />
      <DocumentTotals
        rows={[
          ["Subtotal", v.subtotal],
          ...(v.discount ? ([["Discount", v.discount]] as Array<[string, string]>) : []),
          [v.taxLabel, v.tax],
        ]}
        total={["Total", v.total]}
        totalTestId="quote-total"
      />
      <TaxNotes notes={v.taxNotes} />
      {v.deposit && (
        <dl
          className="ml-auto mt-3 grid max-w-xs grid-cols-2 gap-y-1 text-sm"
          aria-label="Payment schedule"
          data-testid="quote-schedule"
        >
          <dt>Deposit on acceptance ({v.deposit.percent}%)</dt>
          <dd className="text-right font-semibold" data-testid="quote-deposit">
            {v.deposit.amount}
          </dd>
          <dt>Balance on completion</dt>
          <dd className="text-right" data-testid="quote-balance">
            {v.deposit.balance}
          </dd>
        </dl>
      )}
      <section aria-labelledby="quote-terms-title" className="mt-8 border-t border-slate-200 pt-4">
        <h2 id="quote-terms-title" className="font-semibold">
          Terms
        </h2>
        <div
          id="quote-terms"
          data-testid="quote-terms"
          className="mt-2 whitespace-pre-line text-sm text-slate-700 wrap-anywhere"
        >
          {v.terms}
        </div>
      </section>
    </DocumentFrame>
  );
}
