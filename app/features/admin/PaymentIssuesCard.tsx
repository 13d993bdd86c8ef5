/**
 * The back-office dashboard's "Needs attention" card (ADR 0503): payments of the wrong amount, payments
 * for cancelled orders, second payments of invoices already paid, checkouts the provider does not know
 * and refunds in trouble, newest first, each linking to its order; then care plans whose renewal is
 * unpaid (past due or suspended, ADR 0531), each linking to its unpaid invoice (else to Care plans);
 * then invoices that charged VAT on a number VIES confirmed later (issue 40), each linking to it.
 */
import { Link } from "react-router";
import type { VatToReissue } from "~/features/invoices/vat-reissue.server";
import { PAYMENT_ISSUE_LABELS } from "~/features/payments/payment-issue-labels";
import type { PaymentIssueRow } from "~/features/payments/payment-issues.server";
import type { TroubledPlan } from "~/features/plans/plan-subscribers.server";
import { Card } from "~/ui/card";
import { formatDate } from "~/ui/format";

export function PaymentIssuesCard({
  issues,
  plans,
  vat = [],
}: {
  issues: PaymentIssueRow[];
  plans: TroubledPlan[];
  /** Invoices that charged VAT on a number VIES confirmed since (issue 40). */
  vat?: VatToReissue[];
}) {
  return (
    <Card title="Needs attention">
      {issues.length === 0 && plans.length === 0 && vat.length === 0 ? (
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
          {vat.map((v) => (
            <li
              key={v.invoiceId}
              className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1"
              data-vat-issue
            >
              <Link to={`/admin/invoices/${v.invoiceId}`} className="wrap-anywhere text-brand-700 underline">
                VAT number confirmed after invoicing: {v.invoiceNumber}, {v.clientName}
              </Link>
              <span className="wrap-anywhere text-slate-600">
                {v.vatNumber} confirmed by VIES{v.confirmedAt ? ` on ${formatDate(v.confirmedAt)}` : ""}: VAT
                was charged; credit and reissue with the reverse charge if you choose
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
