import { Download } from "lucide-react";
import { Form, Link } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { formatMoney } from "~/features/currency/currency";
import { listClientInvoices } from "~/features/invoices/invoice-lists.server";
import { EmptyState, Pager } from "~/features/portal/components";
import { INVOICE_FILTERS, isPastDue, listHref, parseListQuery } from "~/features/portal/listing";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge, statusLabel } from "~/ui/badge";
import { cardClass, StatCard } from "~/ui/card";
import { formatCount, formatDate } from "~/ui/format";
import { Page } from "~/ui/page";
import type { Route } from "./+types/invoices";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Invoices", matches) }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  const query = parseListQuery(new URL(request.url), INVOICE_FILTERS);
  const page = await listClientInvoices(context.runtime.database.db, user.id, query);
  return { query, now: new Date().toISOString(), ...page };
}

const linkClass = "font-semibold text-brand-700 hover:underline";

export default function Invoices({ loaderData }: Route.ComponentProps) {
  const { query, rows, totals, paging, now } = loaderData;
  const filtered = query.q !== "" || query.status !== "all";
  return (
    <Page
      title="Invoices"
      actions={
        totals.counts.all > 0 && (
          <a
            href="/client/invoices/download-all"
            className="inline-flex items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold hover:bg-slate-50"
          >
            <Download aria-hidden="true" className="size-4" />
            Download All
          </a>
        )
      }
    >
      <section aria-label="Invoice totals" className="grid gap-4 sm:grid-cols-3">
        <StatCard label="Total Invoiced" value={formatMoney(totals.totalInvoicedUsd, "USD")} />
        <StatCard label="Paid" value={formatMoney(totals.paidUsd, "USD")} />
        <StatCard label="Outstanding" value={formatMoney(totals.outstandingUsd, "USD")} />
      </section>

      <div className={cardClass("space-y-4 p-4")}>
        <Form
          method="get"
          role="search"
          aria-label="Search invoices"
          className="flex flex-wrap items-end gap-3"
        >
          {query.status !== "all" && <input type="hidden" name="status" value={query.status} />}
          <div className="min-w-48 flex-1">
            <label htmlFor="invoices-q" className="block text-sm font-medium text-slate-700">
              Search by invoice number or id
            </label>
            <input
              id="invoices-q"
              type="search"
              name="q"
              defaultValue={query.q}
              key={query.q}
              maxLength={100}
              className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
            />
          </div>
          <button
            type="submit"
            className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
          >
            Search
          </button>
        </Form>
        <nav aria-label="Filter invoices by status">
          <ul className="flex flex-wrap gap-2">
            {INVOICE_FILTERS.map((f) => {
              const active = query.status === f;
              return (
                <li key={f}>
                  <Link
                    to={listHref("/client/invoices", { q: query.q, status: f })}
                    aria-current={active ? "page" : undefined}
                    className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-sm font-medium ${
                      active
                        ? "border-brand-600 bg-brand-600 text-white"
                        : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"
                    }`}
                  >
                    {f === "all" ? "All" : statusLabel(f)}
                    <span data-count={f}>({formatCount(totals.counts[f])})</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      </div>

      <section aria-label="Invoice list" className={cardClass("overflow-hidden")}>
        {rows.length === 0 ? (
          <EmptyState
            title="No invoices found"
            text={
              filtered ? "Try adjusting your search or filter criteria" : "You don't have any invoices yet"
            }
          />
        ) : (
          <>
            <div className="relative overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead className="bg-slate-50 text-slate-700">
                  <tr>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Invoice
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Service
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Date
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Due Date
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Amount
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Status
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Actions
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {rows.map((inv) => {
                    const pastDue = isPastDue(inv.dueDate, inv.status, new Date(now));
                    const unpaid = inv.status === "sent" || inv.status === "overdue";
                    return (
                      <tr key={inv.id} data-invoice-id={inv.id}>
                        <td className="px-4 py-3 font-medium whitespace-nowrap text-ink">
                          {inv.invoiceNumber}
                        </td>
                        <td className="px-4 py-3">{inv.serviceName}</td>
                        <td className="px-4 py-3 whitespace-nowrap">{formatDate(inv.createdAt)}</td>
                        <td className="px-4 py-3 whitespace-nowrap">
                          <span
                            className={pastDue ? "font-semibold text-red-700" : undefined}
                            data-past-due={pastDue || undefined}
                          >
                            {formatDate(inv.dueDate)}
                            {pastDue && <span className="sr-only"> (past due)</span>}
                          </span>
                          {inv.paidAt && (
                            <span className="block text-xs text-green-800">
                              Paid {formatDate(inv.paidAt)}
                            </span>
                          )}
                        </td>
                        <td className="px-4 py-3 whitespace-nowrap">
                          <span className="font-medium">{formatMoney(inv.totalAmount, inv.currency)}</span>
                          {inv.taxAmount > 0 && (
                            <span className="block text-xs text-slate-600">
                              incl. tax {formatMoney(inv.taxAmount, inv.currency)}
                            </span>
                          )}
                        </td>
                        <td className="px-4 py-3">
                          <StatusBadge status={inv.status} />
                        </td>
                        <td className="px-4 py-3">
                          <div className="flex flex-wrap items-center gap-3">
                            <Link to={`/invoice/${inv.id}`} className={linkClass}>
                              View<span className="sr-only"> invoice {inv.invoiceNumber}</span>
                            </Link>
                            <a href={`/invoice/${inv.id}/pdf`} className={linkClass}>
                              Download PDF<span className="sr-only"> of {inv.invoiceNumber}</span>
                            </a>
                            {unpaid && (
                              <Form method="post" action={`/client/invoices/${inv.id}/pay`} reloadDocument>
                                <button
                                  type="submit"
                                  className="rounded-lg bg-brand-600 px-3 py-1 text-xs font-semibold text-white hover:bg-brand-700"
                                >
                                  Pay Now<span className="sr-only"> invoice {inv.invoiceNumber}</span>
                                </button>
                              </Form>
                            )}
                          </div>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <Pager paging={paging} pathname="/client/invoices" query={query} noun="invoices" />
          </>
        )}
      </section>
    </Page>
  );
}
