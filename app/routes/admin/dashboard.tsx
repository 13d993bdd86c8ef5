import { Link } from "react-router";
import { dashboardFigures } from "~/features/admin/dashboard.server";
import { ORDER_STATUS_LABELS } from "~/features/admin/order-status";
import { RevenueChart } from "~/features/admin/RevenueChart";
import { requireAdmin } from "~/features/admin/route-helpers.server";
import { AdminPage, Panel } from "~/features/admin/ui";
import { formatMoney } from "~/features/currency/currency";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { formatDate } from "~/ui/format";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Back Office", matches) }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  return { name: admin.name, ...(await dashboardFigures(context.runtime.database.db)) };
}

function Figure({
  label,
  value,
  href,
  detail,
}: {
  label: string;
  value: string;
  href: string;
  detail?: string;
}) {
  return (
    <Link
      to={href}
      className="block rounded-xl border border-slate-200 bg-white p-5 shadow-sm hover:border-brand-600"
    >
      <p className="text-sm font-medium text-slate-600">{label}</p>
      <p className="mt-1 text-2xl font-bold tabular-nums">{value}</p>
      {detail && <p className="mt-1 text-sm text-slate-600">{detail}</p>}
    </Link>
  );
}

export default function AdminDashboard({ loaderData: d }: Route.ComponentProps) {
  const openTotal = d.openOrders.pending! + d.openOrders.paid! + d.openOrders.in_progress!;
  return (
    <AdminPage title="Dashboard">
      <p className="text-slate-600">Signed in as {d.name}.</p>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Figure label="Open orders" value={String(openTotal)} href="/admin/orders" />
        <Figure
          label="Outstanding"
          value={formatMoney(d.totals.outstandingUsd, "USD")}
          detail={`${d.totals.outstandingCount} unpaid invoices`}
          href="/admin/invoices?status=outstanding"
        />
        <Figure
          label="Overdue"
          value={formatMoney(d.totals.overdueUsd, "USD")}
          detail={`${d.totals.overdueCount} overdue invoices`}
          href="/admin/invoices?status=overdue"
        />
        <Figure
          label="Unread messages"
          value={String(d.unreadMessages)}
          href="/admin/messages?status=unread"
        />
      </div>
      <Panel title="Revenue per month">
        <RevenueChart data={d.revenue} />
      </Panel>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Panel title="Open orders by status">
          <ul className="space-y-2">
            {(["pending", "paid", "in_progress"] as const).map((s) => (
              <li key={s} className="flex items-center justify-between">
                <Link to={`/admin/orders?status=${s}`} className="text-brand-700 underline">
                  {ORDER_STATUS_LABELS[s]}
                </Link>
                <span className="tabular-nums font-semibold">{d.openOrders[s]}</span>
              </li>
            ))}
          </ul>
        </Panel>
        <Panel title="Recent sign-ups">
          {d.recentSignups.length === 0 ? (
            <p className="text-sm text-slate-600">No clients yet.</p>
          ) : (
            <ul className="space-y-2 text-sm">
              {d.recentSignups.map((u) => (
                <li key={u.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <Link to={`/admin/clients/${u.id}`} className="wrap-anywhere text-brand-700 underline">
                    {u.name} <span className="text-slate-600">({u.email})</span>
                  </Link>
                  <span className="flex items-center gap-2">
                    <StatusBadge status={u.verified ? "verified" : "unverified"} plain />
                    {formatDate(u.createdAt, "iso")}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </AdminPage>
  );
}
