import { Link } from "react-router";
import { accountLocaleOf } from "~/features/accounts/account-locale";
import { requireClient } from "~/features/accounts/session.server";
import { netPaidNote } from "~/features/invoices/money-totals";
import { fromColumns, toColumns } from "~/features/lists/columns";
import { ORDER_FILTERS, parseListQuery } from "~/features/lists/listing";
import { formatMoney } from "~/features/money/format";
import { WAITING_FOR_DETAILS } from "~/features/orders/brief-badges";
import { listOrders } from "~/features/orders/order-lists.server";
import { orderStatusLabel } from "~/features/orders/order-status";
import { ListPager } from "~/features/portal/components";
import { pageTitle } from "~/features/site/meta";
import { Badge, StatusBadge, statusLabel } from "~/ui/badge";
import { StatCard } from "~/ui/card";
import { cn } from "~/ui/cn";
import { inputClass } from "~/ui/field";
import { formatCount, formatDate } from "~/ui/format";
import { ListView } from "~/ui/list";
import { SearchForm } from "~/ui/list-controls";
import { Page } from "~/ui/page";
import { Td } from "~/ui/table";
import type { Route } from "./+types/orders";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("My Orders", matches) }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, client } = await requireClient(request, context);
  const query = parseListQuery(new URL(request.url), ORDER_FILTERS);
  const { rows, ...page } = await listOrders(context.runtime.database.db, { clientId: user.id }, query);
  // Only what a row shows goes into the page's data, written as it is shown: the amount in the order's
  // currency and the day in the client's zone (the one the shell's TimeZoneProvider gives the page, from
  // the same record), so the rows of one day share one string (docs/decisions/0821-fewer-bytes-icon-sprite.md).
  const tz = accountLocaleOf(client).timeZone;
  return {
    query,
    ...page,
    rows: toColumns(
      rows.map((o) => ({
        id: o.id,
        service: o.serviceName,
        category: o.serviceCategory,
        package: o.packageName,
        quantity: o.quantity,
        amount: formatMoney(o.amountInCurrency, o.currency),
        status: o.status,
        date: formatDate(o.createdAt, "medium", tz),
        invoiceId: o.invoiceId,
        waiting: o.briefMissing,
        depositPaid: o.depositPaid,
      })),
    ),
  };
}

export default function Orders({ loaderData }: Route.ComponentProps) {
  const { query, summary, paging } = loaderData;
  const rows = fromColumns(loaderData.rows);
  const filtered = query.q !== "" || query.status !== "all";
  return (
    <Page title="My Orders">
      {/* Each order is in one of the four status cards: they add up to Total Orders (issue 37). */}
      <section aria-label="Order summary" className="grid grid-cols-2 gap-4 md:grid-cols-3">
        <StatCard label="Total Orders" value={formatCount(summary.totalOrders)} />
        <StatCard label="Pending" value={formatCount(summary.pending)} note="Awaiting payment" />
        <StatCard label="Paid or In Progress" value={formatCount(summary.active)} />
        <StatCard label="Completed" value={formatCount(summary.completed)} />
        <StatCard label="Cancelled" value={formatCount(summary.cancelled)} />
        {/* The dashboard's figure: paid net of refunds (README, deviations: "Total Spent"). */}
        <StatCard label="Total Spent" value={summary.money.netPaid} note={netPaidNote(summary.money)} />
      </section>

      <ListView
        label="Orders"
        controls={
          <SearchForm
            id="orders-q"
            label="Search by service or package"
            formLabel="Search orders"
            q={query.q}
          >
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
                className={cn(inputClass, "mt-1 border-slate-300 text-sm")}
              >
                {ORDER_FILTERS.map((f) => (
                  <option key={f} value={f}>
                    {f === "all" ? "All" : statusLabel(f)}
                  </option>
                ))}
              </select>
            </div>
          </SearchForm>
        }
        empty={
          rows.length === 0 && {
            title: "No Orders Found",
            text: filtered ? "No orders match your current filters." : "You haven't placed any orders yet.",
          }
        }
        caption="Your orders"
        head={["Service", "Package", "Amount", "Status", "Date", "Actions"]}
        pager={<ListPager paging={paging} pathname="/client/orders" query={query} noun="orders" />}
      >
        {rows.map((o) => (
          <tr key={o.id} data-order-id={o.id}>
            <Td>
              <Link to={`/client/orders/${o.id}`} className="link font-medium">
                {o.service}
                <span className="sr-only">{`: open the order of ${o.date}`}</span>
              </Link>
              <p className="text-slate-600">{o.category}</p>
              {o.waiting && (
                <Badge tone="warning" className="mt-1">
                  {WAITING_FOR_DETAILS}
                </Badge>
              )}
            </Td>
            <Td>
              {o.package}
              {o.quantity > 1 && <span className="text-slate-600"> × {o.quantity}</span>}
            </Td>
            <Td className="font-medium">{o.amount}</Td>
            <Td>
              <StatusBadge status={o.status} label={orderStatusLabel(o)} />
            </Td>
            <Td className="whitespace-nowrap">{o.date}</Td>
            <Td>
              {o.invoiceId && (
                <Link to={`/client/invoice/${o.invoiceId}`} className="link">
                  View Invoice<span className="sr-only">{` for ${o.service}`}</span>
                </Link>
              )}
            </Td>
          </tr>
        ))}
      </ListView>
    </Page>
  );
}
