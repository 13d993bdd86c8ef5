import { Link } from "react-router";
import { dashboardFigures } from "~/features/admin/dashboard-figures.server";
import { PaymentIssuesCard } from "~/features/admin/PaymentIssuesCard";
import { RevenueChart } from "~/features/admin/RevenueChart";
import { requireAdmin } from "~/features/admin/route-helpers.server";
import { BackupCard } from "~/features/backups/BackupCard";
import { formatMoney } from "~/features/money/format";
import { OPEN_ORDER_STATUSES, ORDER_STATUS_LABELS } from "~/features/orders/order-status";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { Card, StatCard } from "~/ui/card";
import { formatDate } from "~/ui/format";
import { Page } from "~/ui/page";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Back Office", matches) }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  const { dir, intervalMs } = context.runtime.config.backups;
  const figures = await dashboardFigures(
    context.runtime.database.db,
    dir ? { dir, intervalMs } : null,
    new Date(),
  );
  return { name: admin.name, ...figures };
}

export default function AdminDashboard({ loaderData: d }: Route.ComponentProps) {
  const openTotal = d.openOrders.pending! + d.openOrders.paid! + d.openOrders.in_progress!;
  return (
    <Page title="Dashboard">
      <p className="text-slate-600">Signed in as {d.name}.</p>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard
          label="Open orders"
          value={String(openTotal)}
          note="Care plans' periods not counted"
          href="/admin/orders"
        />
        <StatCard
          label="Outstanding"
          value={formatMoney(d.totals.outstandingUsd, "USD")}
          note={`${d.totals.outstandingCount} unpaid invoices`}
          href="/admin/invoices?status=outstanding"
        />
        <StatCard
          label="Overdue"
          value={formatMoney(d.totals.overdueUsd, "USD")}
          note={`${d.totals.overdueCount} overdue invoices`}
          href="/admin/invoices?status=overdue"
        />
        <StatCard label="Unread messages" value={String(d.unreadMessages)} href="/admin/messages" />
      </div>
      <Card title="Revenue per month">
        <RevenueChart data={d.revenue} />
      </Card>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title="Open orders by status">
          <ul className="space-y-2">
            {OPEN_ORDER_STATUSES.map((s) => (
              <li key={s} className="flex items-center justify-between">
                <Link to={`/admin/orders?status=${s}`} className="text-brand-700 underline">
                  {ORDER_STATUS_LABELS[s]}
                </Link>
                <span className="tabular-nums font-semibold">{d.openOrders[s]}</span>
              </li>
            ))}
          </ul>
        </Card>
        <Card title="Recent sign-ups">
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
                    <StatusBadge status={u.verified ? "verified" : "unverified"} />
                    {formatDate(u.createdAt)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
      <PaymentIssuesCard issues={d.paymentIssues} plans={d.planIssues} vat={d.vatIssues} />
      <BackupCard backups={d.backups} />
    </Page>
  );
}
