/**
 * The back-office dashboard's "Needs attention" card (ADR 0503): payments of the wrong amount, payments
 * for cancelled orders, second payments of invoices already paid, checkouts the provider does not know
 * and refunds in trouble, newest first, each linking to its order; then care plans whose renewal is
 * unpaid (past due or suspended, ADR 0531), each linking to its unpaid invoice (else to Care plans).
 */
import { Link } from "react-router";
import { PAYMENT_ISSUE_LABELS } from "~/features/payments/payment-issue-labels";
import type { PaymentIssueRow } from "~/features/payments/payment-issues.server";
import type { TroubledPlan } from "~/features/plans/plan-subscribers.server";
import { Card } from "~/ui/card";
import { formatDate } from "~/ui/format";

export function PaymentIssuesCard({ issues, plans }: { issues: PaymentIssueRow[]; plans: TroubledPlan[] }) {
  return (
    <Card title="Needs attention">
      {issues.length === 0 && plans.length === 0 ? (
        <p className="text-sm text-slate-600">No payment needs attention.</p>
      ) : (
        <ul className="space-y-2 text-sm" data-testid="payment-issues">
          {issues.map((issue) => (
            <li key={issue.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
              <Link to={`/admin/orders/${issue.orderId}`} className="wrap-anywhere text-brand-700 underline">
                {PAYMENT_ISSUE_LABELS[issue.kind]}: {issue.serviceName}
              </Link>
              <span className="wrap-anywhere text-slate-600">
                {issue.detail} ({issue.provider} {issue.reference}) · {formatDate(issue.createdAt)}
              </span>
            </li>
          ))}
          {plans.map((plan) => (
            <li
              key={plan.id}
              className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1"
              data-plan-issue={plan.status}
            >
              <Link
                to={plan.invoice ? `/admin/invoices/${plan.invoice.id}` : "/admin/plans"}
                className="wrap-anywhere text-brand-700 underline"
              >
                Care plan {plan.status === "suspended" ? "suspended" : "past due"}: {plan.planName},{" "}
                {plan.clientName}
              </Link>
              <span className="wrap-anywhere text-slate-600">
                {plan.invoice ? `Invoice ${plan.invoice.number} (${plan.invoice.amount}) unpaid` : "Unpaid"}
                {plan.decline ? `: ${plan.decline.words}` : ""} · since {plan.since}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
