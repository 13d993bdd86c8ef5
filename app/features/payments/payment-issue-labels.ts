/** How the back office names each kind of payment issue (ADR 0503). */
import type { PaymentIssueKind } from "~/db/schema";

export const PAYMENT_ISSUE_LABELS: Record<PaymentIssueKind, string> = {
  "wrong-amount": "Payment of the wrong amount",
  "order-cancelled": "Payment for a cancelled order",
  "unknown-checkout": "Checkout unknown to the provider",
  "refund-refused": "Refund refused by the provider",
  "refund-unmatched": "Refund at the provider that does not fit",
  "already-paid": "Payment for an invoice already paid",
};
