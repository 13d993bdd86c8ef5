/**
 * A change to a client's care plan, as its page shows it (issue 38, item 5): what the change does, each
 * line with its day and amount, then the confirmation (with a reason when cancelling); once made, what
 * was done. A card update while an invoice is unpaid offers paying it with the new card first.
 */
import { Form, Link } from "react-router";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import type { PlanChangePreview } from "./plan-changes.server";

export function PlanChangeView({
  preview,
  refused,
  token,
  done,
  error,
  busy,
}: {
  preview: PlanChangePreview | null;
  refused: string | null;
  token: string | null;
  done: string | null;
  error: string | null;
  busy: boolean;
}) {
  return (
    <Card title={done ? "Done" : "What this changes"}>
      {done || !preview ? (
        <p role={done ? "status" : "alert"} className="text-slate-800">
          {done ?? refused}
        </p>
      ) : (
        <>
          <ul className="list-disc space-y-2 pl-5 text-slate-800" data-testid="plan-change-lines">
            {preview.lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {preview.payInvoice && (
            <form method="post" action={`/client/invoices/${preview.payInvoice.id}/pay`} className="mt-5">
              <Button type="submit">
                {`Pay invoice ${preview.payInvoice.number} (${preview.payInvoice.amount}) with a new card`}
              </Button>
            </form>
          )}
          <Form method="post" className="mt-5 space-y-4">
            <input type="hidden" name="shown" value={preview.shown} />
            <input type="hidden" name="token" value={token ?? ""} />
            {preview.asksReason && (
              <div>
                <label htmlFor="plan-change-reason" className="block font-medium">
                  Why are you cancelling? (optional)
                </label>
                <textarea
                  id="plan-change-reason"
                  name="reason"
                  rows={3}
                  maxLength={500}
                  className="mt-1 w-full max-w-xl rounded-lg border border-slate-300 px-3 py-2"
                />
              </div>
            )}
            {error && (
              <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
                {error}
              </p>
            )}
            <div className="flex flex-wrap items-center gap-4">
              <Button type="submit" disabled={busy} variant={preview.payInvoice ? "secondary" : "primary"}>
                {preview.confirmLabel}
              </Button>
              <Link to="/client/plans" className="text-sm font-medium text-brand-700 underline">
                Keep the plan as it is
              </Link>
            </div>
          </Form>
        </>
      )}
      {(done || !preview) && (
        <p className="mt-4">
          <Link to="/client/plans" className="font-medium text-brand-700 underline">
            Back to your care plans
          </Link>
        </p>
      )}
    </Card>
  );
}
