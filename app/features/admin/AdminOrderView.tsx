/**
 * The owner's order page (ADR 0512): what was bought, the timeline, the client's brief, the conversation
 * with its reply box and the status change, on one screen, so replying and moving the order on go
 * together. Live: the page's data is read again when the client writes or sends the brief.
 */
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { invoiceStatusLabel, shownInvoiceStatus } from "~/features/invoices/invoice-status";
import { LiveIndicator } from "~/features/live/LiveUpdates";
import { formatMoney } from "~/features/money/format";
import type { BriefView } from "~/features/orders/brief.server";
import { coveredByLabel } from "~/features/orders/covered-by";
import { allowedTransitions, ORDER_STATUS_LABELS, TRANSITION_LABELS } from "~/features/orders/order-status";
import type { TimelineStep } from "~/features/orders/order-timeline";
import { Badge, StatusBadge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { cn } from "~/ui/cn";
import { failureOf, formErrors } from "~/ui/form";
import { formatDateTime } from "~/ui/format";
import { Page } from "~/ui/page";
import { ReplyForm, ThreadList } from "./AdminOrderThread";
import type { AdminOrderPage, OrderIntent, OrderPostResult } from "./admin-order-page.server";
import { DefinitionList, HistoryList, Outcome } from "./ui";

export function AdminOrderView({ page: d, result }: { page: AdminOrderPage; result?: OrderPostResult }) {
  const { order: o } = d;
  const failure = failureOf(result);
  const errorsFor = (intent: OrderIntent) =>
    failure?.intent === intent ? formErrors(failure).fieldErrors : {};
  // A new key after each message sent: the reply box starts empty again.
  const replyKey = result?.ok && result.intent === "message" ? (result.messageId ?? "sent") : "reply";
  return (
    <Page
      title={`Order: ${o.serviceName}`}
      actions={
        <div className="flex items-center gap-4">
          <LiveIndicator />
          <Link to="/admin/orders" className="text-brand-700 underline">
            All orders
          </Link>
        </div>
      }
    >
      <Outcome result={result} />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="min-w-0 space-y-6">
          <OrderFacts page={d} />
          {!o.planSubscriptionId && <BriefCard brief={d.brief} />}
          <Card title="Conversation">
            <div className="space-y-6">
              <ThreadList thread={d.thread} clientName={d.client?.name ?? "Client"} />
              {d.thread.conversation.open ? (
                <ReplyForm errors={errorsFor("message")} resetKey={replyKey} />
              ) : (
                <p className="text-sm text-slate-700" data-testid="reply-closed">
                  {d.thread.conversation.message}
                </p>
              )}
            </div>
          </Card>
        </div>
        <div className="min-w-0 space-y-6">
          {o.planSubscriptionId ? (
            <CarePlanPeriodCard planName={o.serviceName} clientId={o.clientId} />
          ) : (
            <StatusCard status={o.status} />
          )}
          {/* A plan's period is placed and paid; it is never started or completed. */}
          <TimelineCard
            steps={
              o.planSubscriptionId
                ? d.timeline.filter((s) => s.key !== "in_progress" && s.key !== "completed")
                : d.timeline
            }
          />
        </div>
      </div>
      <Card title="History">
        <HistoryList entries={d.history} />
      </Card>
    </Page>
  );
}

function OrderFacts({
  page: { order: o, client, invoice, brief, money, coveredBy, fromAlert },
}: {
  page: AdminOrderPage;
}) {
  return (
    <Card title="Order">
      <DefinitionList
        items={[
          [
            "Status",
            <span key="s" className="flex flex-wrap gap-2">
              <StatusBadge status={o.status} />
              {brief.badge && <Badge tone="warning">{brief.badge}</Badge>}
            </span>,
          ],
          ["Order id", <code key="id">{o.id}</code>],
          [
            "Client",
            client ? (
              <Link
                key="c"
                className="wrap-anywhere text-brand-700 underline"
                to={`/admin/clients/${client.id}`}
              >
                {client.name} ({client.email})
              </Link>
            ) : (
              "—"
            ),
          ],
          ["Service", `${o.serviceName} (${o.serviceCategory})`],
          ["Package", `${o.packageName} × ${o.quantity}`],
          // An order made from a domain alert's fix (issue 39, item 4).
          ...(fromAlert
            ? [
                [
                  "From an alert",
                  <Link key="a" className="wrap-anywhere text-brand-700 underline" to={fromAlert.href}>
                    {fromAlert.title}
                  </Link>,
                ] as [string, ReactNode],
              ]
            : []),
          [
            "Amount",
            // An incident a client's care plan covered: at zero, no invoice (issue 38, item 6). Else the
            // USD part only when the client paid in another currency.
            coveredBy
              ? coveredByLabel(coveredBy)
              : o.currency === "USD"
                ? formatMoney(o.amountInCurrency, o.currency)
                : `${formatMoney(o.amountInCurrency, o.currency)} (${formatMoney(o.amountUsd, "USD")} at ${o.exchangeRate})`,
          ],
          [
            "Payment",
            o.provider ? `${o.provider}${o.providerReference ? ` · ${o.providerReference}` : ""}` : "—",
          ],
          ["Ordered", formatDateTime(o.createdAt)],
          ["Paid", formatDateTime(o.paidAt)],
          [
            "Invoice",
            invoice ? (
              <span key="i">
                <Link className="text-brand-700 underline" to={`/admin/invoices/${invoice.id}`}>
                  {invoice.invoiceNumber}
                </Link>{" "}
                <StatusBadge
                  status={shownInvoiceStatus(invoice)}
                  label={invoiceStatusLabel(shownInvoiceStatus(invoice))}
                />
              </span>
            ) : (
              "—"
            ),
          ],
          // The one money truth, as the client's order page shows it (issue 37, item 1).
          ["Received", money.paid],
          ...(money.anyRefund
            ? ([
                ["Refunded", money.refunded],
                ["Net paid", money.netPaid],
              ] as [string, string][])
            : []),
          ["Outstanding", money.outstanding],
        ]}
      />
    </Card>
  );
}

function BriefCard({ brief }: { brief: BriefView }) {
  return (
    <Card title="Brief">
      {brief.state === "answered" ? (
        <div className="space-y-3">
          <dl className="space-y-3 text-sm">
            {brief.questions.map((q) => (
              <div key={q.key}>
                <dt className="font-medium text-slate-600">{q.label}</dt>
                <dd className="whitespace-pre-wrap wrap-anywhere text-ink">
                  {brief.answers[q.key] || <span className="text-slate-600">(no answer)</span>}
                </dd>
              </div>
            ))}
          </dl>
          <p className="text-xs text-slate-600">
            Sent {formatDateTime(brief.answeredAt)}
            {brief.updatedAt && brief.answeredAt && +new Date(brief.updatedAt) !== +new Date(brief.answeredAt)
              ? ` · corrected ${formatDateTime(brief.updatedAt)}`
              : ""}
          </p>
        </div>
      ) : brief.state === "missing" ? (
        <div className="space-y-2 text-sm">
          <Badge tone="warning">{brief.badge}</Badge>
          <p className="text-slate-700">The client has not sent the details this service asks for:</p>
          <ul className="list-disc space-y-1 pl-5 text-slate-700">
            {brief.questions.map((q) => (
              <li key={q.key}>{q.label}</li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="text-sm text-slate-600">
          {brief.questions.length === 0
            ? "This service asks no questions after payment."
            : brief.state === "not-yet"
              ? "The client is asked for the details once the order is paid."
              : "No details were sent for this order."}
        </p>
      )}
    </Card>
  );
}

function StatusCard({ status }: { status: AdminOrderPage["order"]["status"] }) {
  const next = allowedTransitions(status);
  return (
    <Card title="Change status">
      {next.length === 0 ? (
        <p className="text-sm text-slate-600">
          This order is {ORDER_STATUS_LABELS[status].toLowerCase()}: its status is final.
        </p>
      ) : (
        // Keyed by the status: after a change the form starts again, its note box empty.
        <Form key={status} method="post" className="space-y-4">
          <input type="hidden" name="intent" value="transition" />
          <div>
            <label htmlFor="note" className="block text-sm font-medium text-slate-800">
              Note to the client (optional, shown on their order page and sent in the email)
            </label>
            <textarea
              id="note"
              name="note"
              rows={3}
              maxLength={2000}
              className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
            />
          </div>
          <div className="flex flex-wrap gap-2">
            {next.map((s) => (
              <Button
                key={s}
                type="submit"
                name="to"
                value={s}
                variant={s === "cancelled" ? "secondary" : "primary"}
              >
                {TRANSITION_LABELS[s]}
              </Button>
            ))}
          </div>
        </Form>
      )}
    </Card>
  );
}

/**
 * In place of the status change on a care plan's period (ADR 0531): a sale, not a job, so nothing to
 * start or complete (the server refuses it too); its invoice is refunded or voided as any other.
 */
function CarePlanPeriodCard({ planName, clientId }: { planName: string; clientId: string }) {
  return (
    <Card title="Care plan period" data-testid="care-plan-period">
      <div className="space-y-2 text-sm text-slate-700">
        <p>
          This order is one period of the client's {planName} care plan: a sale, not a job. There is nothing
          to start or complete; its status follows its invoice's payment.
        </p>
        <p>
          Refund it (or void it while unpaid) on its invoice's page. The plan itself is under{" "}
          <Link to="/admin/plans" className="text-brand-700 underline">
            Care plans
          </Link>{" "}
          and on{" "}
          <Link to={`/admin/clients/${clientId}`} className="text-brand-700 underline">
            the client's page
          </Link>
          .
        </p>
      </div>
    </Card>
  );
}

function TimelineCard({ steps }: { steps: readonly TimelineStep[] }) {
  return (
    <Card title="Timeline">
      <ol className="space-y-3 text-sm">
        {steps.map((step) => (
          <li
            key={step.key}
            aria-current={step.current ? "step" : undefined}
            className="flex items-start gap-3"
          >
            <span
              aria-hidden="true"
              className={cn(
                "mt-1 size-3 shrink-0 rounded-full border-2",
                step.state === "done" ? "border-brand-600 bg-brand-600" : "border-slate-400 bg-white",
                step.current && "ring-2 ring-brand-600/30",
              )}
            />
            <span className="min-w-0">
              <span
                className={cn("block font-medium", step.state === "done" ? "text-ink" : "text-slate-600")}
              >
                {step.label}
                {step.current && <span className="sr-only"> (now)</span>}
              </span>
              <span className="block text-slate-600">
                {step.state === "upcoming"
                  ? "Not yet"
                  : step.at
                    ? formatDateTime(step.at)
                    : "Time not recorded"}
              </span>
              {step.note && (
                <span className="mt-1 block whitespace-pre-line break-words text-slate-800">
                  <span className="sr-only">Note to the client: </span>
                  {step.note}
                </span>
              )}
            </span>
          </li>
        ))}
      </ol>
    </Card>
  );
}
