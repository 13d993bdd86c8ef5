import { listQuery, requireAdmin } from "~/features/admin/route-helpers.server";
import { AdminList, ClientCell, LINKED_ROW, RowLink } from "~/features/admin/ui";
import { InvoicePartTag } from "~/features/invoices/InvoicePartTag";
import { INVOICE_FILTERS, type InvoiceFilter } from "~/features/invoices/invoice-filters";
import { listInvoices } from "~/features/invoices/invoice-lists.server";
import { invoiceStatusLabel } from "~/features/invoices/invoice-status";
import { ALL_CLIENTS } from "~/features/lists/scope";
import { formatMoney } from "~/features/money/format";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { formatDate } from "~/ui/format";
import { Page } from "~/ui/page";
import { Td } from "~/ui/table";
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
  const filter = INVOICE_FILTERS.find((f) => f === raw) ?? "all";
  const result = await listInvoices(context.runtime.database.db, ALL_CLIENTS, { q, status: filter, page });
  return { ...result, q, filter };
}

export default function AdminInvoices({ loaderData: d }: Route.ComponentProps) {
  return (
    <Page title="Invoices">
      <AdminList
        search="Search by invoice number, client or email"
        filter={{
          label: "Invoice status",
          current: d.filter,
          options: INVOICE_FILTERS.map((f) => ({ value: f, label: LABELS[f], count: d.counts[f] })),
        }}
        list={d}
        caption="Invoices"
        head={["Number", "Client", "Service", "Total", "Due", "Status"]}
        empty="No invoices match."
      >
        {d.rows.map((i) => (
          <tr key={i.id} className={LINKED_ROW}>
            <Td className="font-mono">
              <RowLink to={`/admin/invoices/${i.id}`}>{i.invoiceNumber}</RowLink>
              <InvoicePartTag kind={i.kind} />
            </Td>
            <ClientCell name={i.clientName} email={i.clientEmail} />
            <Td>{i.serviceName ?? "—"}</Td>
            <Td className="tabular-nums">{formatMoney(i.totalAmount, i.currency)}</Td>
            <Td>{formatDate(i.dueDate)}</Td>
            <Td>
              <StatusBadge status={i.shownStatus} label={invoiceStatusLabel(i.shownStatus)} />
            </Td>
          </tr>
        ))}
      </AdminList>
    </Page>
  );
}
