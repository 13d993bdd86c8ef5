import { requireClient } from "~/features/accounts/session.server";
import { handleContactForm } from "~/features/contact/contact-action.server";
import { netPaidNote } from "~/features/invoices/money-totals";
import { dashboardData } from "~/features/orders/order-lists.server";
import { NeedHelp, QuickActions, RecentOrders } from "~/features/portal/Dashboard";
import { pageTitle } from "~/features/site/meta";
import { useRootData } from "~/features/site/root-data";
import { StatCard } from "~/ui/card";
import { formatCount } from "~/ui/format";
import type { Route } from "./+types/dashboard";
import { usePortalData } from "./shell";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Dashboard", matches) }];

/** "Dashboard fetches 5 recent orders and shows 3." */
const RECENT_SHOWN = 3;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  return dashboardData(context.runtime.database.db, user.id);
}

/** The "Need Help" form posts here: the same contact action as the public site. */
export async function action({ request, context }: Route.ActionArgs) {
  await requireClient(request, context);
  return handleContactForm(await request.formData(), request, context, "portal");
}

export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  // Loaded only when a form is sent, so it costs the page's first load nothing.
  const { withContactFallback } = await import("~/features/contact/contact-client");
  return withContactFallback(request, serverAction);
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { client } = usePortalData();
  const { business } = useRootData();
  const { stats, recentOrders } = loaderData;
  return (
    <div className="space-y-8 p-4 sm:p-6 lg:p-10">
      <section className="rounded-2xl bg-gradient-to-r from-brand-700 to-brand-600 p-8 text-white">
        {/* "Welcome back" once the client has an order (README, deviations): a new client is welcomed. */}
        <h1 className="text-2xl font-bold">
          {recentOrders.length > 0 ? "Welcome back" : "Welcome"}, {client.name}!
        </h1>
        <p className="mt-2 text-brand-50">Here is what is happening with your services.</p>
      </section>

      <section aria-label="Overview" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatCard label="Active Orders" value={formatCount(stats.activeOrders)} />
        {/* Paid net of refunds, as on every page (README, deviations: "Total Spent"). */}
        <StatCard label="Total Spent" value={stats.money.netPaid} note={netPaidNote(stats.money)} />
        <StatCard
          label="Invoices"
          value={formatCount(stats.invoices)}
          note={
            stats.pendingInvoices > 0
              ? `${formatCount(stats.pendingInvoices)} pending, ${stats.money.outstanding} outstanding`
              : `${formatCount(stats.pendingInvoices)} pending`
          }
        />
        <StatCard label="Completed" value={formatCount(stats.completed)} />
      </section>

      <div className="grid grid-cols-1 gap-8 lg:grid-cols-3">
        <RecentOrders orders={recentOrders.slice(0, RECENT_SHOWN)} />

        <QuickActions />
      </div>

      <NeedHelp business={business} client={client} />
    </div>
  );
}
