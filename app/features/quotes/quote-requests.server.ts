/**
 * Requests for custom work (issue "quotes", item 1): the home page's quote form (anyone) and the
 * portal's /client/quotes/new (a signed-in client). With the contact form's protections: a honeypot,
 * rate limits per address and per recipient, validation, and one transaction that stores the request
 * and queues the owner's notification and the requester's confirmation (nothing is sent before the
 * request is committed).
 */
import { and, count, desc, eq, ilike, or } from "drizzle-orm";
import type { Logger } from "pino";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { type QuoteRequestStatus, quoteRequests } from "~/db/schema";
import type { BusinessIdentity } from "~/features/business/business";
import { escapeLike } from "~/features/lists/escape-like";
import { enqueueEmail } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import { consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import { HONEYPOT_FIELD, isHoneypotFilled } from "~/features/security/honeypot";
import { hasNoNul, invalidCharacterMessage } from "~/features/security/text";
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
  wakeOutbox(): void;
  logger: Pick<Logger, "info" | "warn">;
}

export interface QuoteRequestMeta {
  source: "site" | "portal";
  /** The signed-in client asking, if any. */
  clientId: string | null;
  ip: string | null;
  userAgent: string | null;
}

export type QuoteRequestOutcome =
  | { ok: true; email: string; id: string | null }
  | { ok: false; status: 400 | 429; error: string; field: QuoteField | null; retryAfterSeconds?: number };

const HOUR = 60 * 60 * 1000;
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
  const parsed = quoteRequestSchema(services).safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const issue = issues.find((i) => i.message === QUOTE_MISSING_FIELDS) ?? issues[0]!;
    const field = FIELDS.find((f) => f === issue.path[0]) ?? null;
    return { ok: false, status: 400, error: issue.message, field };
  }
  const input = parsed.data;
  for (const key of [`quote:ip:${meta.ip ?? "unknown"}`, `quote:email:${input.email.toLowerCase()}`]) {
    const limit = await consumeRateLimit(db, key, deps.ratePerHour, HOUR);
    if (!limit.allowed) {
      logger.warn({ key, hits: limit.hits }, "quote request: rate limited");
      return {
        ok: false,
        status: 429,
        error: QUOTE_RATE_LIMITED,
        field: null,
        retryAfterSeconds: limit.retryAfterSeconds,
      };
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
      .returning({ id: quoteRequests.id });
    const summary = [
      `Services: ${input.services.length ? input.services.join(", ") : "something else"}`,
      ...(input.company ? [`Company: ${input.company}`] : []),
      ...(input.budget ? [`Budget: ${input.budget}`] : []),
      ...(input.deadline ? [`Deadline: ${input.deadline}`] : []),
    ];
    await enqueueEmail(tx, {
      kind: "quote-request-notification",
      to: deps.business.email,
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
    await enqueueEmail(tx, {
      kind: "quote-request-confirmation",
      to: input.email,
      ...noticeEmail({
        business: deps.business,
        publicUrl: deps.publicUrl,
        subject: "We received your quote request",
        greetingName: input.name,
        lines: ["Thank you for your quote request. We will send you a quote within 24 hours.", ...summary],
        note: input.description,
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
