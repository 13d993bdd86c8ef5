import { Fragment } from "react";
import { requireClient } from "~/features/accounts/session.server";
import { ClientCreditNoteRow, ClientInvoiceRow } from "~/features/invoices/ClientInvoiceRow";
import { clientInvoicesPage } from "~/features/invoices/client-invoices-page.server";
import { CLIENT_INVOICE_FILTERS } from "~/features/invoices/invoice-filters";
import { NET_PAID_LABEL, netPaidNote } from "~/features/invoices/money-totals";
import { fromColumns } from "~/features/lists/columns";
import { listHref, parseListQuery } from "~/features/lists/listing";
import { ListPager } from "~/features/portal/components";
import { pageTitle } from "~/features/site/meta";
import { statusLabel } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { StatCard } from "~/ui/card";
import { Icon } from "~/ui/icon";
import { ListView } from "~/ui/list";
import { FilterChips, SearchForm } from "~/ui/list-controls";
import { Page } from "~/ui/page";
import type { Route } from "./+types/invoices";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Invoices", matches) }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  const query = parseListQuery(new URL(request.url), CLIENT_INVOICE_FILTERS);
  return clientInvoicesPage(context.runtime.database.db, user.id, query, new Date());
}

export default function Invoices({ loaderData }: Route.ComponentProps) {
  const { query, totals, paging, creditNotes } = loaderData;
  const { money } = totals;
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
        {/* The one money truth (invoices/money-totals.ts): the dashboard's Total Spent is the second. */}
        <StatCard label="Total Invoiced" value={money.invoiced} note="Issued invoices, not void" />
        <StatCard label={NET_PAID_LABEL} value={money.netPaid} note={netPaidNote(money)} />
        <StatCard label="Outstanding" value={money.outstanding} note="Sent or overdue, to pay" />
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
          <Fragment key={inv.id}>
            <ClientInvoiceRow inv={inv} />
            {creditNotes
              .filter((n) => n.invoiceId === inv.id)
              .map((n) => (
                <ClientCreditNoteRow key={n.id} note={n} />
              ))}
          </Fragment>
        ))}
      </ListView>
    </Page>
  );
}
