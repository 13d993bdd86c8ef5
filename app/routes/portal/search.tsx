import { Link } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { searchClientInvoices } from "~/features/invoices/invoice-lists.server";
import { invoiceStatusLabel, shownInvoiceStatus } from "~/features/invoices/invoice-status";
import { listHref, ORDER_FILTERS, parseListQuery } from "~/features/lists/listing";
import { formatMoney } from "~/features/money/format";
import { searchClientOrders } from "~/features/orders/order-lists.server";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { cardClass } from "~/ui/card-class";
import { formatDate } from "~/ui/format";
import { Page } from "~/ui/page";
import { useTimeZone } from "~/ui/time-zone";
import type { Route } from "./+types/search";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Search", matches) }];

const SHOWN = 10;

/** The header's search box: the client's own orders (service, package) and invoices (number, id). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  const { q } = parseListQuery(new URL(request.url), ORDER_FILTERS);
  if (!q) return { q, orders: [], invoices: [] };
  const db = context.runtime.database.db;
  const [orders, invoices] = await Promise.all([
    searchClientOrders(db, user.id, q, SHOWN + 1),
    searchClientInvoices(db, user.id, q, SHOWN + 1),
  ]);
  const now = new Date();
  return { q, orders, invoices: invoices.map((i) => ({ ...i, shownStatus: shownInvoiceStatus(i, now) })) };
}

export default function SearchResults({ loaderData }: Route.ComponentProps) {
  const { q, orders, invoices } = loaderData;
  const tz = useTimeZone();
  return (
    <Page title={q ? `Search results for “${q}”` : "Search"}>
      {!q && (
        <p className="text-slate-600">Type a service, package, invoice number or id in the search box.</p>
      )}
      {q && (
        <div className="grid gap-6 lg:grid-cols-2">
          <section aria-labelledby="search-orders" className={cardClass("p-5")}>
            <h2 id="search-orders" className="text-lg font-bold">
              Orders
            </h2>
            {orders.length === 0 ? (
              <p className="mt-3 text-slate-600">No orders match “{q}”.</p>
            ) : (
              <ul className="mt-3 divide-y divide-slate-100">
                {orders.slice(0, SHOWN).map((o) => (
                  <li key={o.id} className="flex items-center justify-between gap-3 py-2">
                    <div className="min-w-0">
                      <p className="truncate">
                        <Link
                          to={`/client/orders/${o.id}`}
                          className="font-medium text-brand-700 hover:underline"
                        >
                          {o.serviceName}
                        </Link>
                      </p>
                      <p className="text-sm text-slate-600">
                        {o.packageName} · {formatDate(o.createdAt, "medium", tz)} ·{" "}
                        {formatMoney(o.amountInCurrency, o.currency)}
                      </p>
                    </div>
                    <StatusBadge status={o.status} />
                  </li>
                ))}
              </ul>
            )}
            {orders.length > 0 && (
              <Link
                to={listHref("/client/orders", { q, status: "all" })}
                className="mt-3 inline-block font-semibold text-brand-700 hover:underline"
              >
                All matching orders
              </Link>
            )}
          </section>
          <section aria-labelledby="search-invoices" className={cardClass("p-5")}>
            <h2 id="search-invoices" className="text-lg font-bold">
              Invoices
            </h2>
            {invoices.length === 0 ? (
              <p className="mt-3 text-slate-600">No invoices match “{q}”.</p>
            ) : (
              <ul className="mt-3 divide-y divide-slate-100">
                {invoices.slice(0, SHOWN).map((inv) => (
                  <li key={inv.id} className="flex items-center justify-between gap-3 py-2">
                    <div className="min-w-0">
                      <Link to={`/invoice/${inv.id}`} className="font-medium text-brand-700 hover:underline">
                        {inv.invoiceNumber}
                      </Link>
                      <p className="text-sm text-slate-600">
                        {inv.serviceName} · {formatMoney(inv.totalAmount, inv.currency)}
                      </p>
                    </div>
                    <StatusBadge status={inv.shownStatus} label={invoiceStatusLabel(inv.shownStatus)} />
                  </li>
                ))}
              </ul>
            )}
            {invoices.length > 0 && (
              <Link
                to={listHref("/client/invoices", { q, status: "all" })}
                className="mt-3 inline-block font-semibold text-brand-700 hover:underline"
              >
                All matching invoices
              </Link>
            )}
          </section>
        </div>
      )}
    </Page>
  );
}
