/**
 * The client's order page (`/client/orders/{id}`, ADR 0512): what was bought and for how much, its
 * invoice, the status timeline, the brief and the conversation. The route wires; this shows.
 */
import { type ReactNode, useEffect, useState } from "react";
import { Link, useNavigation } from "react-router";
import { DocumentLines } from "~/features/invoices/DocumentParts";
import { invoiceStatusLabel } from "~/features/invoices/invoice-status";
import { formatMoney } from "~/features/money/format";
import { coveredByLabel } from "~/features/orders/covered-by";
import { OrderTimeline } from "~/features/orders/OrderTimeline";
import { Badge, StatusBadge } from "~/ui/badge";
import { ButtonLink } from "~/ui/button";
import { cardClass } from "~/ui/card-class";
import { FormError } from "~/ui/field";
import { formatDate } from "~/ui/format";
import { Page } from "~/ui/page";
import { useTimeZone } from "~/ui/time-zone";
import type { ClientOrderActionResult, ClientOrderView } from "./client-order.server";
import { OrderBrief } from "./OrderBrief";
import { OrderConversation } from "./OrderConversation";
import { OrderMoneyRows } from "./OrderMoneyRows";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2">
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0 text-right font-medium text-ink [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

function OrderSummary({ view }: { view: ClientOrderView }) {
  const tz = useTimeZone();
  const { order, invoices, payment } = view;
  return (
    <section aria-labelledby="summary-heading" className={cardClass("p-5")}>
      <h2 id="summary-heading" className="text-lg font-bold">
        Order details
      </h2>
      <dl className="mt-2 divide-y divide-slate-100 text-sm">
        <Row label="Service">
          {order.serviceName}
          <span className="block font-normal text-slate-600">{order.serviceCategory}</span>
        </Row>
        <Row label="Package">{order.packageName}</Row>
        {view.fromAlert && (
          <Row label="For">
            <Link to={view.fromAlert.href} className="text-brand-700 underline">
              {view.fromAlert.title}
            </Link>
          </Row>
        )}
        <Row label="Quantity">{order.quantity}</Row>
        {order.addons.map((addon) => (
          <Row key={addon.key} label="Add-on">
            {addon.name}
            {addon.quantity > 1 && ` × ${addon.quantity}`}
          </Row>
        ))}
        {view.coveredBy ? (
          // An incident the client's care plan covered: nothing was sold (issue 38, item 6).
          <Row label="Amount">
            <span data-testid="order-covered">{coveredByLabel(view.coveredBy)}</span>
          </Row>
        ) : (
          <Row label="Amount">
            <span data-amount>{formatMoney(order.amountInCurrency, order.currency)}</span>
            {order.currency !== "USD" && (
              <span className="block font-normal text-slate-600">
                {formatMoney(order.amountUsd, "USD")} USD
              </span>
            )}
          </Row>
        )}
        {payment && (
          <Row label="Payment">
            <span data-testid="order-payment">{payment.line}</span>
            {payment.next && <span className="block font-normal text-slate-600">{payment.next}</span>}
          </Row>
        )}
        <Row label="Status">
          <StatusBadge status={order.status} label={payment?.badge ?? undefined} />
        </Row>
        <Row label="Placed">{formatDate(order.createdAt, "long", tz)}</Row>
        <Row label={invoices.length > 1 ? "Invoices" : "Invoice"}>
          {invoices.length > 0
            ? invoices.map((invoice) => (
                <span key={invoice.id} className="flex flex-wrap items-center justify-end gap-2">
                  <Link to={invoice.href} className="text-brand-700 underline">
                    {invoice.title === "Invoice"
                      ? invoice.invoiceNumber
                      : `${invoice.title} ${invoice.invoiceNumber}`}
                  </Link>
                  <StatusBadge status={invoice.status} label={invoiceStatusLabel(invoice.status)} />
                </span>
              ))
            : "—"}
        </Row>
        <OrderMoneyRows money={view.money} />
        <Row label="Order number">
          <span className="font-mono text-xs">{order.id}</span>
        </Row>
      </dl>
    </section>
  );
}

/** A quote's order (issue "quotes"): the work as quoted, line by line, and the quote it came from. */
function QuotedWork({ quote }: { quote: NonNullable<ClientOrderView["quote"]> }) {
  return (
    <section aria-labelledby="quoted-heading" className={cardClass("p-5")} data-testid="order-quote">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="quoted-heading" className="text-lg font-bold">
          The work quoted
        </h2>
        <Link to={quote.href} className="text-sm font-medium text-brand-700 underline">
          View quote {quote.number}
        </Link>
      </div>
      <DocumentLines
        lines={quote.lines}
        caption={`The lines of quote ${quote.number}`}
        compact
        className="mt-3"
      />
    </section>
  );
}

/**
 * The last answer of the page's action, kept until the next form is sent: a live event (the client's
 * own post tells their other tabs, and this one) reloads the page's data, and React Router forgets the
 * action's answer then, which would take "Message sent." away as soon as it appeared.
 */
function useKeptResult(result: ClientOrderActionResult | undefined) {
  const [kept, setKept] = useState(result);
  const submitting = useNavigation().state === "submitting";
  useEffect(() => {
    if (result) setKept(result);
  }, [result]);
  useEffect(() => {
    if (submitting) setKept(undefined);
  }, [submitting]);
  return result ?? kept;
}

export function ClientOrderPage({
  view,
  result,
  ownerName,
}: {
  view: ClientOrderView;
  result: ClientOrderActionResult | undefined;
  ownerName: string;
}) {
  const { order } = view;
  const shown = useKeptResult(result);
  const tz = useTimeZone();
  return (
    <Page
      title={order.serviceName}
      actions={
        <Link to="/client/orders" className="text-sm font-semibold text-brand-700 hover:underline">
          ← All orders
        </Link>
      }
    >
      <p className="-mt-4 flex flex-wrap items-center gap-2 text-slate-600">
        {order.packageName} · ordered {formatDate(order.createdAt, "medium", tz)}{" "}
        <StatusBadge status={order.status} label={view.payment?.badge ?? undefined} />
        {view.brief.badge && <Badge tone="warning">{view.brief.badge}</Badge>}
      </p>
      {shown && shown.intent === null && <FormError message={shown.error} />}
      {/* What was bought and where it stands first; beside the brief and conversation on a wide screen. */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-start-3 lg:row-start-1">
          <OrderSummary view={view} />
          <div className={cardClass("p-5")}>
            <OrderTimeline steps={view.timeline} />
          </div>
        </div>
        <div className="min-w-0 space-y-6 lg:col-span-2 lg:col-start-1 lg:row-start-1">
          {view.quote && <QuotedWork quote={view.quote} />}
          <OrderBrief brief={view.brief} result={shown?.intent === "brief" ? shown : undefined} />
          <OrderConversation
            orderId={order.id}
            messages={view.messages}
            conversation={view.conversation}
            buyAgain={view.buyAgain}
            ownerName={ownerName}
            result={shown?.intent === "message" ? shown : undefined}
          />
        </div>
      </div>
    </Page>
  );
}

/** Another client's order, a malformed id, an order that does not exist: one answer (404). */
export function OrderNotFound() {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="text-3xl font-bold">Order Not Found</h1>
      <p className="mt-4 text-slate-600">We could not find this order in your account.</p>
      <ButtonLink to="/client/orders" className="mt-8">
        Back to My Orders
      </ButtonLink>
    </div>
  );
}
