/**
 * The contact form (public-site.md §2, §4, §5, §8). A real <form> posting to a page action, so it works
 * before JavaScript loads; with JavaScript it sends JSON to /api/send-email without leaving the page,
 * showing the sending state and the spec's failure alert. Reused by the portal's Need Help box
 * (`source="portal" compact action="/client/dashboard?index"`).
 */
import { CheckCircle2, MessageCircle, Phone } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useActionData, useRouteLoaderData } from "react-router";
import { type BusinessIdentity, phoneLink, whatsappLink } from "~/features/business/business";
import { Button, buttonClass } from "~/ui/button";
import { useHydrated } from "~/ui/use-hydrated";
import {
  CONTACT_FIELDS,
  CONTACT_LIMITS,
  type ContactField,
  checkContact,
  contactFailureMessage,
  HONEYPOT_FIELD,
  responseErrorDetail,
  SENDING_LABEL,
  SUCCESS_HEADING,
} from "./contact";

/** The shape of ContactFormResult (contact-action.server.ts), repeated here to keep server code out. */
type PageResult =
  | { form: "contact"; ok: true; email: string }
  | {
      form: "contact";
      ok: false;
      message: string;
      field: ContactField | null;
      values: Record<ContactField, string>;
    };

type Phase =
  | { kind: "editing" }
  | { kind: "sending" }
  | { kind: "sent"; email: string }
  | { kind: "error"; message: string; field: ContactField | null };

const EMPTY: Record<ContactField, string> = { name: "", email: "", subject: "", message: "" };
const REQUEST_TIMEOUT_MS = 30_000;

const LABELS: Record<ContactField, string> = {
  name: "Your Name",
  email: "Email Address",
  subject: "Subject",
  message: "Message",
};

function isPageResult(value: unknown): value is PageResult {
  return Boolean(value && typeof value === "object" && (value as { form?: unknown }).form === "contact");
}

export interface ContactFormProps {
  /** Where the message comes from, stored with it. */
  source?: "site" | "portal";
  /** Tighter layout for side panels. */
  compact?: boolean;
  /** The page action that takes the no-JavaScript post. */
  action?: string;
  /** Values the form starts with (the portal fills in the signed-in client's name and email). */
  defaults?: Partial<Record<ContactField, string>>;
}

export function ContactForm({
  source = "site",
  compact = false,
  action = "/?index#contact",
  defaults,
}: ContactFormProps) {
  const business = (useRouteLoaderData("root") as { business: BusinessIdentity } | undefined)?.business;
  const contactEmail = business?.email ?? "";
  const actionData = useActionData();
  const fromPage = isPageResult(actionData) ? actionData : null;

  const [values, setValues] = useState<Record<ContactField, string>>(
    fromPage && !fromPage.ok ? fromPage.values : { ...EMPTY, ...defaults },
  );
  const [phase, setPhase] = useState<Phase>(() => {
    if (!fromPage) return { kind: "editing" };
    return fromPage.ok
      ? { kind: "sent", email: fromPage.email }
      : { kind: "error", message: fromPage.message, field: fromPage.field };
  });
  // Until hydration the browser's own `required` checks apply; after it, our alert does.
  const enhanced = useHydrated();

  const id = useId();
  const honeypot = useRef<HTMLInputElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const successRef = useRef<HTMLHeadingElement>(null);
  const fieldRefs = useRef<Partial<Record<ContactField, HTMLInputElement | HTMLTextAreaElement | null>>>({});

  // Move focus to what changed, so keyboard and screen-reader users land on the result.
  useEffect(() => {
    if (!enhanced) return;
    if (phase.kind === "sent") successRef.current?.focus();
    else if (phase.kind === "error") {
      if (phase.field) fieldRefs.current[phase.field]?.focus();
      else alertRef.current?.focus();
    }
  }, [phase, enhanced]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (phase.kind === "sending") return;
    const checked = checkContact(values);
    if (!checked.ok) {
      setPhase({ kind: "error", message: checked.error, field: checked.field });
      return;
    }
    setPhase({ kind: "sending" });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
    try {
      const response = await fetch("/api/send-email", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({
          type: "contact_form",
          ...values,
          source,
          [HONEYPOT_FIELD]: honeypot.current?.value ?? "",
          timestamp: new Date().toISOString(),
        }),
        signal: controller.signal,
      });
      if (!response.ok) throw new Error(responseErrorDetail(response.status, await response.text()));
      setPhase({ kind: "sent", email: checked.data.email });
    } catch (error) {
      const detail = controller.signal.aborted
        ? "Request timed out"
        : error instanceof Error
          ? error.message
          : String(error);
      setPhase({ kind: "error", message: contactFailureMessage(detail, contactEmail), field: null });
    } finally {
      clearTimeout(timer);
    }
  }

  function backToHome(event: { preventDefault(): void }) {
    if (source !== "site") {
      event.preventDefault();
    } else if (window.location.pathname === "/") {
      event.preventDefault();
      window.scrollTo({ top: 0, behavior: "smooth" });
    }
    setValues(EMPTY);
    setPhase({ kind: "editing" });
  }

  if (phase.kind === "sent") {
    return (
      <div
        className={`rounded-2xl border border-green-200 bg-green-50 ${compact ? "p-5" : "p-8"} text-center`}
      >
        <CheckCircle2 aria-hidden="true" className="mx-auto size-12 text-green-700" />
        <h3 ref={successRef} tabIndex={-1} className="mt-4 text-2xl font-bold text-ink">
          {SUCCESS_HEADING}
        </h3>
        <p className="mt-3 text-slate-700">
          Thank you for reaching out. We&apos;ll get back to you within 24 hours.
        </p>
        <p className="mt-2 text-sm text-slate-600">
          A confirmation email has been sent to <strong>{phase.email}</strong>.
        </p>
        {business && (
          <div className="mt-6">
            <p className="text-sm font-semibold text-slate-700">Need a faster answer?</p>
            <div className="mt-3 flex flex-wrap justify-center gap-3">
              <a
                href={whatsappLink(business)}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonClass("secondary")}
              >
                <MessageCircle aria-hidden="true" className="size-4" /> Chat on WhatsApp
              </a>
              <a href={phoneLink(business)} className={buttonClass("secondary")}>
                <Phone aria-hidden="true" className="size-4" /> Call {business.phone}
              </a>
            </div>
          </div>
        )}
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

  const sending = phase.kind === "sending";
  const error = phase.kind === "error" ? phase : null;
  const alertId = `${id}-alert`;
  const inputClass =
    "mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-ink shadow-sm focus:border-brand-600 aria-[invalid=true]:border-red-600";

  return (
    <form
      method="post"
      action={action}
      noValidate={enhanced}
      onSubmit={onSubmit}
      aria-busy={sending}
      aria-describedby={error ? alertId : undefined}
      className={`relative space-y-4 rounded-2xl border border-slate-200 bg-white ${compact ? "p-5" : "p-6 sm:p-8"} shadow-sm`}
    >
      <input type="hidden" name="intent" value="contact" />
      <div className={compact ? "space-y-4" : "grid gap-4 sm:grid-cols-2"}>
        {(["name", "email"] as const).map((field) => (
          <div key={field}>
            <label htmlFor={`${id}-${field}`} className="block text-sm font-medium text-slate-700">
              {LABELS[field]} <span aria-hidden="true">*</span>
            </label>
            <input
              ref={(el) => {
                fieldRefs.current[field] = el;
              }}
              id={`${id}-${field}`}
              name={field}
              type={field === "email" ? "email" : "text"}
              autoComplete={field === "email" ? "email" : "name"}
              required
              maxLength={CONTACT_LIMITS[field]}
              value={values[field]}
              onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
              aria-invalid={error?.field === field || undefined}
              aria-describedby={error?.field === field ? alertId : undefined}
              className={inputClass}
            />
          </div>
        ))}
      </div>
      {CONTACT_FIELDS.slice(2).map((field) => (
        <div key={field}>
          <label htmlFor={`${id}-${field}`} className="block text-sm font-medium text-slate-700">
            {LABELS[field]} <span aria-hidden="true">*</span>
          </label>
          {field === "message" ? (
            <textarea
              ref={(el) => {
                fieldRefs.current[field] = el;
              }}
              id={`${id}-${field}`}
              name={field}
              required
              rows={compact ? 4 : 6}
              maxLength={CONTACT_LIMITS[field]}
              value={values[field]}
              onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
              aria-invalid={error?.field === field || undefined}
              aria-describedby={error?.field === field ? alertId : undefined}
              className={inputClass}
            />
          ) : (
            <input
              ref={(el) => {
                fieldRefs.current[field] = el;
              }}
              id={`${id}-${field}`}
              name={field}
              type="text"
              required
              maxLength={CONTACT_LIMITS[field]}
              value={values[field]}
              onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
              aria-invalid={error?.field === field || undefined}
              aria-describedby={error?.field === field ? alertId : undefined}
              className={inputClass}
            />
          )}
        </div>
      ))}
      {/* Honeypot: invisible to people and to assistive technology; bots fill it. */}
      <div aria-hidden="true" className="absolute -left-[10000px] top-0 h-px w-px overflow-hidden">
        <label htmlFor={`${id}-${HONEYPOT_FIELD}`}>Leave this field empty</label>
        <input
          ref={honeypot}
          id={`${id}-${HONEYPOT_FIELD}`}
          name={HONEYPOT_FIELD}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>
      <div
        ref={alertRef}
        id={alertId}
        role="alert"
        tabIndex={-1}
        className={error ? "rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800" : "sr-only"}
      >
        {error?.message}
      </div>
      <Button type="submit" disabled={sending} className="w-full py-3 text-base">
        {sending ? SENDING_LABEL : "Send Message"}
      </Button>
    </form>
  );
}
