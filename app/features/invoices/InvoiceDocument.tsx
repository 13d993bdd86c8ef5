import { Badge } from "~/ui/badge";
import { cardClass } from "~/ui/card-class";
import type { InvoiceView } from "./invoice-view";

/** The printable invoice: seller, bill-to, dates, lines and totals, as the client's invoice page shows it. */
export function InvoiceDocument({ invoice: v }: { invoice: InvoiceView }) {
  return (
    <article
      id="invoice"
      aria-labelledby="invoice-title"
      className={cardClass("mt-6 p-5 sm:p-8 print:border-0 print:shadow-none")}
    >
      <header className="flex flex-wrap justify-between gap-6">
        <div>
          <p className="text-xl font-bold">{v.business.name}</p>
          {v.business.legalName !== v.business.name && (
            <p className="text-sm text-slate-600">{v.business.legalName}</p>
          )}
          <p className="text-sm text-slate-600">{v.business.address}</p>
          <p className="text-sm text-slate-600">
            {v.business.email} · {v.business.phone}
          </p>
          {v.business.taxLine && (
            <p className="text-sm text-slate-600" data-testid="seller-tax-id">
              {v.business.taxLine}
            </p>
          )}
        </div>
        <div className="text-right">
          <h1 id="invoice-title" className="text-2xl font-bold">
            Invoice {v.number}
          </h1>
          <Badge
            data-testid="invoice-status"
            tone={v.tone === "paid" ? "success" : "danger"}
            className="mt-2 px-3 py-1 text-sm"
          >
            {v.statusLabel}
          </Badge>
        </div>
      </header>
      <div className="mt-8 grid grid-cols-1 gap-6 sm:grid-cols-2">
        <div>
          <h2 className="text-sm font-semibold uppercase text-slate-500">Bill To</h2>
          <p className="mt-1 font-semibold">{v.billTo.name}</p>
          {v.billTo.company && <p>{v.billTo.company}</p>}
          {v.billTo.addressLines.map((line) => (
            <p key={line} className="wrap-anywhere">
              {line}
            </p>
          ))}
          <p className="wrap-anywhere">{v.billTo.email}</p>
          {v.billTo.phone && <p>{v.billTo.phone}</p>}
          {v.billTo.taxLine && <p data-testid="buyer-tax-id">{v.billTo.taxLine}</p>}
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:justify-self-end">
          <dt className="font-semibold">Invoice Date</dt>
          <dd>{v.issued}</dd>
          <dt className="font-semibold">Due Date</dt>
          <dd>{v.due}</dd>
          {v.paid && (
            <>
              <dt className="font-semibold">Paid On</dt>
              <dd>{v.paid}</dd>
            </>
          )}
          <dt className="font-semibold">Currency</dt>
          <dd>{v.currency}</dd>
        </dl>
      </div>
      <table className="mt-8 w-full text-sm">
        <thead>
          <tr className="border-b border-slate-200 text-left">
            <th scope="col" className="py-2">
              Description
            </th>
            <th scope="col" className="py-2 text-right">
              Qty
            </th>
            <th scope="col" className="py-2 text-right">
              Unit Price
            </th>
            <th scope="col" className="py-2 text-right">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {v.lines.map((line) => (
            <tr key={line.description} className="border-b border-slate-100">
              <td className="py-3">
                <span className="font-medium">{line.description}</span>
                <span className="block text-slate-500">{line.detail}</span>
              </td>
              <td className="py-3 text-right">{line.quantity}</td>
              <td className="py-3 text-right">{line.unitPrice}</td>
              <td className="py-3 text-right">{line.amount}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="ml-auto mt-6 grid max-w-xs grid-cols-2 gap-y-1 text-sm">
        <dt>Subtotal</dt>
        <dd className="text-right">{v.subtotal}</dd>
        <dt>{v.taxLabel}</dt>
        <dd className="text-right">{v.tax}</dd>
        <dt className="border-t border-slate-200 pt-2 text-base font-bold">Total</dt>
        <dd
          data-testid="invoice-total"
          className="border-t border-slate-200 pt-2 text-right text-base font-bold"
        >
          {v.total}
        </dd>
      </dl>
      {v.usdNote && <p className="mt-2 text-right text-xs text-slate-500">Total in USD: {v.usdNote}</p>}
    </article>
  );
}
