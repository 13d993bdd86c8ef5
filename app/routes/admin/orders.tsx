import { Link } from "react-router";
import { orderStatuses } from "~/db/schema";
import { listQuery, requireAdmin } from "~/features/admin/route-helpers.server";
import {
  ABOVE_ROW_LINK,
  AdminList,
  ClientCell,
  LINKED_ROW,
  OrderStatusCell,
  RowLink,
} from "~/features/admin/ui";
import { ALL_CLIENTS } from "~/features/lists/scope";
import { formatMoney } from "~/features/money/format";
import { listOrders } from "~/features/orders/order-lists.server";
import { ORDER_STATUS_LABELS, orderStatusLabel } from "~/features/orders/order-status";
import { pageTitle } from "~/features/site/meta";
import { Badge } from "~/ui/badge";
import { formatDateTime } from "~/ui/format";
import { Page } from "~/ui/page";
import { Td } from "~/ui/table";
import type { Route } from "./+types/orders";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Orders · Back Office", matches) },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const { url, q, page } = listQuery(request);
  const raw = url.searchParams.get("status");
  const status = orderStatuses.find((s) => s === raw) ?? "all";
  const result = await listOrders(context.runtime.database.db, ALL_CLIENTS, { q, status, page });
  return { ...result, q, status };
}

export default function AdminOrders({ loaderData: d }: Route.ComponentProps) {
  const statuses = orderStatuses.map((s) => ({
    value: s,
    label: ORDER_STATUS_LABELS[s],
    count: d.counts[s],
  }));
  return (
    <Page title="Orders">
      <AdminList
        search="Search by client, email, service or invoice number"
        filter={{
          label: "Order status",
          current: d.status,
          options: [{ value: "all", label: "All", count: d.counts.all }, ...statuses],
        }}
        list={d}
        caption="Orders"
        head={["Date", "Client", "Service", "Amount", "Status", "Invoice"]}
        empty="No orders match."
      >
        {d.rows.map((o) => (
          <tr key={o.id} className={LINKED_ROW}>
            <Td>
              <RowLink to={`/admin/orders/${o.id}`}>{formatDateTime(o.createdAt)}</RowLink>
            </Td>
            <ClientCell name={o.clientName} email={o.clientEmail} />
            <Td>
              {o.serviceName} · {o.packageName}
              {o.quantity > 1 ? ` × ${o.quantity}` : ""}
              {o.carePlan && (
                <Badge tone="info" className="ml-1" data-care-plan>
                  Care plan
                </Badge>
              )}
            </Td>
            <Td className="tabular-nums">
              {formatMoney(o.amountInCurrency, o.currency)}
              {o.currency !== "USD" && (
                <span className="block text-slate-600">{formatMoney(o.amountUsd, "USD")}</span>
              )}
            </Td>
            <OrderStatusCell status={o.status} briefBadge={o.briefBadge} label={orderStatusLabel(o)} />
            <Td>
              {o.invoiceId ? (
                <Link
                  to={`/admin/invoices/${o.invoiceId}`}
                  className={`${ABOVE_ROW_LINK} text-brand-700 underline`}
                >
                  {o.invoiceNumber}
                </Link>
              ) : (
                "—"
              )}
            </Td>
          </tr>
        ))}
      </AdminList>
    </Page>
  );
}
