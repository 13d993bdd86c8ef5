/**
 * Account deletion (docs/decisions/0520-account-deletion.md): what is kept, without the client in it.
 * Orders' conversations and briefs, quote requests and sent quotes, the audit log and payment records
 * stay (the work's record, the books, tax law) with the client's identifiers removed.
 */
import { and, eq, inArray, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import {
  auditLog,
  messageAttachments,
  notifications,
  orderBriefs,
  orderMessages,
  orders,
  paymentEvents,
  paymentIssues,
  quoteRequests,
  quotes,
} from "~/db/schema";
import { DELETED_NAME } from "./account-deletion";
import {
  type DeletedAccount,
  type Identifiers,
  matches,
  redacted,
  redactJsonRows,
} from "./deletion-identifiers.server";

/**
 * Orders' conversations: the files go; the bodies and briefs stay with the order (the work's record)
 * with the client's email, name and phone redacted.
 */
export async function redactConversations(
  { tx, clientId }: DeletedAccount,
  { pattern, jsonAll }: Identifiers,
): Promise<void> {
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
}

/**
 * Quote requests keep their place (a quote may answer one) without who asked nor what they wrote.
 * Quotes: drafts (never sent) go; a sent quote is a document kept as sent (its trigger freezes the
 * recipient), an open one expires; a decline's reason goes.
 */
export async function redactQuotes({ tx, clientId, emailLower, placeholder }: DeletedAccount): Promise<void> {
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
}

/**
 * Kept records name the account by its id only: the audit log, the owner's notices about the client,
 * payment records. The actor's address only where it is the client's (never by a pattern: the owner's
 * rows keep theirs).
 */
export async function redactRecords(
  { tx, clientId, emailLower, placeholder }: DeletedAccount,
  { pattern, jsonAll, jsonEmail }: Identifiers,
): Promise<void> {
  await tx
    .update(auditLog)
    .set({ actorEmail: placeholder })
    .where(or(eq(auditLog.actorId, clientId), sql`lower(${auditLog.actorEmail}) = ${emailLower}`));
  //    Rows by or about the client (the account, its orders, invoices, credit notes, quotes, requests)
  //    lose every identifier; any other row only the address.
  const objectIds = sql`
      select id::text from orders where client_id = ${clientId}
      union all select id::text from invoices where client_id = ${clientId}
      union all select id::text from credit_notes where client_id = ${clientId}
      union all select id::text from quotes where client_id = ${clientId}
      union all select id::text from quote_requests where client_id = ${clientId}`;
  const aboutClient = or(
    eq(auditLog.actorId, clientId),
    eq(auditLog.entityId, clientId),
    sql`${auditLog.entityId} in (${objectIds})`,
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
  //    The owner's notices about the client (a paid order, a message, a brief: each leads to one of the
  //    client's orders, invoices, quotes or requests) lose every identifier too; the client's own are gone.
  await tx
    .update(notifications)
    .set({ title: redacted(notifications.title, pattern), message: redacted(notifications.message, pattern) })
    .where(
      and(
        or(matches(notifications.title, pattern, "text"), matches(notifications.message, pattern, "text")),
        sql`exists (select 1 from (${objectIds}) as about where position(about.id in ${notifications.href}) > 0)`,
      ),
    );
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
}
