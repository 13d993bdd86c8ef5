/**
 * The two doors to `submitContactMessage`: a form post to a page's action (the home contact section
 * without JavaScript, the portal's Need Help box) and the JSON API of the old site, POST /api/send-email.
 */
import { type AppLoadContext, data } from "react-router";
import { z } from "zod";
import {
  CONTACT_FIELDS,
  type ContactField,
  contactFailureMessage,
  HONEYPOT_FIELD,
  MISSING_FIELDS,
} from "./contact";
import { type ContactDeps, type ContactSource, submitContactMessage } from "./contact.server";

/** What a page's action returns for a contact form post; ContactForm shows it (no-JavaScript path). */
export type ContactFormResult =
  | { form: "contact"; ok: true; email: string }
  | {
      form: "contact";
      ok: false;
      message: string;
      field: ContactField | null;
      values: Record<ContactField, string>;
    };

export function contactDeps(context: AppLoadContext): ContactDeps {
  const { config, database, outbox } = context.runtime;
  return {
    db: database.db,
    business: config.business,
    publicUrl: config.publicUrl,
    ratePerHour: config.contactRateLimitPerHour,
    wakeOutbox: () => outbox.wake(),
    logger: context.logger,
  };
}

function meta(request: Request, context: AppLoadContext, source: ContactSource) {
  return { source, ip: context.clientIp, userAgent: request.headers.get("user-agent") };
}

/** Handles a posted contact form; answers with data for the page (4xx status on failure). */
export async function handleContactForm(
  form: FormData,
  request: Request,
  context: AppLoadContext,
  source: Exclude<ContactSource, "api">,
) {
  const raw: Record<string, string> = {};
  for (const key of [...CONTACT_FIELDS, HONEYPOT_FIELD]) {
    const value = form.get(key);
    if (typeof value === "string") raw[key] = value;
  }
  const values = Object.fromEntries(CONTACT_FIELDS.map((f) => [f, raw[f] ?? ""])) as Record<
    ContactField,
    string
  >;
  const email = context.runtime.config.business.email;
  const outcome = await submitContactMessage(contactDeps(context), raw, meta(request, context, source));
  if (outcome.ok) return data<ContactFormResult>({ form: "contact", ok: true, email: outcome.email });
  const result: ContactFormResult = {
    form: "contact",
    ok: false,
    message: outcome.error === MISSING_FIELDS ? MISSING_FIELDS : contactFailureMessage(outcome.error, email),
    field: outcome.field,
    values,
  };
  return data(result, {
    status: outcome.status,
    headers: outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : undefined,
  });
}

/** The old site's sendEmail payload: type, name, email, subject, message, timestamp (ISO). */
const apiPayload = z.looseObject({
  type: z.literal("contact_form", { message: "type must be contact_form" }).optional(),
  timestamp: z.string().max(64).optional(),
});

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });

/** POST /api/send-email: JSON in, JSON out; errors are `{ error }` with a 4xx status. */
export async function handleSendEmailApi(request: Request, context: AppLoadContext): Promise<Response> {
  if (request.method !== "POST") return json({ error: "Use POST." }, 405, { Allow: "POST" });
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) {
    return json({ error: "Send the message as JSON (Content-Type: application/json)." }, 415);
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return json({ error: "The request body is not valid JSON." }, 400);
  }
  const envelope = apiPayload.safeParse(body);
  if (!envelope.success) {
    return json({ error: envelope.error.issues[0]?.message ?? "Invalid request." }, 400);
  }
  // Where a message came from is the server's to say: a `source` in the body is ignored.
  const { source: _ignored, ...fields } = envelope.data;
  const outcome = await submitContactMessage(contactDeps(context), fields, meta(request, context, "api"));
  if (outcome.ok) return json({ success: true, message: "Message received" });
  return json(
    { error: outcome.error, ...(outcome.field ? { field: outcome.field } : {}) },
    outcome.status,
    outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : {},
  );
}
