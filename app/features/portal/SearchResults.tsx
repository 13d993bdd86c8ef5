/**
 * The header search's results page (issue 37, item 14): the client's orders, invoices, quotes and credit
 * notes that match, each in its own card, with a link to the whole list where there is one.
 */

import type { ReactNode } from "react";
import { Link } from "react-router";
import { invoiceStatusLabel } from "~/features/invoices/invoice-status";
import { listHref } from "~/features/lists/listing";
import { formatMoney } from "~/features/money/format";
import { orderStatusLabel } from "~/features/orders/order-status";
import { QUOTE_STATUS_LABELS } from "~/features/quotes/quote-view";
import { StatusBadge } from "~/ui/badge";
import { cardClass } from "~/ui/card-class";
import { formatDate } from "~/ui/format";
import { useTimeZone } from "~/ui/time-zone";
import type { PortalSearchResults } from "./portal-search.server";

const linkClass = "font-medium text-brand-700 hover:underline";

function ResultCard({
  id,
  title,
  none,
  more,
  children,
}: {
  id: string;
  title: string;
  none: string | false;
  more?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={cardClass("p-5")}>
      <h2 id={id} className="text-lg font-bold">
        {title}
      </h2>
      {none ? <p className="mt-3 text-slate-600">{none}</p> : children}
      {!none && more}
    </section>
  );
}

function Row({ link, detail, badge }: { link: ReactNode; detail: ReactNode; badge: ReactNode }) {
  return (
    <li className="flex items-center justify-between gap-3 py-2">
      <div className="min-w-0">
        <p className="truncate">{link}</p>
        <p className="text-sm text-slate-600">{detail}</p>
      </div>
      {badge}
    </li>
  );
}

function AllMatching({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="mt-3 inline-block font-semibold text-brand-700 hover:underline">
      {children}
    </Link>
  );
}

export function SearchResults({ q, found, shown }: { q: string; found: PortalSearchResults; shown: number }) {
  const tz = useTimeZone();
  const { orders, invoices, quotes, creditNotes } = found;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <ResultCard
        id="search-orders"
        title="Orders"
        none={orders.length === 0 && `No orders match “${q}”.`}
        more={
          <AllMatching to={listHref("/client/orders", { q, status: "all" })}>All matching orders</AllMatching>
        }
      >
        <ul className="mt-3 divide-y divide-slate-100">
          {orders.slice(0, shown).map((o) => (
            <Row
              key={o.id}
              link={
                <Link to={`/client/orders/${o.id}`} className={linkClass}>
                  {o.serviceName}
                </Link>
              }
              detail={`${o.packageName} · ${formatDate(o.createdAt, "medium", tz)} · ${formatMoney(o.amountInCurrency, o.currency)}`}
              badge={<StatusBadge status={o.status} label={orderStatusLabel(o)} />}
            />
          ))}
        </ul>
      </ResultCard>
      <ResultCard
        id="search-invoices"
        title="Invoices"
        none={invoices.length === 0 && `No invoices match “${q}”.`}
        more={
          <AllMatching to={listHref("/client/invoices", { q, status: "all" })}>
            All matching invoices
          </AllMatching>
        }
      >
        <ul className="mt-3 divide-y divide-slate-100">
          {invoices.slice(0, shown).map((inv) => (
            <Row
              key={inv.id}
              link={
                <Link to={`/invoice/${inv.id}`} className={linkClass}>
                  {inv.invoiceNumber}
                </Link>
              }
              detail={`${inv.serviceName} · ${formatMoney(inv.totalAmount, inv.currency)}`}
              badge={<StatusBadge status={inv.shownStatus} label={invoiceStatusLabel(inv.shownStatus)} />}
            />
          ))}
        </ul>
      </ResultCard>
      <ResultCard
        id="search-quotes"
        title="Quotes"
        none={quotes.length === 0 && `No quotes match “${q}”.`}
        more={<AllMatching to="/client/quotes">All quotes</AllMatching>}
      >
        <ul className="mt-3 divide-y divide-slate-100">
          {quotes.slice(0, shown).map((x) => (
            <Row
              key={x.id}
              link={
                <Link to={`/client/quotes/${x.id}`} className={linkClass}>
                  {x.number}
                </Link>
              }
              detail={formatMoney(x.totalUsd, "USD")}
              badge={<StatusBadge status={x.status} label={QUOTE_STATUS_LABELS[x.status]} />}
            />
          ))}
        </ul>
      </ResultCard>
      <ResultCard
        id="search-credit-notes"
        title="Credit notes"
        none={creditNotes.length === 0 && `No credit notes match “${q}”.`}
      >
        <ul className="mt-3 divide-y divide-slate-100">
          {creditNotes.slice(0, shown).map((n) => (
            <Row
              key={n.id}
              link={
                <Link to={`/client/credit-notes/${n.id}`} className={linkClass}>
                  {n.creditNoteNumber}
                </Link>
              }
              detail={`For invoice ${n.invoiceNumber} · ${formatMoney(n.totalAmount, n.currency)} · ${formatDate(n.createdAt, "long")}`}
              badge={null}
            />
          ))}
        </ul>
      </ResultCard>
    </div>
  );
}
