/**
 * The brief on the client's order page (ADR 0512): the service's questions as a form while the order
 * is paid or in progress, "Waiting for your details" until they are answered, then the answers (which
 * may be corrected while the order is open).
 */
import { Form, useNavigation } from "react-router";
import type { IntakeQuestion } from "~/db/schema";
import type { BriefView } from "~/features/orders/brief.server";
import { Badge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { cardClass } from "~/ui/card-class";
import { Alert, FormError, TextAreaField, TextField } from "~/ui/field";
import { type ActionResult, type FieldErrors, failureOf, formErrors } from "~/ui/form";
import { formatMoment } from "~/ui/format";
import { useTimeZone } from "~/ui/time-zone";

export type BriefResult = ActionResult<
  { intent: "brief"; message: string },
  { intent: "brief"; fieldErrors: FieldErrors; values: Record<string, string> }
>;

function BriefFields({
  questions,
  values,
  errors,
}: {
  questions: readonly IntakeQuestion[];
  values: Readonly<Record<string, string>>;
  errors: FieldErrors;
}) {
  return questions.map((q) => {
    const field = {
      name: q.key,
      label: q.required ? q.label : `${q.label} (optional)`,
      hint: q.hint,
      error: errors[q.key],
      maxLength: q.maxLength,
      required: q.required,
      defaultValue: values[q.key] ?? "",
    };
    return q.kind === "textarea" ? (
      <TextAreaField key={q.key} {...field} rows={4} />
    ) : (
      <TextField key={q.key} {...field} inputMode={q.kind === "number" ? "numeric" : undefined} />
    );
  });
}

function BriefForm({
  brief,
  failure,
  correcting,
}: {
  brief: BriefView;
  failure: Extract<BriefResult, { ok: false }> | undefined;
  correcting: boolean;
}) {
  const navigation = useNavigation();
  const sending = navigation.formData?.get("intent") === "brief";
  // The form's alert, unless the message is already beside its field.
  const { alert, fieldErrors: fieldMessages } = formErrors(failure);
  return (
    <Form method="post" noValidate className="mt-4 space-y-4">
      <input type="hidden" name="intent" value="brief" />
      <FormError message={alert} />
      <BriefFields
        questions={brief.questions}
        values={failure?.values ?? brief.answers}
        errors={fieldMessages}
      />
      <Button type="submit" disabled={sending}>
        {sending ? "Sending…" : correcting ? "Update details" : "Send details"}
      </Button>
    </Form>
  );
}

export function OrderBrief({ brief, result }: { brief: BriefView; result: BriefResult | undefined }) {
  const tz = useTimeZone();
  if (brief.state === "not-needed") return null;
  const failure = failureOf(result) ?? undefined;
  const notice = result?.ok ? <Alert tone="success">{result.message}</Alert> : null;
  return (
    <section aria-labelledby="brief-heading" className={cardClass("p-5")} data-brief-state={brief.state}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="brief-heading" className="text-lg font-bold">
          {brief.state === "answered" ? "Your details" : "Tell us about the job"}
        </h2>
        {brief.badge && <Badge tone="warning">{brief.badge}</Badge>}
      </div>
      {notice && <div className="mt-3">{notice}</div>}
      {brief.state === "not-yet" && (
        <p className="mt-2 text-slate-600">
          Once the payment is confirmed, a few questions about the job appear here, so we can start without a
          back-and-forth.
        </p>
      )}
      {brief.state === "missing" && (
        <>
          <p className="mt-2 text-slate-600">
            A few questions so we can start without a back-and-forth. You can correct your answers later.
          </p>
          <BriefForm brief={brief} failure={failure} correcting={false} />
        </>
      )}
      {brief.state === "answered" && (
        <>
          <p className="mt-1 text-sm text-slate-600">
            Sent {formatMoment(brief.answeredAt, tz)}
            {brief.updatedAt &&
              brief.answeredAt &&
              new Date(brief.updatedAt).getTime() !== new Date(brief.answeredAt).getTime() &&
              `, last corrected ${formatMoment(brief.updatedAt, tz)}`}
          </p>
          <dl className="mt-4 space-y-3">
            {brief.questions.map((q) => (
              <div key={q.key}>
                <dt className="text-sm font-medium text-slate-600">{q.label}</dt>
                <dd className="whitespace-pre-wrap text-ink [overflow-wrap:anywhere]">
                  {brief.answers[q.key] || "—"}
                </dd>
              </div>
            ))}
          </dl>
          {brief.canAnswer && (
            <details className="mt-4" open={Boolean(failure)}>
              <summary className="cursor-pointer font-semibold text-brand-700">Correct your details</summary>
              <BriefForm brief={brief} failure={failure} correcting />
            </details>
          )}
        </>
      )}
    </section>
  );
}
