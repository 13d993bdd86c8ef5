import { Form, Link } from "react-router";
import { formatMoney } from "~/features/currency/currency";
import { StatusBadge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { TextField } from "~/ui/field";
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
 * A paid invoice's refunds in the back office (ADR 0505): the form (up to what is still refundable,
 * through the provider that took the payment, or by hand for a bank transfer) and every refund asked,
 * with its credit note.
 */
export function RefundPanel({
  currency,
  refundable,
  via,
  refunds,
}: {
  currency: string;
  refundable: number;
  via: string;
  refunds: RefundRow[];
}) {
  return (
    <>
      {refundable > 0 && (
        <Card title="Refund">
          <p className="mb-3 text-sm text-slate-700">
            Up to {formatMoney(refundable, currency)} can be refunded
            {via === "manual"
              ? ". This invoice was paid by hand: send the money back first, then record it here."
              : ` through ${via}. It is recorded, with a credit note, once ${via} confirms it.`}
          </p>
          <Form method="post" className="flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="refund" />
            <TextField
              label={`Amount (${currency})`}
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              required
              defaultValue={String(refundable)}
              className="w-40"
            />
            <TextField label="Reason" name="reason" required minLength={2} maxLength={500} className="w-72" />
            {via === "manual" && (
              <TextField
                label="Reference of the transfer back"
                name="reference"
                required
                maxLength={200}
                className="w-64"
              />
            )}
            <Button type="submit" variant="secondary">
              Refund
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
                <StatusBadge status={r.status} plain />
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
