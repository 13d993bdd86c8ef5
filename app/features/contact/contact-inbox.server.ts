/**
 * The contact inbox (the back office's messages pages show it): every message sent through a contact
 * form, read/unread, and replies by email, each change audited in its transaction. (A `messages` module
 * elsewhere holds the texts a screen shows, e.g. accounts/messages.ts; this one is the inbox of
 * `contact_messages`.)
 */
import { and, count, desc, eq, ilike, isNotNull, isNull, or } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { contactMessages } from "~/db/schema";
import {
  type ChangeDeps,
  type ChangeResult,
  type MailingChangeDeps,
  recordAudit,
} from "~/features/audit/audit.server";
import { escapeLike } from "~/features/lists/escape-like";
import { pageOffset } from "~/features/lists/listing";
import { enqueueEmail, mailbox } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import { unreadClientMessageCount } from "~/features/orders/conversation.server";
import { type FormFailure, parseForm } from "~/ui/form";
import type { MessageFilter } from "./contact-inbox";

type ContactMessage = typeof contactMessages.$inferSelect;

export async function listMessages(
  db: Database,
  filter: { q: string; filter: MessageFilter; page: number },
): Promise<{ rows: ContactMessage[]; total: number; page: number; unread: number }> {
  const like = `%${escapeLike(filter.q)}%`;
  const search = filter.q
    ? or(
        ilike(contactMessages.name, like),
        ilike(contactMessages.email, like),
        ilike(contactMessages.subject, like),
      )
    : undefined;
  const state =
    filter.filter === "unread"
      ? isNull(contactMessages.readAt)
      : filter.filter === "read"
        ? isNotNull(contactMessages.readAt)
        : undefined;
  // Offset paging, as the back office's other lists (features/lists).
  const { limit, offset } = pageOffset(filter.page);
  const [rows, [total], [unread]] = await Promise.all([
    db
      .select()
      .from(contactMessages)
      .where(and(search, state))
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(contactMessages).where(and(search, state)),
    db.select({ n: count() }).from(contactMessages).where(isNull(contactMessages.readAt)),
  ]);
  return { rows, total: total?.n ?? 0, page: filter.page, unread: unread?.n ?? 0 };
}

/** Unread contact messages (a partial index keeps this cheap). */
export async function unreadMessageCount(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(contactMessages).where(isNull(contactMessages.readAt));
  return row?.n ?? 0;
}

/**
 * The owner's unread messages, the one count the sidebar's Messages badge and the dashboard's Unread
 * messages card both show (issue 37: they said 6 and 5): contact messages and clients' messages on
 * their orders, both of which the Messages page lists.
 */
export async function unreadInboxCount(
  db: Database,
): Promise<{ contact: number; onOrders: number; total: number }> {
  const [contact, onOrders] = await Promise.all([unreadMessageCount(db), unreadClientMessageCount(db)]);
  return { contact, onOrders, total: contact + onOrders };
}

export async function getMessage(db: Database, id: string) {
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id)).limit(1);
  return row ?? null;
}

/** Marks a message read or unread (a no-op, and no audit row, when it already is). */
export async function setMessageRead(deps: ChangeDeps, id: string, read: boolean): Promise<ChangeResult> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(contactMessages).where(eq(contactMessages.id, id)).for("update");
    if (!row) return { ok: false, status: 404, error: "Message not found." };
    if (Boolean(row.readAt) === read) return { ok: true, message: read ? "Marked read." : "Marked unread." };
    const readAt = read ? new Date() : null;
    await tx.update(contactMessages).set({ readAt }).where(eq(contactMessages.id, id));
    await recordAudit(tx, deps.actor, {
      action: read ? "message.read" : "message.unread",
      entity: "contact_message",
      entityId: id,
      before: { readAt: row.readAt },
      after: { readAt },
    });
    return { ok: true, message: read ? "Marked read." : "Marked unread." };
  });
}

/**
 * Replies to a contact message by email (through the outbox, woken once the reply is queued); the
 * message becomes read.
 */
export async function replyToMessage(
  deps: MailingChangeDeps,
  id: string,
  reply: { subject: string; body: string },
): Promise<ChangeResult> {
  const result = await deps.db.transaction(async (tx): Promise<ChangeResult> => {
    const [row] = await tx.select().from(contactMessages).where(eq(contactMessages.id, id)).for("update");
    if (!row) return { ok: false, status: 404, error: "Message not found." };
    await enqueueEmail(tx, {
      kind: "contact-reply",
      to: mailbox(row.email, row.name),
      replyTo: { name: deps.config.business.name, address: deps.config.business.email },
      ...noticeEmail({
        business: deps.config.business,
        publicUrl: deps.config.publicUrl,
        subject: reply.subject,
        greetingName: row.name,
        lines: reply.body
          .split(/\n{2,}/)
          .map((p) => p.trim())
          .filter(Boolean),
        note: `You wrote: ${row.message.length > 500 ? `${row.message.slice(0, 500)}…` : row.message}`,
      }),
    });
    if (!row.readAt)
      await tx.update(contactMessages).set({ readAt: new Date() }).where(eq(contactMessages.id, id));
    await recordAudit(tx, deps.actor, {
      action: "message.reply",
      entity: "contact_message",
      entityId: id,
      before: { readAt: row.readAt },
      after: { to: row.email, subject: reply.subject, body: reply.body },
    });
    return { ok: true, message: `Your reply to ${row.email} is on its way.` };
  });
  if (result.ok) deps.wakeOutbox();
  return result;
}

/** The message page's forms: mark read, mark unread, or the reply by email. */
const messagePageForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("read") }),
  z.object({ intent: z.literal("unread") }),
  z.object({
    intent: z.literal("reply"),
    subject: z
      .string()
      .trim()
      .min(1, { message: "Enter a subject" })
      .max(200, { message: "At most 200 characters" }),
    body: z
      .string()
      .trim()
      .min(1, { message: "Write your reply" })
      .max(10_000, { message: "At most 10,000 characters" }),
  }),
]);

/** A post of the back office's message page (`intent` read, unread or reply); a rejected form is 400. */
export async function messagePageAction(
  deps: MailingChangeDeps,
  id: string,
  values: Record<string, unknown>,
): Promise<ChangeResult | FormFailure> {
  const parsed = parseForm(messagePageForm, values);
  if (!parsed.ok) return parsed;
  const input = parsed.data;
  if (input.intent === "reply") return replyToMessage(deps, id, { subject: input.subject, body: input.body });
  return setMessageRead(deps, id, input.intent === "read");
}
