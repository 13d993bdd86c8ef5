/**
 * Accepting a contact message (docs/decisions/0300, 0301, 0302): honeypot, rate limits, validation,
 * then one transaction that stores the message and queues the owner's notification and the visitor's
 * confirmation. Nothing is sent before the message is committed.
 */
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { contactMessages } from "~/db/schema";
import type { BusinessIdentity } from "~/features/business/business";
import { enqueueEmail, mailbox } from "~/features/mail/mail.server";
import { rateLimitAddress } from "~/features/rate-limit/address";
import { consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import { HONEYPOT_FIELD, isHoneypotFilled } from "~/features/security/honeypot";
import { type ContactField, checkContact } from "./contact";
import { contactConfirmationEmail, contactNotificationEmail } from "./email-templates.server";

export type ContactSource = "site" | "portal" | "api";

export interface ContactDeps {
  db: Database;
  business: BusinessIdentity;
  publicUrl: string;
  ratePerHour: number;
  /** Called after the commit, so the outbox sends at once. */
  wakeOutbox(): void;
  logger: Logger;
}

export interface ContactRequestMeta {
  source: ContactSource;
  ip: string | null;
  userAgent: string | null;
}

export type ContactOutcome =
  | { ok: true; email: string; id: string | null }
  | { ok: false; status: 400 | 429; error: string; field: ContactField | null; retryAfterSeconds?: number };

export const RATE_LIMITED = "Too many messages in a short time. Please try again later.";
const HOUR = 60 * 60 * 1000;

export async function submitContactMessage(
  deps: ContactDeps,
  raw: Record<string, unknown>,
  meta: ContactRequestMeta,
): Promise<ContactOutcome> {
  const { db, logger } = deps;
  // A filled honeypot is a bot: it is told all went well (so it learns nothing) and nothing is kept.
  if (isHoneypotFilled(raw[HONEYPOT_FIELD])) {
    logger.info({ ip: meta.ip, source: meta.source }, "contact: honeypot filled, message dropped");
    return { ok: true, email: typeof raw.email === "string" ? raw.email.trim() : "", id: null };
  }

  const checked = checkContact(raw);
  if (!checked.ok) return { ok: false, status: 400, error: checked.error, field: checked.field };
  const input = checked.data;

  // Per sender IP (stops floods) and per recipient address (stops using our confirmation to mail-bomb).
  for (const key of [
    `contact:ip:${rateLimitAddress(meta.ip)}`,
    `contact:email:${input.email.toLowerCase()}`,
  ]) {
    const limit = await consumeRateLimit(db, key, deps.ratePerHour, HOUR);
    if (!limit.allowed) {
      logger.warn({ key, hits: limit.hits }, "contact: rate limited");
      return {
        ok: false,
        status: 429,
        error: RATE_LIMITED,
        field: null,
        retryAfterSeconds: limit.retryAfterSeconds,
      };
    }
  }

  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contactMessages)
      .values({ ...input, source: meta.source, ipAddress: meta.ip, userAgent: meta.userAgent?.slice(0, 500) })
      .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
    const props = {
      business: deps.business,
      publicUrl: deps.publicUrl,
      message: { ...input, source: meta.source, receivedAt: row!.createdAt },
    };
    await enqueueEmail(tx, {
      kind: "contact-notification",
      to: mailbox(deps.business.email, deps.business.name),
      replyTo: { name: input.name, address: input.email },
      ...contactNotificationEmail(props),
    });
    await enqueueEmail(tx, {
      kind: "contact-confirmation",
      // No name: the confirmation repeats nothing a stranger typed, to whoever owns the address.
      to: mailbox(input.email),
      ...contactConfirmationEmail(props),
    });
    return row!.id;
  });
  deps.wakeOutbox();
  logger.info({ contactMessageId: id, source: meta.source }, "contact message stored, emails queued");
  return { ok: true, email: input.email, id };
}
