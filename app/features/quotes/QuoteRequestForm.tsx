/**
 * The quote request form (issue "quotes", item 1), built like the contact form: a fetcher form posting
 * to the page's action, so it works before and without JavaScript, with uncontrolled inputs (nothing
 * typed before hydration is lost). The home page's #quote section and the portal's new request use it.
 */

import { useId } from "react";
import { useActionData, useFetcher } from "react-router";
import { HoneypotField } from "~/features/security/HoneypotField";
import { Button } from "~/ui/button";
import { cn } from "~/ui/cn";
import { FormAlert, useResultFocus } from "~/ui/form-result";
import { Icon } from "~/ui/icon";
import { useHydrated } from "~/ui/use-hydrated";
import {
  isQuoteFormResult,
  QUOTE_INTENT,
  QUOTE_LIMITS,
  QUOTE_SENDING_LABEL,
  QUOTE_SUCCESS_HEADING,
  type QuoteField,
  type QuoteFormResult,
  type QuoteTextField,
} from "./quote-request-result";

export interface QuoteRequestFormProps {
  /** The catalogue's services, by name: the boxes to tick. */
  services: string[];
  /** The page action that takes the post. */
  action: string;
  /** Values the form starts with (the portal fills in the client's name and company). */
  defaults?: Partial<Record<QuoteTextField, string>>;
  /** A signed-in client's account email: shown read-only, the only address the request can use. */
  accountEmail?: string;
  /** What follows a success (the portal links to the list of requests). */
  after?: React.ReactNode;
}

const LABELS: Record<QuoteTextField, string> = {
  name: "Your Name",
  email: "Email Address",
  company: "Company",
  description: "Describe the work",
  budget: "Budget",
  deadline: "Deadline",
};

export function QuoteRequestForm({ services, action, defaults, accountEmail, after }: QuoteRequestFormProps) {
  const fetcher = useFetcher<QuoteFormResult>();
  const fromPage = useActionData();
  const result: QuoteFormResult | undefined =
    fetcher.data ?? (isQuoteFormResult(fromPage) ? fromPage : undefined);
  const sending = fetcher.state === "submitting";
  const enhanced = useHydrated();
  const id = useId();
  const { formRef, alertRef, successRef } = useResultFocus(result, enhanced);

  if (result?.ok) {
    return (
      <div className="rounded-2xl border border-green-200 bg-green-50 p-8 text-center text-ink">
        <Icon name="circle-check" className="mx-auto size-12 text-green-700" />
        <h3 ref={successRef} tabIndex={-1} className="mt-4 text-2xl font-bold">
          {QUOTE_SUCCESS_HEADING}
        </h3>
        <p className="mt-3 text-slate-700">We&apos;ll send you a quote within 24 hours.</p>
        <p className="mt-2 text-sm text-slate-600">
          A confirmation email has been sent to <strong>{result.email}</strong>.
        </p>
        {after}
      </div>
    );
  }

  const error = result && !result.ok ? result : null;
  const kept = error?.values;
  const alertId = `${id}-alert`;
  const inputClass =
    "mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-ink shadow-sm focus:border-brand-600 aria-[invalid=true]:border-red-600";
  const fieldProps = (field: QuoteTextField, required = false) => ({
    id: `${id}-${field}`,
    name: field,
    required,
    // A date input takes no maxlength (HTML); the server bounds the deadline all the same.
    maxLength: field === "deadline" ? undefined : QUOTE_LIMITS[field],
    defaultValue: kept?.[field] ?? defaults?.[field],
    "aria-invalid": error?.field === field || undefined,
    "aria-describedby": error?.field === field ? alertId : undefined,
    className: inputClass,
  });
  const label = (field: QuoteTextField, required = false) => (
    <label htmlFor={`${id}-${field}`} className="block text-sm font-medium text-slate-700">
      {LABELS[field]}{" "}
      {required ? <span aria-hidden="true">*</span> : <span className="font-normal">(optional)</span>}
    </label>
  );
  const ticked = new Set(kept?.services ?? []);
  const servicesInvalid = error?.field === ("services" satisfies QuoteField);

  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action={action}
      noValidate={enhanced}
      aria-busy={sending}
      aria-describedby={error ? alertId : undefined}
      data-hydrated={enhanced || undefined}
      className="relative space-y-4 rounded-2xl border border-slate-200 bg-white p-6 text-ink shadow-sm sm:p-8"
    >
      <input type="hidden" name="intent" value={QUOTE_INTENT} />
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          {label("name", true)}
          <input {...fieldProps("name", true)} type="text" autoComplete="name" />
        </div>
        <div>
          {label("email", true)}
          {accountEmail === undefined ? (
            <input {...fieldProps("email", true)} type="email" autoComplete="email" />
          ) : (
            <>
              <input
                {...fieldProps("email", true)}
                type="email"
                readOnly
                defaultValue={accountEmail}
                aria-describedby={`${id}-email-hint`}
                className={cn(inputClass, "bg-slate-100 text-slate-700")}
              />
              <p id={`${id}-email-hint`} className="mt-1 text-xs text-slate-600">
                Your account&apos;s email; change it in your profile.
              </p>
            </>
          )}
        </div>
      </div>
      <div>
        {label("company")}
        <input {...fieldProps("company")} type="text" autoComplete="organization" />
      </div>
      <fieldset aria-invalid={servicesInvalid || undefined}>
        <legend className="text-sm font-medium text-slate-700">
          Services concerned <span className="font-normal">(optional)</span>
        </legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {services.map((name) => (
            <label key={name} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                name="services"
                value={name}
                defaultChecked={ticked.has(name)}
                className="size-4 rounded border-slate-400"
              />
              {name}
            </label>
          ))}
        </div>
      </fieldset>
      <div>
        {label("description", true)}
        <textarea {...fieldProps("description", true)} rows={6} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          {label("budget")}
          <input {...fieldProps("budget")} type="text" placeholder="e.g. $2,000" />
        </div>
        <div>
          {label("deadline")}
          <input {...fieldProps("deadline")} type="date" />
        </div>
      </div>
      <HoneypotField id={`${id}-hp`} />
      <FormAlert ref={alertRef} id={alertId} message={error?.error} />
      <Button type="submit" disabled={sending} className={cn("w-full py-3 text-base")}>
        {sending ? QUOTE_SENDING_LABEL : "Request a Quote"}
      </Button>
    </fetcher.Form>
  );
}
