/** The quote request form posted to a page's action (the home page's #quote, the portal's new request). */
import type { AppLoadContext } from "react-router";
import { publicCatalogue } from "~/features/catalogue/catalogue.server";
import { HONEYPOT_FIELD } from "~/features/security/honeypot";
import { actionResponse } from "~/ui/form";
import { type QuoteFormResult, quoteValues } from "./quote-request-result";
import { type QuoteRequestDeps, submitQuoteRequest } from "./quote-requests.server";

export function quoteRequestDeps(context: AppLoadContext): QuoteRequestDeps {
  const { config, database, outbox } = context.runtime;
  return {
    db: database.db,
    business: config.business,
    publicUrl: config.publicUrl,
    // The contact form's limit: the same people, the same kind of form.
    ratePerHour: config.contactRateLimitPerHour,
    sitePerHour: config.quoteRequestsPerHour,
    wakeOutbox: () => outbox.wake(),
    logger: context.logger,
  };
}

/** The catalogue's service names, the only ones a request may name. */
export async function quotableServices(context: AppLoadContext): Promise<string[]> {
  return (await publicCatalogue(context.runtime.database.db)).map((s) => s.name);
}

/** One QuoteFormResult, with a 4xx status on failure (the form shows its message and keeps its values). */
export async function handleQuoteForm(
  form: FormData,
  request: Request,
  context: AppLoadContext,
  meta: { source: "site" | "portal"; clientId: string | null; accountEmail: string | null },
) {
  const values = quoteValues(form);
  const raw: Record<string, unknown> = { ...values, [HONEYPOT_FIELD]: form.get(HONEYPOT_FIELD) };
  const outcome = await submitQuoteRequest(quoteRequestDeps(context), raw, await quotableServices(context), {
    ...meta,
    ip: context.clientIp,
    userAgent: request.headers.get("user-agent"),
  });
  if (outcome.ok) return actionResponse<QuoteFormResult>({ form: "quote", ok: true, email: outcome.email });
  const { status, error, field, retryAfterSeconds } = outcome;
  return actionResponse<QuoteFormResult>(
    { form: "quote", ok: false, status, error, field, values },
    retryAfterSeconds ? { "Retry-After": String(retryAfterSeconds) } : undefined,
  );
}
