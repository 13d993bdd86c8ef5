import { useEffect, useRef } from "react";
import { Form, Link } from "react-router";
import { formatMoney } from "~/features/money/format";
import type { RefundDraft, RefundReview } from "~/features/refunds/refund-form";
import { StatusBadge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { TextField } from "~/ui/field";
import { type ActionResult, formErrors } from "~/ui/form";
import { formatDateTime } from "~/ui/format";

export interface RefundRow {
  id: string;
  status: string;
  amount: number;
  currency: string;
  provider: string;
  reason: string;
  reference: string | null;
  failureReason: string | null;
  requestedByEmail: string;
  createdAt: Date | string;
  creditNote: { id: string; creditNoteNumber: string } | null;
}

/**
 * What the invoice page's last post answered, as its action data carries it (the one form answer): the
 * refund form's steps add the review, or what was typed with a fresh token.
 */
export type RefundStep = ActionResult<
  { refundReview?: RefundReview; refundDraft?: RefundDraft; refundToken?: string },
  { refundDraft?: RefundDraft; refundToken?: string }
>;

/**
 * A paid invoice's refunds in the back office (ADR 0505): the form (up to what is still refundable,
 * through the provider that took the payment, or by hand for a bank transfer), its confirmation step,
 * and every refund asked, with its credit note. The form starts empty and is empty again after a
 * refund; its one-time token makes one refund however often it is posted.
 */
export function RefundPanel({
  currency,
  refundable,
  via,
  refunds,
  token,
  step,
}: {
  currency: string;
  refundable: number;
  via: string;
  refunds: RefundRow[];
  /** The loader's fresh token; a refused post or Back brings its own. */
  token: string;
  step?: RefundStep | null;
}) {
  const review = step?.ok ? step.refundReview : undefined;
  const formToken = step?.refundToken ?? token;
  const { fieldErrors } = formErrors(step);
  return (
    <>
      {refundable > 0 && review && <RefundConfirmation review={review} />}
      {refundable > 0 && !review && (
        <Card title="Refund">
          <p className="mb-3 text-sm text-slate-700">
            Up to {formatMoney(refundable, currency)} can be refunded
            {via === "manual"
              ? ". This invoice was paid by hand: send the money back first, then record it here."
              : ` through ${via}. It is recorded, with a credit note, once ${via} confirms it.`}
          </p>
          {/* Keyed by its token: a new form (after a refund) starts empty. */}
          <Form key={formToken} method="post" className="flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="refund-review" />
            <input type="hidden" name="token" value={formToken} />
            <TextField
              label={`Amount (${currency})`}
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              required
              defaultValue={step?.refundDraft?.amount ?? ""}
              error={fieldErrors.amount}
              className="w-40"
            />
            <TextField
              label="Reason"
              name="reason"
              required
              minLength={2}
              maxLength={500}
              defaultValue={step?.refundDraft?.reason ?? ""}
              error={fieldErrors.reason}
              className="w-72"
            />
            {via === "manual" && (
              <TextField
                label="Reference of the transfer back"
                name="reference"
                required
                maxLength={200}
                defaultValue={step?.refundDraft?.reference ?? ""}
                error={fieldErrors.reference}
                className="w-64"
              />
            )}
            <Button type="submit" variant="secondary">
              Refund…
            </Button>
          </Form>
        </Card>
      )}
      {refunds.length > 0 && (
        <Card title="Refunds">
          <ul className="divide-y divide-slate-200 text-sm">
            {refunds.map((r) => (
              <li
                key={r.id}
                className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-2"
                data-testid="refund-row"
              >
                <StatusBadge status={r.status} />
                <span className="font-semibold">{formatMoney(r.amount, r.currency)}</span>
                <span>
                  {r.provider === "manual" ? `by hand (${r.reference ?? "—"})` : `through ${r.provider}`}
                </span>
                <span className="text-slate-600">{r.reason}</span>
                {r.failureReason && <span className="text-red-800">Refused: {r.failureReason}</span>}
                {r.creditNote && (
                  <Link className="text-brand-700 underline" to={`/admin/credit-notes/${r.creditNote.id}`}>
                    {r.creditNote.creditNoteNumber}
                  </Link>
                )}
                <span className="text-slate-600">
                  {formatDateTime(r.createdAt)} · {r.requestedByEmail}
                </span>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </>
  );
}

/** The confirmation step, rendered by the server: the amount and what follows, Confirm or Back. */
function RefundConfirmation({ review }: { review: RefundReview }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const provider = review.via !== "manual";
  return (
    <section
      aria-labelledby="refund-confirm-title"
      className="rounded-lg border border-amber-300 bg-amber-50 p-4"
      data-testid="refund-confirmation"
    >
      <h2 id="refund-confirm-title" ref={heading} tabIndex={-1} className="text-lg font-semibold text-ink">
        {provider
          ? `Refund ${review.amountText} of invoice ${review.invoiceNumber} to the client's card?`
          : `Record ${review.amountText} of invoice ${review.invoiceNumber} as sent back by hand?`}
      </h2>
      <p className="mt-1 text-sm font-medium text-slate-800">
        {provider
          ? `Once ${review.via} confirms it, a credit note will be issued and the client emailed.`
          : "A credit note will be issued and the client emailed."}
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-800">
        <li>
          {provider
            ? `${review.amountText} goes back to the client through ${review.via}, the way they paid.`
            : `${review.amountText} is recorded as sent back by hand (reference ${review.reference ?? "—"}).`}
          {review.whole ? " This is all that is left of the invoice." : ""}
        </li>
        <li>Reason, printed on the credit note: {review.reason}</li>
      </ul>
      <Form method="post" className="mt-3 flex flex-wrap gap-3">
        <input type="hidden" name="token" value={review.formToken} />
        <input type="hidden" name="amount" value={review.amount} />
        <input type="hidden" name="reason" value={review.reason} />
        {review.reference !== null && <input type="hidden" name="reference" value={review.reference} />}
        {review.confirmation && <input type="hidden" name="confirmation" value={review.confirmation} />}
        <Button type="submit" name="intent" value="refund">
          {`Confirm the refund of ${review.amountText}`}
        </Button>
        <Button type="submit" name="intent" value="refund-back" variant="secondary">
          Back
        </Button>
      </Form>
    </section>
  );
}
