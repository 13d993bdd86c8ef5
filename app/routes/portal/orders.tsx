import { Form, Link } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { formatMoney } from "~/features/currency/currency";
import { listClientOrders } from "~/features/orders/order-lists.server";
import { EmptyState, Pager } from "~/features/portal/components";
import { ORDER_FILTERS, parseListQuery } from "~/features/portal/listing";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge, statusLabel } from "~/ui/badge";
import { cardClass, StatCard } from "~/ui/card";
import { formatCount, formatDate } from "~/ui/format";
import { Page } from "~/ui/page";
import type { Route } from "./+types/orders";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("My Orders", matches) }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  const query = parseListQuery(new URL(request.url), ORDER_FILTERS);
  const page = await listClientOrders(context.runtime.database.db, user.id, query);
  return { query, ...page };
}

export default function Orders({ loaderData }: Route.ComponentProps) {
  const { query, rows, summary, paging } = loaderData;
  const filtered = query.q !== "" || query.status !== "all";
  return (
    <Page title="My Orders">
      <section aria-label="Order summary" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatCard label="Total Orders" value={formatCount(summary.totalOrders)} />
        <StatCard label="Completed" value={formatCount(summary.completed)} />
        <StatCard label="Pending" value={formatCount(summary.pending)} />
        <StatCard
          label="Total Spent"
          value={formatMoney(summary.totalSpentUsd, "USD")}
          note="Completed orders, in USD"
        />
      </section>

      <Form
        method="get"
        role="search"
        aria-label="Search orders"
        className={cardClass("flex flex-wrap items-end gap-3 p-4")}
      >
        <div className="min-w-48 flex-1">
          <label htmlFor="orders-q" className="block text-sm font-medium text-slate-700">
            Search by service or package
          </label>
          <input
            id="orders-q"
            type="search"
            name="q"
            defaultValue={query.q}
            key={query.q}
            maxLength={100}
            className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
          />
        </div>
        <div>
          <label htmlFor="orders-status" className="block text-sm font-medium text-slate-700">
            Status
          </label>
          <select
            id="orders-status"
            name="status"
            defaultValue={query.status}
            key={query.status}
            onChange={(e) => e.currentTarget.form?.requestSubmit()}
            className="mt-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
          >
            {ORDER_FILTERS.map((f) => (
              <option key={f} value={f}>
                {f === "all" ? "All" : statusLabel(f)}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
        >
          Search
        </button>
      </Form>

      <section aria-label="Orders" className={cardClass("overflow-hidden")}>
        {rows.length === 0 ? (
          <EmptyState
            title="No Orders Found"
            text={filtered ? "No orders match your current filters." : "You haven't placed any orders yet."}
          />
        ) : (
          <>
            <div className="relative overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead className="bg-slate-50 text-slate-700">
                  <tr>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Service
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Package
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Amount
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Status
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Date
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Actions
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {rows.map((o) => (
                    <tr key={o.id} data-order-id={o.id}>
                      <td className="px-4 py-3">
                        <p className="font-medium text-ink">{o.serviceName}</p>
                        <p className="text-slate-600">{o.serviceCategory}</p>
                      </td>
                      <td className="px-4 py-3">
                        {o.packageName}
                        {o.quantity > 1 && <span className="text-slate-600"> × {o.quantity}</span>}
                      </td>
                      <td className="px-4 py-3 font-medium">{formatMoney(o.amountInCurrency, o.currency)}</td>
                      <td className="px-4 py-3">
                        <StatusBadge status={o.status} />
                      </td>
                      <td className="px-4 py-3 whitespace-nowrap">{formatDate(o.createdAt)}</td>
                      <td className="px-4 py-3">
                        {o.invoiceId && (
                          <Link
                            to={`/client/invoice/${o.invoiceId}`}
                            className="font-semibold text-brand-700 hover:underline"
                          >
                            View Invoice<span className="sr-only"> for {o.serviceName}</span>
                          </Link>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager paging={paging} pathname="/client/orders" query={query} noun="orders" />
          </>
        )}
      </section>
    </Page>
  );
}
