import { Link } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { formatMoney } from "~/features/currency/currency";
import { CLIENT_INVOICE_FILTERS } from "~/features/invoices/invoice-filters";
import { listClientInvoices } from "~/features/invoices/invoice-lists.server";
import { isPastDue, isUnpaidOrOverdue } from "~/features/invoices/invoice-status";
import { fromColumns, toColumns } from "~/features/lists/columns";
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
  const { rows, ...page } = await listClientInvoices(context.runtime.database.db, user.id, query);
  const now = new Date();
  // Only what a row shows goes into the page's data, written as it is shown (amounts in the invoice's
  // currency, days in the seller's calendar like the invoice itself), so the rows of one day share one
  // string (docs/decisions/0821-fewer-bytes-icon-sprite.md).
  return {
    query,
    ...page,
    rows: toColumns(
      rows.map((inv) => ({
        id: inv.id,
        number: inv.invoiceNumber,
        service: inv.serviceName,
        date: formatDate(inv.createdAt),
        due: formatDate(inv.dueDate),
        pastDue: isPastDue(inv.dueDate, inv.status, now),
        paid: inv.paidAt && formatDate(inv.paidAt),
        amount: formatMoney(inv.totalAmount, inv.currency),
        tax: inv.taxAmount > 0 ? formatMoney(inv.taxAmount, inv.currency) : null,
        // Stored paid, shown refunded or partially refunded once refunds are counted (ADR 0505).
        status: invoiceDisplayStatus(inv.status, inv.totalAmount, inv.refundedAmount, inv.currency),
      })),
    ),
  };
}

export default function Invoices({ loaderData }: Route.ComponentProps) {
  const { query, totals, paging } = loaderData;
  const rows = fromColumns(loaderData.rows);
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
        {rows.map((inv) => (
          <tr key={inv.id} data-invoice-id={inv.id}>
            <Td className="font-medium whitespace-nowrap">{inv.number}</Td>
            <Td>{inv.service}</Td>
            <Td className="whitespace-nowrap">{inv.date}</Td>
            <Td className="whitespace-nowrap">
              {inv.pastDue ? (
                <span className="font-semibold text-red-700" data-past-due>
                  {inv.due}
                  <span className="sr-only"> (past due)</span>
                </span>
              ) : (
                inv.due
              )}
              {inv.paid && <span className="block text-xs text-green-800">{`Paid ${inv.paid}`}</span>}
            </Td>
            <Td className="font-medium whitespace-nowrap">
              {inv.amount}
              {inv.tax && (
                <span className="block text-xs font-normal text-slate-600">incl. tax {inv.tax}</span>
              )}
            </Td>
            <Td>
              <StatusBadge status={inv.status} label={invoiceStatusLabel(inv.status)} />
            </Td>
            <Td>
              <div className="row-actions">
                <Link to={`/invoice/${inv.id}`} className="link">
                  View<span className="sr-only">{` invoice ${inv.number}`}</span>
                </Link>
                <a href={`/invoice/${inv.id}/pdf`} className="link">
                  Download PDF<span className="sr-only">{` of ${inv.number}`}</span>
                </a>
                {isUnpaidOrOverdue(inv.status) && (
                  // A plain form, as <Form reloadDocument> rendered it: paying loads the payment page.
                  <form method="post" action={`/client/invoices/${inv.id}/pay`}>
                    <button type="submit" className={buttonClass("primary", "px-3 py-1 text-xs")}>
                      Pay Now<span className="sr-only">{` invoice ${inv.number}`}</span>
                    </button>
                  </form>
                )}
              </div>
            </Td>
          </tr>
        ))}
      </ListView>
    </Page>
  );
}
