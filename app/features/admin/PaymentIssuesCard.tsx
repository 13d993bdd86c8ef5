/**
 * The back-office dashboard's "Needs attention" card (ADR 0503): payments of the wrong amount, payments
 * for cancelled orders, second payments of invoices already paid, checkouts the provider does not know
 * and refunds in trouble, newest first, each linking to its order.
 */
import { Link } from "react-router";
import { PAYMENT_ISSUE_LABELS } from "~/features/payments/payment-issue-labels";
import type { PaymentIssueRow } from "~/features/payments/payment-issues.server";
import { Card } from "~/ui/card";
import { formatDate } from "~/ui/format";

export function PaymentIssuesCard({ issues }: { issues: PaymentIssueRow[] }) {
  return (
    <Card title="Needs attention">
      {issues.length === 0 ? (
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
        </ul>
      )}
    </Card>
  );
}
