import { Link, useLocation } from "react-router";
import { type InvoiceFilter, invoiceFilters } from "~/features/admin/filters";
import { listInvoices } from "~/features/admin/invoices.server";
import { listQuery, requireAdmin } from "~/features/admin/route-helpers.server";
import { DataTable, EmptyRow, FilterChips, Pager, SearchBox, Td } from "~/features/admin/ui";
import { formatMoney } from "~/features/currency/currency";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { formatDate } from "~/ui/format";
import { Page } from "~/ui/page";
import type { Route } from "./+types/invoices";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Invoices · Back Office", matches) },
];

const LABELS: Record<InvoiceFilter, string> = {
  all: "All",
  outstanding: "Outstanding",
  overdue: "Overdue",
  sent: "Sent (not yet due)",
  paid: "Paid",
  void: "Void",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const { url, q, page } = listQuery(request);
  const raw = url.searchParams.get("status");
  const filter = invoiceFilters.find((f) => f === raw) ?? "all";
  const result = await listInvoices(context.runtime.database.db, { q, filter, page });
  return { ...result, q, filter };
}

export default function AdminInvoices({ loaderData: d }: Route.ComponentProps) {
  const location = useLocation();
  return (
    <Page title="Invoices">
      <SearchBox
        label="Search by invoice number, client or email"
        q={d.q}
        keep={{ status: d.filter === "all" ? null : d.filter }}
      />
      <FilterChips
        label="Invoice status"
        pathname={location.pathname}
        search={location.search}
        param="status"
        current={d.filter}
        options={invoiceFilters.map((f) => ({ value: f, label: LABELS[f], count: d.counts[f] }))}
      />
      <DataTable caption="Invoices" head={["Number", "Client", "Service", "Total", "Due", "Status"]}>
        {d.rows.length === 0 && <EmptyRow columns={6}>No invoices match.</EmptyRow>}
        {d.rows.map((i) => (
          <tr key={i.id}>
            <Td>
              <Link to={`/admin/invoices/${i.id}`} className="font-mono text-brand-700 underline">
                {i.invoiceNumber}
              </Link>
            </Td>
            <Td>
              {i.clientName ?? "—"}
              <br />
              <span className="text-slate-600">{i.clientEmail}</span>
            </Td>
            <Td>{i.serviceName ?? "—"}</Td>
            <Td className="tabular-nums">{formatMoney(i.totalAmount, i.currency)}</Td>
            <Td>{formatDate(i.dueDate, "iso")}</Td>
            <Td>
              <StatusBadge status={i.overdue ? "overdue" : i.status} plain />
            </Td>
          </tr>
        ))}
      </DataTable>
      <Pager pathname={location.pathname} search={location.search} page={d.page} total={d.total} />
    </Page>
  );
}
