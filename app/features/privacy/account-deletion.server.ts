/**
 * "Delete my account" and the owner's "Delete client" (issue 25, docs/decisions/0520-account-deletion.md):
 * one transaction that signs out every session (their live streams close), cancels the unpaid pending
 * orders the way the back office does (their invoices voided), deletes what is only the client's
 * (credentials, two-factor secrets, preferences, devices, notifications, attachments, contact messages,
 * newsletter subscription, rate-limit counters, emails to or about the address), puts placeholders in
 * the account's personal fields, redacts the old email, name and phone where text is kept (order
 * messages, briefs, audit rows, payment records), keeps the invoices, credit notes and sent quotes with
 * their frozen buyer copies (tax law: RETENTION_YEARS), queues a confirmation to the old address that
 * is erased once sent, and writes the audit row by the account's id. An order in progress (paid, in
 * progress, or with an unpaid invoice past pending) refuses the deletion and nothing changes.
 */
import { isAPIError } from "better-auth/api";
import { and, eq, inArray, isNotNull, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { Config } from "~/config.server";
import type { Database, Tx } from "~/db/client.server";
import {
  account,
  auditLog,
  clients,
  contactMessages,
  invoices,
  messageAttachments,
  newsletterSubscriptions,
  notifications,
  orderBriefs,
  orderMessages,
  orders,
  outboxEmails,
  paymentEvents,
  paymentIssues,
  quoteRequests,
  quotes,
  rateLimits,
  session,
  signInDevices,
  twoFactor,
  user,
  userPreferences,
  verification,
} from "~/db/schema";
import { ACCOUNT_MESSAGES, withinLimit } from "~/features/accounts/accounts.server";
import type { AccountDeps } from "~/features/accounts/deps.server";
import { ACCOUNT_LIMITS } from "~/features/accounts/limits";
import { MAX_PASSWORD_LENGTH } from "~/features/accounts/password";
import type { SessionUser } from "~/features/accounts/session-user";
import { parseSignInCode } from "~/features/accounts/two-factor";
import { checkCurrentCode, twoFactorStatus } from "~/features/accounts/two-factor.server";
import { type Actor, recordAudit } from "~/features/audit/audit.server";
import { unpaidInvoiceSql } from "~/features/invoices/invoice-status.server";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { enqueueEmail } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import { cancelOrder, lockOrder } from "~/features/orders/order-lifecycle.server";
import { WORK_OWED_ORDER_STATUSES } from "~/features/orders/order-status";
import type { OpenCheckout } from "~/features/payments/provider.server";
import { consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import { parseForm } from "~/ui/form";
import {
  type BlockingOrder,
  blockedMessage,
  DELETE_CONFIRMATION,
  DELETED_NAME,
  DELETION_MESSAGES,
  deletedEmail,
} from "./account-deletion";
import { type AccountDeletionDeps, afterDeletionCommitted } from "./deletion-deps.server";

// The forms' rules live here, not in ./account-deletion: the profile page imports that module for the
// word to type, and zod would come along into its JavaScript (the pages' budgets).
const confirmation = z.string().refine((v) => v.trim() === DELETE_CONFIRMATION, {
  message: DELETION_MESSAGES.confirmRequired,
});

/** The client's form: the current password, the two-factor code when it is on, and DELETE. */
export const deleteAccountSchema = z.object({
  password: z
    .string()
    .min(1, { message: DELETION_MESSAGES.passwordRequired })
    .max(MAX_PASSWORD_LENGTH, { message: DELETION_MESSAGES.passwordWrong }),
  code: z
    .string()
    .max(64, { message: DELETION_MESSAGES.codeRequired })
    .optional()
    .transform((v) => v?.replace(/\s+/g, "") ?? ""),
  confirm: confirmation,
});

/** The owner's form: DELETE and the owner's own password. */
export const ownerDeleteClientSchema = z.object({
  password: z
    .string()
    .min(1, { message: DELETION_MESSAGES.ownerPasswordRequired })
    .max(MAX_PASSWORD_LENGTH, { message: DELETION_MESSAGES.ownerPasswordWrong }),
  confirm: confirmation,
});

export interface DeletionDeps {
  db: Database;
  config: Pick<Config, "business" | "publicUrl" | "retentionYears">;
}

export type DeletionResult =
  | { ok: true; cancelledOrders: string[]; checkouts: OpenCheckout[] }
  | { ok: false; status: number; error: string; blocking?: BlockingOrder[] };

/** The names, phone and company searched for in kept text about the client (short ones would match words). */
function namesOf(found: { names: string[]; phone: string | null; company: string | null }) {
  const out = new Set<string>();
  for (const v of [...found.names, found.phone, found.company]) {
    const t = v?.trim();
    if (t && t.length >= 4) out.add(t);
  }
  return [...out];
}

const escapeRegex = (v: string) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A PostgreSQL regular expression matching the address as a whole address only: not inside a longer
 * one ("wner@example.com" in "owner@example.com", "a@example.co" in "a@example.com"), still before a
 * full stop that ends a sentence.
 */
function emailRegex(email: string): string {
  return `(?<![A-Za-z0-9._%+-])${escapeRegex(email)}(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`;
}

/** A PostgreSQL regular expression matching the address, or any of `values` literally. */
function identifiersRegex(email: string, values: string[]): string {
  return [emailRegex(email), ...values.map(escapeRegex)].join("|");
}

/** How a string is written inside JSON text (`"` as `\"`, `\` as `\\`…), as jsonb::text shows it. */
const inJson = (v: string) => JSON.stringify(v).slice(1, -1);

/**
 * A pattern for finding the identifiers in a jsonb value's text, where a name with a quote or a
 * backslash is written escaped; and one for replacing them in the value's strings, in JavaScript (the
 * same syntax: the lookarounds and escapes of `emailRegex` mean the same in both).
 */
interface JsonPatterns {
  find: string;
  replace: RegExp;
}

function jsonPatterns(email: string, values: string[]): JsonPatterns {
  return {
    find: [emailRegex(inJson(email)), ...values.map((v) => escapeRegex(inJson(v)))].join("|"),
    replace: new RegExp(identifiersRegex(email, values), "gi"),
  };
}

/** A JSON value with the identifiers replaced in every string (keys are field names: kept). */
function redactedJson(value: unknown, re: RegExp): unknown {
  if (typeof value === "string") return value.replace(re, REMOVED);
  if (Array.isArray(value)) return value.map((v) => redactedJson(v, re));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactedJson(v, re)]));
  }
  return value;
}

/**
 * Redacts jsonb columns value by value: a regular expression over a value's JSON text cannot tell a
 * quote that is part of a name from one that ends a string, and one crafted name could break the JSON
 * (and with it the deletion). Rows are found by their text, then each string inside is rewritten.
 */
async function redactJsonRows<K extends string>(
  rows: Array<{ key: K; values: unknown[] }>,
  re: RegExp,
  write: (key: K, values: unknown[]) => Promise<unknown>,
): Promise<void> {
  for (const row of rows) {
    const next = row.values.map((v) => redactedJson(v, re));
    if (JSON.stringify(next) !== JSON.stringify(row.values)) await write(row.key, next);
  }
}

const REMOVED = "[removed]";

/** A text column with every identifier replaced (case-insensitive). */
function redacted(column: AnyPgColumn | SQL, pattern: string): SQL {
  return sql`regexp_replace(${column}, ${pattern}, ${REMOVED}, 'gi')`;
}

function matches(column: AnyPgColumn, pattern: string, kind: "text" | "jsonb"): SQL {
  return kind === "text" ? sql`${column} ~* ${pattern}` : sql`${column}::text ~* ${pattern}`;
}

/** Orders that block: paid or in progress (work owed), or any with an invoice unpaid past pending. */
async function blockingOrders(tx: Tx, clientId: string): Promise<BlockingOrder[]> {
  const rows = await tx
    .selectDistinct({ id: orders.id, serviceName: orders.serviceName, status: orders.status })
    .from(orders)
    .leftJoin(invoices, and(eq(invoices.orderId, orders.id), unpaidInvoiceSql))
    .where(
      and(
        eq(orders.clientId, clientId),
        or(
          inArray(orders.status, [...WORK_OWED_ORDER_STATUSES]),
          and(ne(orders.status, "pending"), ne(orders.status, "cancelled"), isNotNull(invoices.id)),
        ),
      ),
    )
    .orderBy(orders.id);
  return rows;
}

/**
 * Deletes a client's account in one transaction (see the module's comment). `actor`: the client
 * (recorded by the account's id only) or the owner. Refuses an admin's account, a deleted one and one
 * with an order in progress; answers the cancelled orders' ids.
 */
export async function deleteClientAccount(
  deps: DeletionDeps,
  clientId: string,
  actor: Actor,
  requestedBy: "client" | "owner",
): Promise<DeletionResult> {
  return deps.db.transaction(async (tx): Promise<DeletionResult> => {
    const [u] = await tx.select().from(user).where(eq(user.id, clientId)).for("update").limit(1);
    if (!u) return { ok: false, status: 404, error: DELETION_MESSAGES.notFound };
    if (u.role === "admin") return { ok: false, status: 403, error: DELETION_MESSAGES.admin };
    const [client] = await tx.select().from(clients).where(eq(clients.id, clientId)).for("update").limit(1);
    if (client?.deletedAt) return { ok: false, status: 409, error: DELETION_MESSAGES.alreadyDeleted };

    // Orders of the client, locked, so no payment or status change slips in between.
    const own = await tx
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(eq(orders.clientId, clientId))
      .for("update");
    const blocking = await blockingOrders(tx, clientId);
    if (blocking.length > 0) {
      return { ok: false, status: 409, error: blockedMessage(blocking, requestedBy), blocking };
    }

    const oldEmail = u.email;
    const placeholder = deletedEmail(clientId);
    // Text not tied to the client (other rows of the audit log, emails) is searched for the verified
    // address only: a name or company is whatever the client typed (the owner's email, "status"), and
    // must never let a deletion rewrite the owner's audit rows or other people's emails.
    const emailPattern = emailRegex(oldEmail);
    const names = namesOf({
      names: [u.name, client?.name ?? ""],
      phone: client?.phone ?? null,
      company: client?.company ?? null,
    });
    const pattern = identifiersRegex(oldEmail, names);
    const jsonAll = jsonPatterns(oldEmail, names);
    const jsonEmail = jsonPatterns(oldEmail, []);
    const emailLower = oldEmail.toLowerCase();
    // The client's own steps are recorded by the account's id, never the old address.
    const who: Actor = requestedBy === "client" ? { id: clientId, email: placeholder } : actor;

    // 1. Unpaid pending orders are cancelled as the back office cancels them (invoices voided). A late
    //    payment of one arrives as a payment for a cancelled order: "Needs attention" (webhooks.server).
    const cancelled: string[] = [];
    const checkouts: OpenCheckout[] = [];
    for (const o of own.filter((x) => x.status === "pending")) {
      const locked = await lockOrder(tx, o.id);
      if (!locked) continue;
      await cancelOrder(tx, who, locked);
      await recordAudit(tx, who, {
        action: "order.status",
        entity: "order",
        entityId: o.id,
        before: { status: "pending" },
        after: { status: "cancelled", via: "account deleted" },
      });
      cancelled.push(o.id);
      const { provider, providerReference } = locked.order;
      checkouts.push({ orderId: o.id, provider, reference: providerReference });
    }

    // 2. Every session ends; each one's live stream closes on its event (and finds no session after).
    const sessions = await tx.select({ id: session.id }).from(session).where(eq(session.userId, clientId));
    for (const s of sessions) {
      await publishLiveEvent(tx, {
        userId: clientId,
        kind: "session",
        entityId: s.id,
        status: "signed-out",
      });
    }
    await tx.delete(session).where(eq(session.userId, clientId));

    // 3. What is only the client's: sign-in (so it can never sign in again), secrets, preferences.
    await tx.delete(account).where(eq(account.userId, clientId));
    await tx.delete(twoFactor).where(eq(twoFactor.userId, clientId));
    await tx
      .delete(verification)
      .where(
        or(
          eq(verification.value, clientId),
          sql`strpos(lower(${verification.identifier}), ${emailLower}) > 0`,
          sql`strpos(lower(${verification.value}), ${emailLower}) > 0`,
        ),
      );
    await tx.delete(userPreferences).where(eq(userPreferences.userId, clientId));
    await tx.delete(signInDevices).where(eq(signInDevices.userId, clientId));
    await tx.delete(notifications).where(eq(notifications.userId, clientId));
    await tx
      .delete(rateLimits)
      .where(
        or(
          sql`strpos(lower(${rateLimits.key}), ${emailLower}) > 0`,
          sql`strpos(${rateLimits.key}, ${clientId}) > 0`,
        ),
      );

    // 4. Orders' conversations: the files go; the bodies and briefs stay with the order (the work's
    //    record) with the client's email, name and phone redacted.
    const clientOrders = tx.select({ id: orders.id }).from(orders).where(eq(orders.clientId, clientId));
    const messageIds = tx
      .select({ id: orderMessages.id })
      .from(orderMessages)
      .where(inArray(orderMessages.orderId, clientOrders));
    await tx.delete(messageAttachments).where(inArray(messageAttachments.messageId, messageIds));
    await tx
      .update(orderMessages)
      .set({ body: sql`left(${redacted(orderMessages.body, pattern)}, 10000)` })
      .where(and(inArray(orderMessages.orderId, clientOrders), matches(orderMessages.body, pattern, "text")));
    const briefs = await tx
      .select({ key: orderBriefs.orderId, answers: orderBriefs.answers })
      .from(orderBriefs)
      .where(
        and(inArray(orderBriefs.orderId, clientOrders), matches(orderBriefs.answers, jsonAll.find, "jsonb")),
      );
    await redactJsonRows(
      briefs.map((b) => ({ key: b.key, values: [b.answers] })),
      jsonAll.replace,
      (orderId, [answers]) =>
        tx
          .update(orderBriefs)
          .set({ answers: answers as typeof orderBriefs.$inferSelect.answers })
          .where(eq(orderBriefs.orderId, orderId)),
    );

    // 5. Sent from the address: contact messages and the newsletter subscription go.
    await tx.delete(contactMessages).where(sql`lower(${contactMessages.email}) = ${emailLower}`);
    await tx.delete(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, emailLower));

    // 6. Quote requests keep their place (a quote may answer one) without who asked nor what they wrote.
    const theirs = (clientCol: AnyPgColumn, emailCol: AnyPgColumn) =>
      or(eq(clientCol, clientId), sql`lower(${emailCol}) = ${emailLower}`);
    await tx
      .update(quoteRequests)
      .set({
        name: DELETED_NAME,
        email: placeholder,
        company: null,
        description: "(removed: the account was deleted)",
        budget: null,
        ipAddress: null,
        userAgent: null,
        status: sql`case when ${quoteRequests.status} = 'new' then 'closed' else ${quoteRequests.status} end`,
      })
      .where(theirs(quoteRequests.clientId, quoteRequests.email));
    //    Quotes: drafts (never sent) go; a sent quote is a document kept as sent (its trigger freezes the
    //    recipient), an open one expires; a decline's reason goes.
    await tx.delete(quotes).where(and(theirs(quotes.clientId, quotes.email), isNull(quotes.quoteNumber)));
    //    A quote sent to the address before it had an account (no client id, found by its email) is
    //    linked to this account now (the trigger allows setting a missing client): the address's next
    //    account starts empty, as the confirmation promises, and the owner's books keep the quote under
    //    the deleted client (issue 35, item 6).
    await tx
      .update(quotes)
      .set({ clientId })
      .where(and(isNull(quotes.clientId), sql`lower(${quotes.email}) = ${emailLower}`));
    await tx
      .update(quotes)
      .set({ status: "expired", expiredAt: new Date() })
      .where(and(theirs(quotes.clientId, quotes.email), eq(quotes.status, "sent")));
    await tx
      .update(quotes)
      .set({ declineReason: null })
      .where(and(theirs(quotes.clientId, quotes.email), isNotNull(quotes.declineReason)));

    // 7. Emails to or about the address go (sent ones are history; queued ones have no one to reach).
    await tx
      .delete(outboxEmails)
      .where(
        or(
          sql`lower(${outboxEmails.toAddress}) = ${emailLower}`,
          matches(outboxEmails.replyTo, emailPattern, "text"),
          and(
            inArray(outboxEmails.status, ["sent", "captured", "failed"]),
            or(
              matches(outboxEmails.subject, emailPattern, "text"),
              matches(outboxEmails.html, emailPattern, "text"),
              matches(outboxEmails.text, emailPattern, "text"),
            ),
          ),
        ),
      );

    // 8. Kept records name the account by its id only: the audit log, payment records.
    //    The actor's address only where it is the client's (never by a pattern: the owner's rows keep theirs).
    await tx
      .update(auditLog)
      .set({ actorEmail: placeholder })
      .where(or(eq(auditLog.actorId, clientId), sql`lower(${auditLog.actorEmail}) = ${emailLower}`));
    //    Rows by or about the client (the account, its orders, invoices, credit notes, quotes, requests)
    //    lose every identifier; any other row only the address.
    const aboutClient = or(
      eq(auditLog.actorId, clientId),
      eq(auditLog.entityId, clientId),
      sql`${auditLog.entityId} in (
        select id::text from orders where client_id = ${clientId}
        union all select id::text from invoices where client_id = ${clientId}
        union all select id::text from credit_notes where client_id = ${clientId}
        union all select id::text from quotes where client_id = ${clientId}
        union all select id::text from quote_requests where client_id = ${clientId})`,
    );
    const auditMatches = (p: string) =>
      or(matches(auditLog.before, p, "jsonb"), matches(auditLog.after, p, "jsonb"));
    const redactAudit = async (where: SQL | undefined, re: RegExp) => {
      const rows = await tx
        .select({ key: auditLog.id, before: auditLog.before, after: auditLog.after })
        .from(auditLog)
        .where(where);
      await redactJsonRows(
        rows.map((r) => ({ key: r.key, values: [r.before, r.after] })),
        re,
        (id, [before, after]) =>
          tx
            .update(auditLog)
            .set({ before: before as Record<string, unknown>, after: after as Record<string, unknown> })
            .where(eq(auditLog.id, id)),
      );
    };
    await redactAudit(and(aboutClient, auditMatches(jsonAll.find)), jsonAll.replace);
    await redactAudit(auditMatches(jsonEmail.find), jsonEmail.replace);
    const allOrders = tx.select({ id: orders.id }).from(orders).where(eq(orders.clientId, clientId));
    const events = await tx
      .select({ key: paymentEvents.id, payload: paymentEvents.payload })
      .from(paymentEvents)
      .where(
        and(inArray(paymentEvents.orderId, allOrders), matches(paymentEvents.payload, jsonAll.find, "jsonb")),
      );
    await redactJsonRows(
      events.map((e) => ({ key: e.key, values: [e.payload] })),
      jsonAll.replace,
      (id, [payload]) =>
        tx
          .update(paymentEvents)
          .set({ payload: payload as object })
          .where(eq(paymentEvents.id, id)),
    );
    await tx
      .update(paymentIssues)
      .set({ detail: redacted(paymentIssues.detail, pattern) })
      .where(and(inArray(paymentIssues.orderId, allOrders), matches(paymentIssues.detail, pattern, "text")));

    // 9. The account keeps its id (orders and invoices point at it) and placeholders.
    await tx
      .update(user)
      .set({
        name: DELETED_NAME,
        email: placeholder,
        emailVerified: false,
        image: null,
        twoFactorEnabled: false,
      })
      .where(eq(user.id, clientId));
    const now = new Date();
    if (client) {
      await tx
        .update(clients)
        .set({
          name: DELETED_NAME,
          email: placeholder,
          phone: null,
          company: null,
          address: null,
          country: null,
          taxId: null,
          // The profile's choices are preferences too (ADR 0521): nothing chosen is kept.
          timeZone: null,
          language: null,
          emailVerified: false,
          emailVerifiedAt: null,
          deletedAt: now,
        })
        .where(eq(clients.id, clientId));
    } else {
      await tx
        .insert(clients)
        .values({ id: clientId, name: DELETED_NAME, email: placeholder, deletedAt: now });
    }

    // 10. The confirmation to the old address, forgotten once sent (or failed for good).
    const years = deps.config.retentionYears;
    await enqueueEmail(tx, {
      kind: "account-deleted",
      to: oldEmail,
      eraseWhenSent: true,
      ...noticeEmail({
        business: deps.config.business,
        publicUrl: deps.config.publicUrl,
        subject: `Your ${deps.config.business.name} account has been deleted`,
        greetingName: client?.name ?? u.name,
        lines: [
          requestedBy === "client"
            ? "As you asked, your account has been deleted and you have been signed out everywhere."
            : "As you asked, we have deleted your account and signed you out everywhere.",
          `Your profile, preferences, notifications, files and messages sent through the contact form are gone. The invoices, credit notes and quotes we issued to you are kept, as issued, for ${years} years, as tax law requires; nothing else about you is kept.`,
          ...(cancelled.length > 0
            ? [
                `${cancelled.length === 1 ? "One unpaid order was" : `${cancelled.length} unpaid orders were`} cancelled.`,
              ]
            : []),
          "You can register again with this address at any time: it will be a new, empty account.",
          "This is the last email we send to this address, and we do not keep it after sending.",
        ],
        note: null,
        link: null,
      }),
    });

    await recordAudit(tx, who, {
      action: "client.delete",
      entity: "client",
      entityId: clientId,
      after: { requestedBy, cancelledOrders: cancelled, sessionsEnded: sessions.length },
    });
    return { ok: true, cancelledOrders: cancelled, checkouts };
  });
}

// --- Who asks: the client from the Privacy tab, the owner from the client's page --------------------------

/** What the forms show after a refused deletion: the alert, and each field's message. */
export interface DeletionRefusal {
  ok: false;
  status: number;
  error: string;
  fieldErrors: Record<string, string>;
}

const refused = (
  status: number,
  error: string,
  fieldErrors: Record<string, string> = {},
): DeletionRefusal => ({
  ok: false,
  status,
  error,
  fieldErrors,
});

function authErrorCode(error: unknown): string | undefined {
  return isAPIError(error) ? (error.body as { code?: string } | undefined)?.code : undefined;
}

/** Whether `password` is the signed-in user's (the request's session) own. */
async function passwordMatches(deps: AccountDeps, request: Request, password: string): Promise<boolean> {
  try {
    await deps.auth.api.verifyPassword({ body: { password }, headers: request.headers });
    return true;
  } catch (error) {
    const code = authErrorCode(error);
    if (code === "INVALID_PASSWORD" || code === "CREDENTIAL_ACCOUNT_NOT_FOUND") return false;
    throw error;
  }
}

/**
 * "Delete my account": the current password, the two-factor code when it is on, and DELETE typed; rate
 * limited like the other password checks. Nothing changes unless all are right and no order is in
 * progress.
 */
export async function deleteOwnAccount(
  deps: AccountDeletionDeps,
  request: Request,
  me: SessionUser,
  values: Record<string, string>,
): Promise<{ ok: true; checkouts: OpenCheckout[] } | DeletionRefusal> {
  if (me.role === "admin") return refused(403, DELETION_MESSAGES.admin);
  const parsed = parseForm(deleteAccountSchema, values);
  if (!parsed.ok) return refused(400, parsed.error, parsed.fieldErrors as Record<string, string>);
  if (!(await withinLimit(deps, "deleteAccount", me.id)))
    return refused(429, ACCOUNT_MESSAGES.tooManyAttempts);
  if (!(await passwordMatches(deps, request, parsed.data.password))) {
    return refused(400, DELETION_MESSAGES.passwordWrong, { password: DELETION_MESSAGES.passwordWrong });
  }
  const { status } = await twoFactorStatus(deps, me);
  if (status === "on") {
    const code = parseSignInCode(parsed.data.code);
    if (!code) return refused(400, DELETION_MESSAGES.codeRequired, { code: DELETION_MESSAGES.codeRequired });
    // Wrong codes are limited per account too, whatever the address (a stolen cookie and password
    // behind many addresses), counted before the check so a parallel burst is limited as well.
    const { max, windowMs } = ACCOUNT_LIMITS.deleteAccount;
    if (!(await consumeRateLimit(deps.db, `account:deleteAccountCode:${me.id}`, max, windowMs)).allowed)
      return refused(429, ACCOUNT_MESSAGES.tooManyAttempts);
    if (!(await checkCurrentCode(deps, request, me.id, code))) {
      return refused(400, DELETION_MESSAGES.codeWrong, { code: DELETION_MESSAGES.codeWrong });
    }
  }
  const result = await deleteClientAccount(deps, me.id, { id: me.id, email: me.email }, "client");
  if (!result.ok) return refused(result.status, result.error);
  afterDeletionCommitted(deps, result.checkouts);
  return { ok: true, checkouts: result.checkouts };
}

/**
 * The owner's "Delete client", for a request by email: DELETE typed and the owner's own password (the
 * re-authentication the two-factor settings use too); the audit row records the owner.
 */
export async function deleteClientByOwner(
  deps: AccountDeletionDeps,
  request: Request,
  admin: SessionUser,
  clientId: string,
  values: Record<string, string>,
): Promise<{ ok: true; cancelledOrders: string[]; checkouts: OpenCheckout[] } | DeletionRefusal> {
  const parsed = parseForm(ownerDeleteClientSchema, values);
  if (!parsed.ok) return refused(400, parsed.error, parsed.fieldErrors as Record<string, string>);
  if (!(await withinLimit(deps, "deleteAccount", admin.id)))
    return refused(429, ACCOUNT_MESSAGES.tooManyAttempts);
  if (!(await passwordMatches(deps, request, parsed.data.password))) {
    return refused(400, DELETION_MESSAGES.ownerPasswordWrong, {
      password: DELETION_MESSAGES.ownerPasswordWrong,
    });
  }
  const result = await deleteClientAccount(deps, clientId, { id: admin.id, email: admin.email }, "owner");
  if (!result.ok) return refused(result.status, result.error);
  afterDeletionCommitted(deps, result.checkouts);
  return result;
}

/**
 * The Set-Cookie headers that end the browser's sign-in after its account was deleted (the sessions are
 * gone already; better-auth's own sign-out needs one).
 */
export async function signedOutCookies(deps: Pick<AccountDeps, "auth">): Promise<Headers> {
  const ctx = await deps.auth.$context;
  const headers = new Headers();
  for (const cookie of Object.values(ctx.authCookies)) {
    const { name, attributes } = cookie;
    const parts = [`${name}=`, "Max-Age=0", `Path=${attributes.path ?? "/"}`, "HttpOnly", "SameSite=Lax"];
    if (attributes.secure) parts.push("Secure");
    headers.append("Set-Cookie", parts.join("; "));
  }
  return headers;
}
