/**
 * The refund form of the back office's invoice page (ADR 0505): the owner's post goes to a confirmation step first
 * (`refund-review`, which checks without writing), then `refund` makes it, with the confirmation's
 * signed mark (a `refund` without it is shown the confirmation). Every post carries the
 * form's one-time token, issued with the form: a post without one, or with one this server did not
 * issue for this invoice, is refused; the same token posted twice makes one refund.
 */
import { z } from "zod";
import { parseForm } from "~/ui/form";
import type { RefundDraft, RefundFormAnswer, RefundRetry } from "./refund-form";
import {
  isRefundConfirmation,
  isRefundFormToken,
  issueRefundFormToken,
  refundConfirmation,
} from "./refund-form-token.server";
import { type RefundDeps, requestRefund, reviewRefund } from "./refund-requests.server";

export interface RefundFormDeps extends RefundDeps {
  /** Signs the refund form's tokens. */
  refundFormSecret: string;
}

const NOT_OURS =
  "This refund form is not valid: reload the invoice page and fill it in again (nothing was refunded).";

const refundForm = z.object({
  intent: z.enum(["refund-review", "refund"]),
  // Read exactly in the invoice's currency by requestRefund (refund-math.ts), never as a float here.
  amount: z
    .string()
    .trim()
    .min(1, { message: "Enter the amount to refund" })
    .max(30, { message: "Enter the amount as a number, like 12.50." }),
  reason: z
    .string()
    .trim()
    .min(2, { message: "Say why the money goes back (the client reads it on the credit note)" })
    .max(500, { message: "The reason must be at most 500 characters" }),
  reference: z
    .string()
    .trim()
    .max(200, { message: "The reference must be at most 200 characters" })
    .optional()
    .transform((v) => v || null),
  token: z.string({ message: NOT_OURS }).trim().min(1, { message: NOT_OURS }).max(200, { message: NOT_OURS }),
});

const typed = (value: unknown, max: number) => (typeof value === "string" ? value.slice(0, max) : "");

/** What was typed, given back as it came (bounded), for the form to show again. */
function draftOf(values: Record<string, unknown>): RefundDraft {
  return {
    amount: typed(values.amount, 30),
    reason: typed(values.reason, 500),
    reference: typed(values.reference, 200),
  };
}

/** The refund form's intents: `refund-review`, `refund-back` and `refund`. */
export async function refundFormAction(
  deps: RefundFormDeps,
  invoiceId: string,
  values: Record<string, unknown>,
): Promise<RefundFormAnswer> {
  const retry = (): RefundRetry => ({
    refundDraft: draftOf(values),
    refundToken: issueRefundFormToken(deps.refundFormSecret, invoiceId),
  });
  if (values.intent === "refund-back") return { ok: true, ...retry() };
  const parsed = parseForm(refundForm, values);
  if (!parsed.ok) return { ...parsed, ...retry() };
  const { intent, token, ...fields } = parsed.data;
  if (!isRefundFormToken(deps.refundFormSecret, invoiceId, token)) {
    return { ok: false, status: 400, error: NOT_OURS, ...retry() };
  }
  const input = { ...fields, formToken: token };
  // A refund is made only from its confirmation step: a `refund` without the mark of the review the
  // owner saw (skipped, or with another amount or reason) gets that review, and nothing is made.
  const confirmed =
    intent === "refund" && isRefundConfirmation(deps.refundFormSecret, token, fields, values.confirmation);
  if (!confirmed) {
    const reviewed = await reviewRefund(deps, invoiceId, input);
    if (!reviewed.ok) return { ...reviewed, ...retry() };
    // Signed over what the Confirm form posts back (the reference only for a refund by hand).
    const { amount, reason, reference } = reviewed.review;
    const confirmation = refundConfirmation(deps.refundFormSecret, token, { amount, reason, reference });
    return { ok: true, refundReview: { ...reviewed.review, confirmation } };
  }
  const result = await requestRefund(deps, invoiceId, input);
  return result.ok ? result : { ...result, ...retry() };
}
