import { Form, Link } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { formatMoney } from "~/features/currency/currency";
import { CLIENT_INVOICE_FILTERS } from "~/features/invoices/invoice-filters";
import { listClientInvoices } from "~/features/invoices/invoice-lists.server";
import { isPastDue, isUnpaidOrOverdue } from "~/features/invoices/invoice-status";
import { listHref, parseListQuery } from "~/features/lists/listing";
import { ListPager } from "~/features/portal/components";
import { invoiceDisplayStatus, invoiceStatusLabel } from "~/features/refunds/refund-math";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge, statusLabel } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { StatCard } from "~/ui/card";
import { formatDate } from "~/ui/format";
import { Icon } from "~/ui/icon";
import { ListView } from "~/ui/list";
import { FilterChips, SearchForm } from "~/ui/list-controls";
import { Page } from "~/ui/page";
import { Td } from "~/ui/table";
import type { Route } from "./+types/invoices";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Invoices", matches) }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  const query = parseListQuery(new URL(request.url), CLIENT_INVOICE_FILTERS);
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
          <a href="/client/invoices/download-all" className={buttonClass("secondary")}>
            <Icon name="download" className="size-4" />
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

      <ListView
        label="Invoice list"
        controls={
          <>
            <SearchForm
              id="invoices-q"
              label="Search by invoice number or id"
              formLabel="Search invoices"
              q={query.q}
              keep={{ status: query.status === "all" ? null : query.status }}
            />
            <FilterChips
              label="Filter invoices by status"
              current={query.status}
              options={CLIENT_INVOICE_FILTERS.map((f) => ({
                value: f,
                label: f === "all" ? "All" : statusLabel(f),
                count: totals.counts[f],
              }))}
              hrefFor={(status) => listHref("/client/invoices", { q: query.q, status })}
            />
          </>
        }
        empty={
          rows.length === 0 && {
            title: "No invoices found",
            text: filtered
              ? "Try adjusting your search or filter criteria"
              : "You don't have any invoices yet",
          }
        }
        caption="Your invoices"
        head={["Invoice", "Service", "Date", "Due Date", "Amount", "Status", "Actions"]}
        pager={<ListPager paging={paging} pathname="/client/invoices" query={query} noun="invoices" />}
      >
        {rows.map((inv) => {
          const pastDue = isPastDue(inv.dueDate, inv.status, new Date(now));
          const unpaid = isUnpaidOrOverdue(inv.status);
          // Stored paid, shown refunded or partially refunded once refunds are counted (ADR 0505).
          const shown = invoiceDisplayStatus(inv.status, inv.totalAmount, inv.refundedAmount, inv.currency);
          return (
            <tr key={inv.id} data-invoice-id={inv.id}>
              <Td className="font-medium whitespace-nowrap text-ink">{inv.invoiceNumber}</Td>
              <Td>{inv.serviceName}</Td>
              <Td className="whitespace-nowrap">{formatDate(inv.createdAt)}</Td>
              <Td className="whitespace-nowrap">
                <span
                  className={pastDue ? "font-semibold text-red-700" : undefined}
                  data-past-due={pastDue || undefined}
                >
                  {formatDate(inv.dueDate)}
                  {pastDue && <span className="sr-only"> (past due)</span>}
                </span>
                {inv.paidAt && (
                  <span className="block text-xs text-green-800">{`Paid ${formatDate(inv.paidAt)}`}</span>
                )}
              </Td>
              <Td className="whitespace-nowrap">
                <span className="font-medium">{formatMoney(inv.totalAmount, inv.currency)}</span>
                {inv.taxAmount > 0 && (
                  <span className="block text-xs text-slate-600">
                    incl. tax {formatMoney(inv.taxAmount, inv.currency)}
                  </span>
                )}
              </Td>
              <Td>
                <StatusBadge status={shown} label={invoiceStatusLabel(shown)} />
              </Td>
              <Td>
                <div className="flex flex-wrap items-center gap-3">
                  <Link to={`/invoice/${inv.id}`} className={linkClass}>
                    View<span className="sr-only">{` invoice ${inv.invoiceNumber}`}</span>
                  </Link>
                  <a href={`/invoice/${inv.id}/pdf`} className={linkClass}>
                    Download PDF<span className="sr-only">{` of ${inv.invoiceNumber}`}</span>
                  </a>
                  {unpaid && (
                    <Form method="post" action={`/client/invoices/${inv.id}/pay`} reloadDocument>
                      <button type="submit" className={buttonClass("primary", "px-3 py-1 text-xs")}>
                        Pay Now<span className="sr-only">{` invoice ${inv.invoiceNumber}`}</span>
                      </button>
                    </Form>
                  )}
                </div>
              </Td>
            </tr>
          );
        })}
      </ListView>
    </Page>
  );
}
