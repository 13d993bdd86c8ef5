/** The client dashboard's sections: recent orders, quick actions and the Need Help box. */

import { Link } from "react-router";
import { type BusinessIdentity, whatsappLink } from "~/features/business/business";
import { ContactForm } from "~/features/contact/ContactForm";
import { formatMoney } from "~/features/money/format";
import { WAITING_FOR_DETAILS } from "~/features/orders/brief-badges";
import { orderStatusLabel } from "~/features/orders/order-status";
import { Badge, StatusBadge } from "~/ui/badge";
import { cardClass } from "~/ui/card-class";
import { formatDate } from "~/ui/format";
import { Icon, type IconName } from "~/ui/icon";
import { useTimeZone } from "~/ui/time-zone";

const QUICK_ACTIONS: { to: string; label: string; icon: IconName }[] = [
  { to: "/client/services", label: "Purchase Service", icon: "shopping-cart" },
  { to: "/client/invoices", label: "View Invoices", icon: "file-text" },
  { to: "/client/quotes/new", label: "Custom Quote", icon: "message-square-quote" },
];

export interface RecentOrder {
  id: string;
  serviceName: string;
  packageName: string;
  createdAt: string;
  amountInCurrency: number;
  currency: string;
  status: string;
  /** Waiting for the client's answers to the service's questions. */
  briefMissing: boolean;
  /** A quote's order with only its deposit paid: "Deposit paid", as its page says. */
  depositPaid: boolean;
}

export function RecentOrders({ orders }: { orders: readonly RecentOrder[] }) {
  const tz = useTimeZone();
  return (
    <section aria-labelledby="recent-orders-heading" className={cardClass("p-6 lg:col-span-2")}>
      <div className="flex items-center justify-between">
        <h2 id="recent-orders-heading" className="text-lg font-bold">
          Recent Orders
        </h2>
        <Link to="/client/orders" className="text-sm font-semibold text-brand-700 hover:underline">
          View All<span className="sr-only"> orders</span>
        </Link>
      </div>
      {orders.length === 0 ? (
        <div className="mt-6 text-center">
          <p className="text-slate-600">No recent orders</p>
          <Link
            to="/client/services"
            className="mt-3 inline-flex items-center gap-2 rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
          >
            <Icon name="shopping-cart" className="size-4" />
            Purchase Services
          </Link>
        </div>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100">
          {orders.map((o) => (
            <li key={o.id} className="flex items-center justify-between gap-4 py-3" data-order-id={o.id}>
              <div className="min-w-0">
                <p className="truncate">
                  <Link to={`/client/orders/${o.id}`} className="font-medium text-brand-700 hover:underline">
                    {o.serviceName}
                    <span className="sr-only">
                      : open the order of {formatDate(o.createdAt, "medium", tz)}
                    </span>
                  </Link>
                </p>
                <p className="text-sm text-slate-600">
                  {o.packageName} · {formatDate(o.createdAt, "medium", tz)}
                </p>
                {o.briefMissing && (
                  <Badge tone="warning" className="mt-1">
                    {WAITING_FOR_DETAILS}
                  </Badge>
                )}
              </div>
              <div className="flex shrink-0 items-center gap-3">
                <span className="font-medium">{formatMoney(o.amountInCurrency, o.currency)}</span>
                <StatusBadge status={o.status} label={orderStatusLabel(o)} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function QuickActions() {
  return (
    <section aria-labelledby="quick-actions-heading" className={cardClass("p-6")}>
      <h2 id="quick-actions-heading" className="text-lg font-bold">
        Quick Actions
      </h2>
      <ul className="mt-4 space-y-2">
        {QUICK_ACTIONS.map(({ to, label, icon }) => (
          <li key={label}>
            <Link
              to={to}
              className="flex items-center gap-3 rounded-lg border border-slate-200 px-4 py-3 font-medium hover:bg-slate-50"
            >
              <Icon name={icon} className="size-4 text-brand-700" />
              {label}
            </Link>
          </li>
        ))}
      </ul>
      <div className="mt-6 rounded-lg bg-green-50 p-4 text-sm text-green-900">
        <p className="flex items-center gap-2 font-semibold">
          <Icon name="radio" className="size-4" />
          Live Updates
        </p>
        <p className="mt-1">
          Your orders, invoices and notifications update here as soon as anything changes: no need to reload.
        </p>
      </div>
    </section>
  );
}

export function NeedHelp({
  business,
  client,
}: {
  business: BusinessIdentity;
  client: { name: string; email: string };
}) {
  return (
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
        <Icon name="message-circle" className="size-4" />
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
  );
}
