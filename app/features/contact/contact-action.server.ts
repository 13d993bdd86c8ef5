/**
 * The two doors to `submitContactMessage`: the contact form posted to a page's action (the home contact
 * section and the portal's Need Help box, with or without JavaScript) and the old site's JSON API,
 * POST /api/send-email, kept only for callers of that API.
 */
import type { AppLoadContext } from "react-router";
import { z } from "zod";
import { HONEYPOT_FIELD } from "~/features/security/honeypot";
import { actionResponse } from "~/ui/form";
import { type ContactField, type ContactFormResult, contactFailureMessage, contactValues } from "./contact";
import { type ContactDeps, type ContactSource, submitContactMessage } from "./contact.server";

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

/**
 * Handles a contact form posted to a page's action, by a fetcher (JavaScript) or the browser itself:
 * one ContactFormResult either way, with a 4xx (or 500) status on failure. Validation messages are
 * shown as they are; any other failure gets the spec's alert (public-site.md §8), built here.
 */
export async function handleContactForm(
  form: FormData,
  request: Request,
  context: AppLoadContext,
  source: Exclude<ContactSource, "api">,
) {
  const values = contactValues(form);
  const raw: Record<string, unknown> = { ...values, [HONEYPOT_FIELD]: form.get(HONEYPOT_FIELD) };
  const email = context.runtime.config.business.email;
  const failure = (status: number, error: string, field: ContactField | null, headers?: HeadersInit) =>
    actionResponse<ContactFormResult>({ form: "contact", ok: false, status, error, field, values }, headers);
  let outcome: Awaited<ReturnType<typeof submitContactMessage>>;
  try {
    outcome = await submitContactMessage(contactDeps(context), raw, meta(request, context, source));
  } catch (error) {
    context.logger.error({ err: error }, "contact: storing the message failed");
    return failure(500, contactFailureMessage("Server error: 500", email), null);
  }
  if (outcome.ok)
    return actionResponse<ContactFormResult>({ form: "contact", ok: true, email: outcome.email });
  // A 400 is the visitor's to fix ('Please fill in all required fields.' and the like): shown as it is.
  return failure(
    outcome.status,
    outcome.status === 400 ? outcome.error : contactFailureMessage(outcome.error, email),
    outcome.field,
    outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : undefined,
  );
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
