/**
 * Newsletter sign-up: one row per address (lower-cased, unique), so signing up twice is harmless and
 * says so. Guarded by the same honeypot and database rate limit as the contact form.
 */
import { type AppLoadContext, data } from "react-router";
import type { Database } from "~/db/client.server";
import { newsletterSubscriptions } from "~/db/schema";
import { rateLimitAddress } from "~/features/rate-limit/address";
import { consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import { HONEYPOT_FIELD, isHoneypotFilled } from "~/features/security/honeypot";
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
  const reply = (status: number, ok: boolean, message: string) =>
    data<NewsletterResult>({ form: "newsletter", ok, message, email }, { status });
  if (isHoneypotFilled(form.get(HONEYPOT_FIELD))) {
    logger.info({ ip: context.clientIp }, "newsletter: honeypot filled, dropped");
    return reply(200, true, newsletterSubscribed(email));
  }
  const parsed = newsletterSchema.safeParse({ email: raw });
  if (!parsed.success) return reply(400, false, NEWSLETTER_INVALID);
  const limit = await consumeRateLimit(
    database.db,
    `newsletter:ip:${rateLimitAddress(context.clientIp)}`,
    config.contactRateLimitPerHour * 2,
    60 * 60 * 1000,
  );
  if (!limit.allowed) return reply(429, false, "Too many sign-ups in a short time. Please try again later.");
  const added = await subscribeToNewsletter(database.db, parsed.data.email);
  return reply(
    200,
    true,
    added ? newsletterSubscribed(parsed.data.email) : newsletterAlreadySubscribed(parsed.data.email),
  );
}
