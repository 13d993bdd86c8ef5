/**
 * Requests for custom work (issue "quotes", item 1): the home page's quote form (anyone) and the
 * portal's /client/quotes/new (a signed-in client). With the contact form's protections: a honeypot,
 * rate limits per address (an IPv6 /64 counting as one address) and per recipient and an hourly cap for
 * the whole site, validation, and one transaction that stores the request and queues the owner's
 * notification and the requester's confirmation (nothing is sent before the request is committed).
 *
 * The form cannot be used to send someone else mail of the sender's choosing (issue 35, item 5): the
 * confirmation repeats nothing that was typed (not the name, not the description), and a signed-in
 * client's request always uses the account's own email, whatever the post says.
 */
import { and, count, desc, eq, ilike, or } from "drizzle-orm";
import type { Logger } from "pino";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { type QuoteRequestStatus, quoteRequests } from "~/db/schema";
import type { BusinessIdentity } from "~/features/business/business";
import { escapeLike } from "~/features/lists/escape-like";
import { enqueueEmail, mailbox } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import { NOTIFICATIONS } from "~/features/notifications/messages";
import { notifyOwners } from "~/features/orders/order-access.server";
import { rateLimitAddress } from "~/features/rate-limit/address";
import { consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import { HONEYPOT_FIELD, isHoneypotFilled } from "~/features/security/honeypot";
import { hasNoNul, invalidCharacterMessage } from "~/features/security/text";
import { BUSINESS_TIME_ZONE, formatMoment } from "~/ui/format";
import { adminQuoteFromRequestPath } from "./quote-deps.server";
import { QUOTE_LIMITS, QUOTE_RATE_LIMITED, type QuoteField } from "./quote-request-result";

export const QUOTE_MISSING_FIELDS = "Please fill in your name, email and a description of the work.";
export const QUOTE_INVALID_EMAIL = "Please enter a valid email address.";

const text = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `${label} must be at most ${max} characters.` })
    .refine(hasNoNul, { message: invalidCharacterMessage(label, true) });
const required = (label: string, max: number) =>
  text(label, max).refine((v) => v !== "", { message: QUOTE_MISSING_FIELDS });
const optional = (label: string, max: number) =>
  text(label, max)
    .optional()
    .transform((v) => v || null);

function isRealDate(value: string): boolean {
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** The services a request may name: the catalogue's, by name (`known`). */
export function quoteRequestSchema(known: readonly string[]) {
  return z.object({
    name: required("Name", QUOTE_LIMITS.name),
    email: required("Email", QUOTE_LIMITS.email).pipe(z.email({ message: QUOTE_INVALID_EMAIL })),
    company: optional("Company", QUOTE_LIMITS.company),
    services: z
      .array(z.string())
      .max(QUOTE_LIMITS.services, { message: "Choose fewer services." })
      .default([])
      .refine((list) => list.every((s) => known.includes(s)), { message: "Choose services from the list." })
      .transform((list) => known.filter((s) => list.includes(s))),
    description: required("Description", QUOTE_LIMITS.description),
    budget: optional("Budget", QUOTE_LIMITS.budget),
    deadline: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || null)
      .refine((v) => v === null || (/^\d{4}-\d{2}-\d{2}$/.test(v) && isRealDate(v)), {
        message: "Enter the deadline as a date (YYYY-MM-DD).",
      }),
  });
}

export type QuoteRequestInput = z.infer<ReturnType<typeof quoteRequestSchema>>;

export interface QuoteRequestDeps {
  db: Database;
  business: BusinessIdentity;
  publicUrl: string;
  ratePerHour: number;
  /** Requests accepted per hour from everyone together. */
  sitePerHour: number;
  wakeOutbox(): void;
  logger: Pick<Logger, "info" | "warn">;
}

export interface QuoteRequestMeta {
  source: "site" | "portal";
  /** The signed-in client asking, if any. */
  clientId: string | null;
  /** The signed-in client's account email: the request's email, whatever the post says. */
  accountEmail: string | null;
  ip: string | null;
  userAgent: string | null;
}

export type QuoteRequestOutcome =
  | { ok: true; email: string; id: string | null }
  | { ok: false; status: 400 | 429; error: string; field: QuoteField | null; retryAfterSeconds?: number };

const HOUR = 60 * 60 * 1000;

/** The 429 once the whole site's hourly cap is reached (issue 35, item 5). */
export function quoteSiteBusy(businessEmail: string): string {
  return `We are receiving an unusual number of quote requests. Please try again in an hour, or write to us at ${businessEmail}.`;
}
const FIELDS: QuoteField[] = ["name", "email", "company", "services", "description", "budget", "deadline"];

export async function submitQuoteRequest(
  deps: QuoteRequestDeps,
  raw: Record<string, unknown>,
  services: readonly string[],
  meta: QuoteRequestMeta,
): Promise<QuoteRequestOutcome> {
  const { db, logger } = deps;
  if (isHoneypotFilled(raw[HONEYPOT_FIELD])) {
    logger.info({ ip: meta.ip }, "quote request: honeypot filled, dropped");
    return { ok: true, email: typeof raw.email === "string" ? raw.email.trim() : "", id: null };
  }
  // A signed-in client asks from their account's address: the form shows it read-only, and a post
  // naming another is not believed.
  const posted = meta.accountEmail === null ? raw : { ...raw, email: meta.accountEmail };
  const parsed = quoteRequestSchema(services).safeParse(posted);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const issue = issues.find((i) => i.message === QUOTE_MISSING_FIELDS) ?? issues[0]!;
    const field = FIELDS.find((f) => f === issue.path[0]) ?? null;
    return { ok: false, status: 400, error: issue.message, field };
  }
  const input = parsed.data;
  // Per address, per recipient, then the whole site (counted last, so one flooding address that is
  // already refused does not use up everyone's hour).
  const limits = [
    { key: `quote:ip:${rateLimitAddress(meta.ip)}`, max: deps.ratePerHour, error: QUOTE_RATE_LIMITED },
    { key: `quote:email:${input.email.toLowerCase()}`, max: deps.ratePerHour, error: QUOTE_RATE_LIMITED },
    { key: "quote:site", max: deps.sitePerHour, error: quoteSiteBusy(deps.business.email) },
  ];
  for (const { key, max, error } of limits) {
    const limit = await consumeRateLimit(db, key, max, HOUR);
    if (!limit.allowed) {
      logger.warn({ key, hits: limit.hits }, "quote request: rate limited");
      return { ok: false, status: 429, error, field: null, retryAfterSeconds: limit.retryAfterSeconds };
    }
  }
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(quoteRequests)
      .values({
        ...input,
        clientId: meta.clientId,
        source: meta.source,
        ipAddress: meta.ip,
        userAgent: meta.userAgent?.slice(0, 500) ?? null,
      })
      .returning({ id: quoteRequests.id, createdAt: quoteRequests.createdAt });
    const services = input.services.length ? input.services.join(", ") : "something else";
    // The owner's bell, leading to the page that writes a quote from this request (ADR 0515).
    await notifyOwners(tx, {
      ...NOTIFICATIONS.newQuoteRequest(
        input.name,
        services,
        formatMoment(row!.createdAt, BUSINESS_TIME_ZONE),
      ),
      href: adminQuoteFromRequestPath(row!.id),
    });
    const summary = [
      `Services: ${services}`,
      ...(input.company ? [`Company: ${input.company}`] : []),
      ...(input.budget ? [`Budget: ${input.budget}`] : []),
      ...(input.deadline ? [`Deadline: ${input.deadline}`] : []),
    ];
    await enqueueEmail(tx, {
      kind: "quote-request-notification",
      to: mailbox(deps.business.email, deps.business.name),
      replyTo: { name: input.name, address: input.email },
      ...noticeEmail({
        business: deps.business,
        publicUrl: deps.publicUrl,
        subject: `Quote request from ${input.name}`,
        greetingName: deps.business.name,
        lines: [
          `${input.name} <${input.email}> asks for a quote${meta.clientId ? " (a client)" : ""}.`,
          ...summary,
        ],
        note: input.description,
        link: { path: "/admin/quotes", label: "Open the quote requests" },
      }),
    });
    // Whoever typed this address may not be its owner: the confirmation repeats nothing typed (no
    // name, no description, no company), so it cannot carry someone's text to a victim's inbox.
    await enqueueEmail(tx, {
      kind: "quote-request-confirmation",
      // No name: the one typed with the request is not repeated to the address (see above).
      to: mailbox(input.email),
      ...noticeEmail({
        business: deps.business,
        publicUrl: deps.publicUrl,
        subject: "We received your quote request",
        greetingName: "there",
        lines: [
          "Thank you for your quote request. We will send you a quote within 24 hours.",
          "If you did not ask for a quote, you can ignore this email.",
        ],
        link: meta.clientId
          ? { path: "/client/quotes", label: "See your quote requests" }
          : { path: "/client/register", label: "Create your client account" },
      }),
    });
    return row!.id;
  });
  deps.wakeOutbox();
  logger.info({ quoteRequestId: id, source: meta.source }, "quote request stored, emails queued");
  return { ok: true, email: input.email, id };
}

export interface QuoteRequestRow {
  id: string;
  name: string;
  email: string;
  company: string | null;
  services: string[];
  description: string;
  budget: string | null;
  deadline: string | null;
  status: QuoteRequestStatus;
  source: "site" | "portal";
  clientId: string | null;
  createdAt: Date;
}

const rowColumns = {
  id: quoteRequests.id,
  name: quoteRequests.name,
  email: quoteRequests.email,
  company: quoteRequests.company,
  services: quoteRequests.services,
  description: quoteRequests.description,
  budget: quoteRequests.budget,
  deadline: quoteRequests.deadline,
  status: quoteRequests.status,
  source: quoteRequests.source,
  clientId: quoteRequests.clientId,
  createdAt: quoteRequests.createdAt,
};

/** A client's own requests, newest first (at most 100). */
export async function listClientQuoteRequests(db: Database, clientId: string): Promise<QuoteRequestRow[]> {
  return db
    .select(rowColumns)
    .from(quoteRequests)
    .where(eq(quoteRequests.clientId, clientId))
    .orderBy(desc(quoteRequests.createdAt), desc(quoteRequests.id))
    .limit(100);
}

/** A request to write a quote from, or null. */
export async function getQuoteRequest(db: Database, id: string) {
  const [row] = await db.select().from(quoteRequests).where(eq(quoteRequests.id, id)).limit(1);
  return row ?? null;
}

/** The back office's list: newest first, one page, with how many are new. */
export async function listQuoteRequests(
  db: Database,
  options: { q?: string; status?: QuoteRequestStatus; limit: number; offset: number },
): Promise<{ rows: QuoteRequestRow[]; total: number; newCount: number }> {
  const like = `%${escapeLike(options.q ?? "")}%`;
  const where = and(
    options.status ? eq(quoteRequests.status, options.status) : undefined,
    options.q
      ? or(
          ilike(quoteRequests.name, like),
          ilike(quoteRequests.email, like),
          ilike(quoteRequests.company, like),
          ilike(quoteRequests.description, like),
        )
      : undefined,
  );
  const [rows, [total], [fresh]] = await Promise.all([
    db
      .select(rowColumns)
      .from(quoteRequests)
      .where(where)
      .orderBy(desc(quoteRequests.createdAt), desc(quoteRequests.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ n: count() }).from(quoteRequests).where(where),
    db
      .select({ n: count() })
      .from(quoteRequests)
      .where(and(eq(quoteRequests.status, "new"))),
  ]);
  return { rows, total: total?.n ?? 0, newCount: fresh?.n ?? 0 };
}
