/**
 * Newsletter sign-up: one row per address (lower-cased, unique), so signing up twice is harmless and
 * says so. Guarded by the same honeypot and database rate limit as the contact form.
 */
import type { AppLoadContext } from "react-router";
import type { Database } from "~/db/client.server";
import { newsletterSubscriptions } from "~/db/schema";
import { rateLimitAddress } from "~/features/rate-limit/address";
import { consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import { HONEYPOT_FIELD, isHoneypotFilled } from "~/features/security/honeypot";
import { actionResponse } from "~/ui/form";
import {
  NEWSLETTER_INVALID,
  type NewsletterResult,
  newsletterAlreadySubscribed,
  newsletterSchema,
  newsletterSubscribed,
} from "./newsletter";

/** Stores a subscription; false when the address was already subscribed. */
export async function subscribeToNewsletter(db: Database, email: string, source = "site"): Promise<boolean> {
  const inserted = await db
    .insert(newsletterSubscriptions)
    .values({ email: email.toLowerCase(), source })
    .onConflictDoNothing({ target: newsletterSubscriptions.email })
    .returning({ id: newsletterSubscriptions.id });
  return inserted.length > 0;
}

export async function handleNewsletterForm(form: FormData, context: AppLoadContext) {
  const { config, database, logger } = context.runtime;
  const raw = form.get("email");
  const email = typeof raw === "string" ? raw.trim() : "";
  const subscribed = (message: string) =>
    actionResponse<NewsletterResult>({ form: "newsletter", ok: true, message, email });
  const refused = (status: number, error: string) =>
    actionResponse<NewsletterResult>({ form: "newsletter", ok: false, status, error, email });
  if (isHoneypotFilled(form.get(HONEYPOT_FIELD))) {
    logger.info({ ip: context.clientIp }, "newsletter: honeypot filled, dropped");
    return subscribed(newsletterSubscribed(email));
  }
  const parsed = newsletterSchema.safeParse({ email: raw });
  if (!parsed.success) return refused(400, NEWSLETTER_INVALID);
  const limit = await consumeRateLimit(
    database.db,
    `newsletter:ip:${rateLimitAddress(context.clientIp)}`,
    config.contactRateLimitPerHour * 2,
    60 * 60 * 1000,
  );
  if (!limit.allowed) return refused(429, "Too many sign-ups in a short time. Please try again later.");
  const added = await subscribeToNewsletter(database.db, parsed.data.email);
  return subscribed(
    added ? newsletterSubscribed(parsed.data.email) : newsletterAlreadySubscribed(parsed.data.email),
  );
}
