/**
 * The step before a quote is sent (issue 37, item 9), rendered by the server so it works without
 * JavaScript: to whom it goes, its lines and figures as the client will see them, its validity and terms;
 * then Send (the editor's fields posted again, with the total shown, so a catalogue price that moved
 * meanwhile is never sent unseen) or Back to editing (nothing saved, nothing lost).
 */
import { useEffect, useRef } from "react";
import { Form } from "react-router";
import { formatMoney } from "~/features/money/format";
import type { QuotePreview } from "~/features/quotes/quote-editing.server";
import { formFieldsOf, PREVIEWED_TOTAL } from "~/features/quotes/quote-form";
import { Button } from "~/ui/button";
import { formatDate } from "~/ui/format";
import { QuoteAmounts, QuoteTerms } from "./QuoteView";

export function QuotePreviewStep({ preview }: { preview: QuotePreview }) {
  const { draft, figures, values } = preview;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const recipient = `${draft.name}${draft.company ? ` (${draft.company})` : ""} <${draft.email}>`;
  return (
    <div className="space-y-6" data-testid="quote-preview">
      <section
        aria-labelledby="quote-preview-title"
        className="rounded-lg border border-amber-300 bg-amber-50 p-4"
      >
        <h2 id="quote-preview-title" ref={heading} tabIndex={-1} className="text-lg font-semibold text-ink">
          {`Send this quote for ${formatMoney(draft.totalUsd, "USD")} to ${draft.email}?`}
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-800">
          <li>
            It is emailed to <strong>{recipient}</strong>
            {draft.clientId
              ? " and shown in their client portal."
              : ", with a link to register and accept it."}
          </li>
          <li>{`It is valid until ${formatDate(`${draft.validUntil}T00:00:00Z`, "long")}; once sent it is numbered and never edited (a revision replaces it).`}</li>
          {figures.depositUsd !== null && (
            <li>{`Accepting it asks for a deposit of ${formatMoney(figures.depositUsd, "USD")} (${draft.depositPercent}%); the balance is invoiced when the work is complete.`}</li>
          )}
        </ul>
        <Form method="post" className="mt-3 flex flex-wrap gap-3">
          {formFieldsOf(values).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name={PREVIEWED_TOTAL} value={draft.totalUsd.toFixed(2)} />
          <Button type="submit" name="intent" value="send">
            {`Send the quote to ${draft.email}`}
          </Button>
          <Button type="submit" name="intent" value="edit" variant="secondary">
            Back to editing
          </Button>
        </Form>
      </section>
      <QuoteAmounts quote={draft} figures={figures} title="Lines and amounts the client will see" />
      <QuoteTerms terms={draft.terms} />
    </div>
  );
}
