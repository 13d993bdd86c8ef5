/**
 * The contact form (public-site.md §2, §4, §5, §8), built like the newsletter box: a fetcher form posting
 * to the page's action, so it works before and without JavaScript, and its inputs are uncontrolled, so
 * nothing typed before hydration is lost. The action answers with one ContactFormResult for both paths;
 * the failure alert's text is built on the server. Reused by the portal's Need Help box
 * (`source="portal" compact action="/client/dashboard"`).
 */

import { useEffect, useId, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import { type BusinessIdentity, phoneLink, whatsappLink } from "~/features/business/business";
import { HoneypotField } from "~/features/security/HoneypotField";
import { Button, buttonClass } from "~/ui/button";
import { cn } from "~/ui/cn";
import { FormAlert, useResultFocus } from "~/ui/form-result";
import { Icon } from "~/ui/icon";
import { useHydrated } from "~/ui/use-hydrated";
import {
  BUSINESS_EMAIL_FIELD,
  CONTACT_INTENT,
  CONTACT_LIMITS,
  type ContactField,
  type ContactFormResult,
  isContactFormResult,
  SENDING_LABEL,
  SUCCESS_HEADING,
} from "./contact-result";

const LABELS: Record<ContactField, string> = {
  name: "Your Name",
  email: "Email Address",
  subject: "Subject",
  message: "Message",
};

export interface ContactFormProps {
  /** Whose contact details the success view offers (WhatsApp, phone). */
  business: BusinessIdentity;
  /** Where the message comes from; the page's action stores it with the message. */
  source?: "site" | "portal";
  /** Tighter layout for side panels. */
  compact?: boolean;
  /** The page action that takes the post (with and without JavaScript). */
  action?: string;
  /** Values the form starts with (the portal fills in the signed-in client's name and email). */
  defaults?: Partial<Record<ContactField, string>>;
}

export function ContactForm({
  business,
  source = "site",
  compact = false,
  action = "/?index#contact",
  defaults,
}: ContactFormProps) {
  const fetcher = useFetcher<ContactFormResult>();
  const fromPage = useActionData();
  const answer: ContactFormResult | undefined =
    fetcher.data ?? (isContactFormResult(fromPage) ? fromPage : undefined);
  // "Send another message" hides an answer without a new request; a new answer shows again.
  const [dismissed, setDismissed] = useState<ContactFormResult | undefined>(undefined);
  const result = answer && answer !== dismissed ? answer : undefined;
  const sending = fetcher.state === "submitting";
  // Until hydration the browser's own `required` checks apply; after it, the server's alert does.
  const enhanced = useHydrated();

  const id = useId();
  const { formRef, alertRef, successRef } = useResultFocus(result, enhanced);

  // Fetch the no-answer fallback (the route's clientAction) ahead of the first send, while online.
  useEffect(() => {
    void import("./contact-client");
  }, []);

  function backToHome(event: { preventDefault(): void }) {
    if (source !== "site") {
      event.preventDefault();
    } else if (window.location.pathname === "/") {
      event.preventDefault();
      window.scrollTo({ top: 0, behavior: "smooth" });
    }
    setDismissed(answer);
  }

  if (result?.ok) {
    return (
      <div
        className={cn("rounded-2xl border border-green-200 bg-green-50 text-center", compact ? "p-5" : "p-8")}
      >
        <Icon name="circle-check" className="mx-auto size-12 text-green-700" />
        <h3 ref={successRef} tabIndex={-1} className="mt-4 text-2xl font-bold text-ink">
          {SUCCESS_HEADING}
        </h3>
        <p className="mt-3 text-slate-700">
          Thank you for reaching out. We&apos;ll get back to you within 24 hours.
        </p>
        <p className="mt-2 text-sm text-slate-600">
          A confirmation email has been sent to <strong>{result.email}</strong>.
        </p>
        <div className="mt-6">
          <p className="text-sm font-semibold text-slate-700">Need a faster answer?</p>
          <div className="mt-3 flex flex-wrap justify-center gap-3">
            <a
              href={whatsappLink(business)}
              target="_blank"
              rel="noopener noreferrer"
              className={buttonClass("secondary")}
            >
              <Icon name="message-circle" className="size-4" /> Chat on WhatsApp
            </a>
            <a href={phoneLink(business)} className={buttonClass("secondary")}>
              <Icon name="phone" className="size-4" /> Call {business.phone}
            </a>
          </div>
        </div>
        <a
          href={source === "site" ? "/" : "#"}
          onClick={backToHome}
          className={buttonClass("primary", "mt-6")}
        >
          {source === "site" ? "Back to Home" : "Send another message"}
        </a>
      </div>
    );
  }

  const error = result && !result.ok ? result : null;
  // After a failure the form stays filled: the no-JavaScript page gets the values back from the action;
  // with JavaScript the uncontrolled inputs simply keep them.
  const kept = error?.values;
  const alertId = `${id}-alert`;
  const inputClass =
    "mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-ink shadow-sm focus:border-brand-600 aria-[invalid=true]:border-red-600";
  const fieldProps = (field: ContactField) => ({
    id: `${id}-${field}`,
    name: field,
    required: true,
    maxLength: CONTACT_LIMITS[field],
    defaultValue: kept?.[field] ?? defaults?.[field],
    "aria-invalid": error?.field === field || undefined,
    "aria-describedby": error?.field === field ? alertId : undefined,
    className: inputClass,
  });
  const label = (field: ContactField) => (
    <label htmlFor={`${id}-${field}`} className="block text-sm font-medium text-slate-700">
      {LABELS[field]} <span aria-hidden="true">*</span>
    </label>
  );

  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action={action}
      noValidate={enhanced}
      aria-busy={sending}
      aria-describedby={error ? alertId : undefined}
      data-hydrated={enhanced || undefined}
      className={cn(
        "relative space-y-4 rounded-2xl border border-slate-200 bg-white shadow-sm",
        compact ? "p-5" : "p-6 sm:p-8",
      )}
    >
      <input type="hidden" name="intent" value={CONTACT_INTENT} />
      <input type="hidden" name={BUSINESS_EMAIL_FIELD} value={business.email} />
      <div className={compact ? "space-y-4" : "grid gap-4 sm:grid-cols-2"}>
        <div>
          {label("name")}
          <input {...fieldProps("name")} type="text" autoComplete="name" />
        </div>
        <div>
          {label("email")}
          <input {...fieldProps("email")} type="email" autoComplete="email" />
        </div>
      </div>
      <div>
        {label("subject")}
        <input {...fieldProps("subject")} type="text" />
      </div>
      <div>
        {label("message")}
        <textarea {...fieldProps("message")} rows={compact ? 4 : 6} />
      </div>
      <HoneypotField id={`${id}-hp`} />
      <FormAlert ref={alertRef} id={alertId} message={error?.error} />
      <Button type="submit" disabled={sending} className="w-full py-3 text-base">
        {sending ? SENDING_LABEL : "Send Message"}
      </Button>
    </fetcher.Form>
  );
}
