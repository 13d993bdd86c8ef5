/**
 * "Download my data" (issue 25, export): one zip of everything Portico keeps about a client: a README,
 * JSON files (profile, preferences, orders, invoices, credit notes and quotes where there are any,
 * messages with their attachments' names, notifications, sign-in sessions, consents) and every invoice
 * as a PDF. Streamed: each JSON file is written 500 rows at a time (keyset paging on the client's
 * indexes) and each PDF as it is rendered, so a client with thousands of orders never sits in memory.
 * Every query is scoped by the client's id (or the client's user id: the same value).
 */
import { and, asc, eq, getTableColumns, inArray, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import {
  clients,
  contactMessages,
  creditNotes,
  invoices,
  messageAttachments,
  newsletterSubscriptions,
  notifications,
  orderBriefs,
  orderMessages,
  orders,
  quoteRequests,
  quotes,
  session,
  signInDevices,
  user,
  userPreferences,
} from "~/db/schema";
import { type Actor, recordAudit } from "~/features/audit/audit.server";
import type { BusinessIdentity } from "~/features/business/business";
import { domainsForExport } from "~/features/domain-checks/domain-privacy.server";
import { addInvoicePdfs, type InvoicePdfRenderer } from "~/features/invoices/download-all.server";
import { plansForExport } from "~/features/plans/plan-privacy.server";
import { consumeRateLimit, rateLimitHits } from "~/features/rate-limit/rate-limit.server";
import { DELETION_MESSAGES } from "./account-deletion";
import {
  DATA_EXPORT_LIMIT_MESSAGE,
  DATA_EXPORT_WINDOW_MS,
  DATA_EXPORTS_PER_DAY,
  dataExportFileName,
  dataExportLimitKey,
  dataExportReadme,
} from "./data-export";
import { addExportDocuments } from "./data-export-documents.server";

/** Rows per query of a JSON file. */
export const EXPORT_BATCH = 500;

/** The most of the zip waiting for a slow reader before writing pauses. */
export const EXPORT_BUFFER_BYTES = 1024 * 1024;

/** Where a page of rows ended: the last row's creation time (full precision, as text) and id. */
type Cursor = { at: string; id: string } | null;

/** Rows after `after` in (created_at, id) order. The time is compared as PostgreSQL wrote it (µs). */
function after(createdAt: AnyPgColumn, id: AnyPgColumn, cursor: Cursor): SQL | undefined {
  if (!cursor) return undefined;
  return sql`(${createdAt} > ${cursor.at}::timestamptz or (${createdAt} = ${cursor.at}::timestamptz and ${id} > ${cursor.id}))`;
}

/** The cursor columns every paged query selects. */
const cursorOf = (createdAt: AnyPgColumn, id: AnyPgColumn) => ({
  cursorAt: sql<string>`${createdAt}::text`,
  cursorId: sql<string>`${id}::text`,
});

type Paged = { cursorAt: string; cursorId: string };
type PageReader<T extends Paged> = (cursor: Cursor) => Promise<T[]>;

/** The account: the sign-in identity and the client record (null when either is gone). */
export async function exportProfile(db: Database, clientId: string) {
  const [row] = await db
    .select({
      account: {
        id: user.id,
        name: user.name,
        email: user.email,
        emailVerified: user.emailVerified,
        role: user.role,
        twoFactorEnabled: user.twoFactorEnabled,
        createdAt: user.createdAt,
        updatedAt: user.updatedAt,
      },
      client: clients,
    })
    .from(user)
    .leftJoin(clients, eq(clients.id, user.id))
    // Only a client's account: never an admin's, nor one that is gone.
    .where(and(eq(user.id, clientId), eq(user.role, "client")))
    .limit(1);
  return row ?? null;
}

async function exportPreferences(db: Database, clientId: string) {
  const [row] = await db
    .select({
      preferredCurrency: userPreferences.preferredCurrency,
      autoDetectCurrency: userPreferences.autoDetectCurrency,
      countryCode: userPreferences.countryCode,
      emailNotifications: userPreferences.emailNotifications,
      smsNotifications: userPreferences.smsNotifications,
      orderUpdates: userPreferences.orderUpdates,
      marketingEmails: userPreferences.marketingEmails,
      securityAlerts: userPreferences.securityAlerts,
      updatedAt: userPreferences.updatedAt,
    })
    .from(userPreferences)
    .where(eq(userPreferences.userId, clientId))
    .limit(1);
  return { saved: row ?? null, signInDevices: await exportDevices(db, clientId) };
}

function exportDevices(db: Database, clientId: string) {
  return db
    .select({
      userAgent: signInDevices.userAgent,
      ipFamily: signInDevices.ipFamily,
      lastSeenAt: signInDevices.lastSeenAt,
    })
    .from(signInDevices)
    .where(eq(signInDevices.userId, clientId))
    .orderBy(asc(signInDevices.lastSeenAt));
}

async function exportConsents(db: Database, clientId: string, email: string) {
  const [newsletter] = await db
    .select({ subscribedAt: newsletterSubscriptions.createdAt, source: newsletterSubscriptions.source })
    .from(newsletterSubscriptions)
    .where(eq(newsletterSubscriptions.email, email.toLowerCase()))
    .limit(1);
  const [prefs] = await db
    .select({ marketingEmails: userPreferences.marketingEmails })
    .from(userPreferences)
    .where(eq(userPreferences.userId, clientId))
    .limit(1);
  const acceptedQuotes = await db
    .select({
      quoteNumber: quotes.quoteNumber,
      acceptedAt: quotes.acceptedAt,
      acceptedName: quotes.acceptedName,
      acceptedForCompany: quotes.acceptedForCompany,
      acceptedIp: quotes.acceptedIp,
      acceptedUserAgent: quotes.acceptedUserAgent,
      terms: quotes.terms,
    })
    .from(quotes)
    .where(and(eq(quotes.clientId, clientId), sql`${quotes.acceptedAt} is not null`))
    .orderBy(asc(quotes.acceptedAt), asc(quotes.id));
  return {
    newsletter: newsletter
      ? { subscribed: true, email: email.toLowerCase(), ...newsletter }
      : { subscribed: false },
    marketingEmails: prefs?.marketingEmails ?? false,
    acceptedQuotes,
  };
}

/** The JSON files written page by page, in the zip's order. `optional`: left out when empty. */
function pagedFiles(
  db: Database,
  clientId: string,
  email: string,
): Array<{
  name: string;
  optional: boolean;
  read: PageReader<Paged & Record<string, unknown>>;
}> {
  const { checkoutToken: _token, checkoutCheckedAt: _checked, ...orderColumns } = getTableColumns(orders);
  return [
    {
      name: "orders.json",
      optional: false,
      read: (c) =>
        db
          .select({
            ...orderColumns,
            brief: { questions: orderBriefs.questions, answers: orderBriefs.answers },
            briefAnsweredAt: orderBriefs.answeredAt,
            ...cursorOf(orders.createdAt, orders.id),
          })
          .from(orders)
          .leftJoin(orderBriefs, eq(orderBriefs.orderId, orders.id))
          .where(and(eq(orders.clientId, clientId), after(orders.createdAt, orders.id, c)))
          .orderBy(asc(orders.createdAt), asc(orders.id))
          .limit(EXPORT_BATCH),
    },
    {
      name: "invoices.json",
      optional: false,
      read: (c) =>
        db
          .select({ ...getTableColumns(invoices), ...cursorOf(invoices.createdAt, invoices.id) })
          .from(invoices)
          .where(and(eq(invoices.clientId, clientId), after(invoices.createdAt, invoices.id, c)))
          .orderBy(asc(invoices.createdAt), asc(invoices.id))
          .limit(EXPORT_BATCH),
    },
    {
      name: "credit-notes.json",
      optional: true,
      read: (c) =>
        db
          .select({ ...getTableColumns(creditNotes), ...cursorOf(creditNotes.createdAt, creditNotes.id) })
          .from(creditNotes)
          .where(and(eq(creditNotes.clientId, clientId), after(creditNotes.createdAt, creditNotes.id, c)))
          .orderBy(asc(creditNotes.createdAt), asc(creditNotes.id))
          .limit(EXPORT_BATCH),
    },
    {
      name: "quotes.json",
      optional: true,
      read: (c) => {
        const { createdBy: _by, ...quoteColumns } = getTableColumns(quotes);
        return db
          .select({ ...quoteColumns, ...cursorOf(quotes.createdAt, quotes.id) })
          .from(quotes)
          .where(
            and(
              eq(quotes.clientId, clientId),
              // A draft is the owner's work in progress, not yet the client's.
              sql`${quotes.status} <> 'draft'`,
              after(quotes.createdAt, quotes.id, c),
            ),
          )
          .orderBy(asc(quotes.createdAt), asc(quotes.id))
          .limit(EXPORT_BATCH);
      },
    },
    {
      name: "quote-requests.json",
      optional: true,
      read: (c) =>
        db
          .select({
            ...getTableColumns(quoteRequests),
            ...cursorOf(quoteRequests.createdAt, quoteRequests.id),
          })
          .from(quoteRequests)
          .where(
            and(eq(quoteRequests.clientId, clientId), after(quoteRequests.createdAt, quoteRequests.id, c)),
          )
          .orderBy(asc(quoteRequests.createdAt), asc(quoteRequests.id))
          .limit(EXPORT_BATCH),
    },
    {
      name: "messages.json",
      optional: false,
      read: async (c) => {
        const rows = await db
          .select({
            id: orderMessages.id,
            orderId: orderMessages.orderId,
            authorRole: orderMessages.authorRole,
            body: orderMessages.body,
            readAt: orderMessages.readAt,
            createdAt: orderMessages.createdAt,
            ...cursorOf(orderMessages.createdAt, orderMessages.id),
          })
          .from(orderMessages)
          .innerJoin(orders, eq(orders.id, orderMessages.orderId))
          .where(and(eq(orders.clientId, clientId), after(orderMessages.createdAt, orderMessages.id, c)))
          .orderBy(asc(orderMessages.createdAt), asc(orderMessages.id))
          .limit(EXPORT_BATCH);
        if (rows.length === 0) return [];
        // The files' names, types and sizes: never their bytes.
        const files = await db
          .select({
            messageId: messageAttachments.messageId,
            filename: messageAttachments.filename,
            contentType: messageAttachments.contentType,
            size: messageAttachments.size,
            sha256: messageAttachments.sha256,
          })
          .from(messageAttachments)
          .where(
            inArray(
              messageAttachments.messageId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(asc(messageAttachments.messageId), asc(messageAttachments.position));
        return rows.map((r) => ({
          ...r,
          attachments: files.filter((f) => f.messageId === r.id).map(({ messageId: _m, ...f }) => f),
        }));
      },
    },
    {
      name: "contact-messages.json",
      optional: true,
      // What was sent through the contact form from the account's address (deletion removes the same
      // rows). Not the sender's network address nor browser: anyone can type an address into the form,
      // and those would be a stranger's data then; nor the owner's read mark.
      read: (c) =>
        db
          .select({
            name: contactMessages.name,
            email: contactMessages.email,
            subject: contactMessages.subject,
            message: contactMessages.message,
            source: contactMessages.source,
            createdAt: contactMessages.createdAt,
            ...cursorOf(contactMessages.createdAt, contactMessages.id),
          })
          .from(contactMessages)
          .where(
            and(
              sql`lower(${contactMessages.email}) = ${email.toLowerCase()}`,
              after(contactMessages.createdAt, contactMessages.id, c),
            ),
          )
          .orderBy(asc(contactMessages.createdAt), asc(contactMessages.id))
          .limit(EXPORT_BATCH),
    },
    {
      name: "notifications.json",
      optional: false,
      read: (c) =>
        db
          .select({
            ...getTableColumns(notifications),
            ...cursorOf(notifications.createdAt, notifications.id),
          })
          .from(notifications)
          .where(and(eq(notifications.userId, clientId), after(notifications.createdAt, notifications.id, c)))
          .orderBy(asc(notifications.createdAt), asc(notifications.id))
          .limit(EXPORT_BATCH),
    },
    {
      name: "sessions.json",
      optional: false,
      // The sign-in sessions: when, until when, from where. Never their tokens.
      read: (c) =>
        db
          .select({
            createdAt: session.createdAt,
            updatedAt: session.updatedAt,
            expiresAt: session.expiresAt,
            ipAddress: session.ipAddress,
            userAgent: session.userAgent,
            ...cursorOf(session.createdAt, session.id),
          })
          .from(session)
          .where(and(eq(session.userId, clientId), after(session.createdAt, session.id, c)))
          .orderBy(asc(session.createdAt), asc(session.id))
          .limit(EXPORT_BATCH),
    },
  ];
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Who asked, for the README (the client or the owner on the client's behalf). */
export interface ExportRequest {
  requestedBy: "client" | "owner";
  /** Its name for the README, its identity for the credit notes' and quotes' PDFs. */
  business: BusinessIdentity;
  now: Date;
}

type Profile = NonNullable<Awaited<ReturnType<typeof exportProfile>>>;

/** What an export needs: the database, the business (on the invoices' PDFs), and where a failure is told. */
export interface DataExportDeps {
  db: Database;
  business: BusinessIdentity;
  render: InvoicePdfRenderer;
  /** A zip that failed while streaming (the response has begun: only logged). */
  onError: (error: unknown) => void;
}

/** How many exports the client may still download today (the Privacy tab says it). */
export async function dataExportsLeft(db: Database, clientId: string): Promise<number> {
  const used = await rateLimitHits(db, dataExportLimitKey(clientId, "client"), DATA_EXPORT_WINDOW_MS);
  return Math.max(0, DATA_EXPORTS_PER_DAY - used);
}

/**
 * Answers an export: 404 when the account does not exist (deleted, or never was), 429 past the day's
 * limit, else the zip (streamed), the export recorded in the audit log first with whoever asked.
 */
export async function dataExportResponse(
  deps: DataExportDeps,
  clientId: string,
  actor: Actor,
  requestedBy: "client" | "owner",
): Promise<Response> {
  const profile = await exportProfile(deps.db, clientId);
  if (!profile) return new Response("Not Found", { status: 404 });
  // A deleted account (ADR 0520): nothing of the client's is left to export; the kept invoices are the
  // business's records.
  if (profile.client?.deletedAt) {
    return new Response(DELETION_MESSAGES.exportOfDeleted, {
      status: 410,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  }
  const limit = await consumeRateLimit(
    deps.db,
    dataExportLimitKey(clientId, requestedBy),
    DATA_EXPORTS_PER_DAY,
    DATA_EXPORT_WINDOW_MS,
  );
  if (!limit.allowed) {
    return new Response(DATA_EXPORT_LIMIT_MESSAGE, {
      status: 429,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Retry-After": String(limit.retryAfterSeconds),
        "Cache-Control": "private, no-store",
      },
    });
  }
  const now = new Date();
  await recordAudit(deps.db, actor, {
    action: "client.data_export",
    entity: "client",
    entityId: clientId,
    after: { requestedBy, email: profile.account.email },
  });
  const stream = dataExportZipStream(
    deps.db,
    profile,
    { requestedBy, business: deps.business, now },
    deps.render,
    deps.onError,
  );
  return new Response(stream, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${dataExportFileName(now, requestedBy, clientId)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

/** Streams the export's zip of an existing account (`exportProfile`'s answer). */
export function dataExportZipStream(
  db: Database,
  profile: Profile,
  request: ExportRequest,
  render: InvoicePdfRenderer,
  onError: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const clientId = profile.account.id;
  const encoder = new TextEncoder();
  let cancelled = false;
  // Backpressure: the zip is written only while the reader keeps up (at most EXPORT_BUFFER_BYTES
  // waiting in the stream's queue), so a slow download never gathers the whole export in memory.
  let wake: (() => void) | null = null;
  let queue: ReadableStreamDefaultController<Uint8Array> | null = null;
  const room = (): Promise<void> =>
    cancelled || !queue || (queue.desiredSize ?? 1) > 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          wake = resolve;
        });
  const run = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
    try {
      // Loaded on the first export, not at start (ADR 0803).
      const fflate = await import("fflate");
      const zip = new fflate.Zip((error, chunk, final) => {
        if (error) {
          onError(error);
          controller.error(error);
          return;
        }
        if (!cancelled) controller.enqueue(chunk);
        if (final && !cancelled) controller.close();
      });
      const now = request.now;
      const whole = (name: string, text: string) => {
        const file = new fflate.ZipDeflate(name, { level: 6 });
        file.mtime = now;
        zip.add(file);
        file.push(encoder.encode(text), true);
      };
      whole(
        "README.txt",
        dataExportReadme({
          businessName: request.business.name,
          email: profile.account.email,
          requestedBy: request.requestedBy,
          createdAt: now,
        }),
      );
      whole("profile.json", json(profile));
      whole("preferences.json", json(await exportPreferences(db, clientId)));
      whole("consents.json", json(await exportConsents(db, clientId, profile.account.email)));
      const plans = await plansForExport(db, clientId);
      if (plans.length > 0) whole("care-plans.json", json(plans));
      const domains = await domainsForExport(db, clientId);
      if (domains.length > 0) whole("domains.json", json(domains));
      for (const part of pagedFiles(db, clientId, profile.account.email)) {
        if (cancelled) return;
        let page = await part.read(null);
        if (page.length === 0 && part.optional) continue;
        const file = new fflate.ZipDeflate(part.name, { level: 6 });
        file.mtime = now;
        zip.add(file);
        file.push(encoder.encode("["));
        let first = true;
        for (;;) {
          await room();
          let text = "";
          for (const { cursorAt: _at, cursorId: _id, ...row } of page) {
            text += `${first ? "" : ","}\n${JSON.stringify(row)}`;
            first = false;
          }
          file.push(encoder.encode(text));
          if (page.length < EXPORT_BATCH || cancelled) break;
          const last = page[page.length - 1]!;
          page = await part.read({ at: last.cursorAt, id: last.cursorId });
        }
        file.push(encoder.encode("\n]\n"), true);
      }
      if (cancelled) return;
      await addInvoicePdfs(fflate, zip, db, clientId, render, () => cancelled, "invoices/", room);
      if (cancelled) return;
      await addExportDocuments({
        fflate,
        zip,
        db,
        client: { id: clientId, email: profile.account.email },
        business: request.business,
        now,
        cancelled: () => cancelled,
        room,
      });
      if (cancelled) return;
      zip.end();
    } catch (error) {
      onError(error);
      controller.error(error);
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        queue = controller;
        // Not awaited: the stream calls `pull` (which lets a waiting `room()` go on) only once `start`
        // has returned.
        void run(controller);
      },
      pull() {
        const go = wake;
        wake = null;
        go?.();
      },
      cancel() {
        cancelled = true;
        const go = wake;
        wake = null;
        go?.();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: EXPORT_BUFFER_BYTES }),
  );
}
