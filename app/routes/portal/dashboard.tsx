import { FileText, MessageCircle, MessageSquareQuote, Radio, ShoppingCart } from "lucide-react";
import { Link } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { whatsappLink } from "~/features/business/business";
import { ContactForm } from "~/features/contact/ContactForm";
import { handleContactForm } from "~/features/contact/contact-action.server";
import { formatMoney } from "~/features/currency/currency";
import { dashboardData } from "~/features/orders/order-lists.server";
import { pageTitle } from "~/features/site/meta";
import { useRootData } from "~/features/site/root-data";
import { StatusBadge } from "~/ui/badge";
import { StatCard } from "~/ui/card";
import { cardClass } from "~/ui/card-class";
import { formatCount, formatDate } from "~/ui/format";
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

const QUICK_ACTIONS = [
  { to: "/client/services", label: "Purchase Service", icon: ShoppingCart },
  { to: "/client/invoices", label: "View Invoices", icon: FileText },
  { to: "/#quote", label: "Custom Quote", icon: MessageSquareQuote },
];

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { client } = usePortalData();
  const { business } = useRootData();
  const { stats, recentOrders } = loaderData;
  return (
    <div className="space-y-8 p-4 sm:p-6 lg:p-10">
      <section className="rounded-2xl bg-gradient-to-r from-brand-700 to-brand-600 p-8 text-white">
        <h1 className="text-2xl font-bold">Welcome back, {client.name}!</h1>
        <p className="mt-2 text-brand-50">Here is what is happening with your services.</p>
      </section>

      <section aria-label="Overview" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatCard label="Active Orders" value={formatCount(stats.activeOrders)} />
        <StatCard label="Total Spent" value={formatMoney(stats.totalSpentUsd, "USD")} />
        <StatCard
          label="Invoices"
          value={formatCount(stats.invoices)}
          note={`${formatCount(stats.pendingInvoices)} pending`}
        />
        <StatCard label="Completed" value={formatCount(stats.completed)} />
      </section>

      <div className="grid grid-cols-1 gap-8 lg:grid-cols-3">
        <section aria-labelledby="recent-orders-heading" className={cardClass("p-6 lg:col-span-2")}>
          <div className="flex items-center justify-between">
            <h2 id="recent-orders-heading" className="text-lg font-bold">
              Recent Orders
            </h2>
            <Link to="/client/orders" className="text-sm font-semibold text-brand-700 hover:underline">
              View All<span className="sr-only"> orders</span>
            </Link>
          </div>
          {recentOrders.length === 0 ? (
            <p className="mt-6 text-center text-slate-600">No recent orders</p>
          ) : (
            <ul className="mt-4 divide-y divide-slate-100">
              {recentOrders.slice(0, RECENT_SHOWN).map((o) => (
                <li key={o.id} className="flex items-center justify-between gap-4 py-3" data-order-id={o.id}>
                  <div className="min-w-0">
                    <p className="truncate font-medium text-ink">{o.serviceName}</p>
                    <p className="text-sm text-slate-600">
                      {o.packageName} · {formatDate(o.createdAt)}
                    </p>
                  </div>
                  <div className="flex shrink-0 items-center gap-3">
                    <span className="font-medium">{formatMoney(o.amountInCurrency, o.currency)}</span>
                    <StatusBadge status={o.status} />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="quick-actions-heading" className={cardClass("p-6")}>
          <h2 id="quick-actions-heading" className="text-lg font-bold">
            Quick Actions
          </h2>
          <ul className="mt-4 space-y-2">
            {QUICK_ACTIONS.map(({ to, label, icon: Icon }) => (
              <li key={label}>
                <Link
                  to={to}
                  className="flex items-center gap-3 rounded-lg border border-slate-200 px-4 py-3 font-medium hover:bg-slate-50"
                >
                  <Icon aria-hidden="true" className="size-4 text-brand-700" />
                  {label}
                </Link>
              </li>
            ))}
          </ul>
          <div className="mt-6 rounded-lg bg-green-50 p-4 text-sm text-green-900">
            <p className="flex items-center gap-2 font-semibold">
              <Radio aria-hidden="true" className="size-4" />
              Live Updates
            </p>
            <p className="mt-1">
              Your orders, invoices and notifications update here as soon as anything changes: no need to
              reload.
            </p>
          </div>
        </section>
      </div>

      <section aria-labelledby="need-help-heading" className={cardClass("p-6")}>
        <h2 id="need-help-heading" className="text-lg font-bold">
          Need Help?
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Write to us here or on WhatsApp: we answer within 24 hours.
        </p>
        <a
          href={whatsappLink(business)}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-4 inline-flex items-center gap-2 font-semibold text-green-800 underline"
        >
          <MessageCircle aria-hidden="true" className="size-4" />
          Chat on WhatsApp
        </a>
        <div className="mt-4 max-w-2xl">
          <ContactForm
            business={business}
            source="portal"
            compact
            action="/client/dashboard"
            defaults={{ name: client.name, email: client.email }}
          />
        </div>
      </section>
    </div>
  );
}
