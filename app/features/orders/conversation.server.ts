/**
 * An order's conversation (ADR 0512): the client and the owner write messages on an order, with up to
 * five files each. A post is checked (scope, the follow-up rule, the text, the files by their bytes, the
 * account's rate), then stored with its files and its effects in one transaction: a live event to the
 * other side's open pages (and the author's other tabs), a bell notification, and an email with the
 * text and a link to the order (to the client, or to the business address for the owner).
 * Reading a thread marks the other side's messages read; files are served only to whoever may see the
 * order, with their headers (attachments.ts).
 */
import { createHash } from "node:crypto";
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { clients, type MessageAuthorRole, messageAttachments, orderMessages, orders } from "~/db/schema";
import { clientWantsEmail } from "~/features/accounts/notification-preferences.server";
import { isUuid } from "~/features/ids/ids";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { enqueueEmail, mailbox } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import { NOTIFICATIONS } from "~/features/notifications/messages";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import { ATTACHMENT_MESSAGES, attachmentHeaders, checkAttachments, type IncomingFile } from "./attachments";
import {
  CONVERSATION_MESSAGES,
  type ConversationState,
  clientConversationState,
  messageBodySchema,
  messagePreview,
} from "./conversation";
import {
  type AfterSaleDeps,
  adminOrderPath,
  clientOrderPath,
  findOrderFor,
  notifyOwners,
  nowOf,
  orderScope,
  publishToOwners,
  type ScopedOrder,
  type Viewer,
} from "./order-access.server";

export type { IncomingFile, Viewer };

/** Messages one account may post per window, all orders together (ADR 0301's table). */
export const MESSAGES_PER_WINDOW = 20;
export const MESSAGE_WINDOW_MS = 10 * 60 * 1000;

const roleOf = (viewer: Viewer): MessageAuthorRole => (viewer.role === "admin" ? "owner" : "client");
const otherRole = (role: MessageAuthorRole): MessageAuthorRole => (role === "owner" ? "client" : "owner");

/**
 * Whether the viewer may write on the order now: the owner unless its client deleted their account
 * (ADR 0520: no one would read it), a client by the follow-up rule.
 */
export function conversationStateFor(viewer: Viewer, scoped: ScopedOrder, now: Date): ConversationState {
  if (viewer.role === "admin") {
    if (!scoped.clientDeleted) return { open: true, followUpEndsAt: null };
    const message = CONVERSATION_MESSAGES.clientDeleted;
    return { open: false, reason: "client-deleted", message, endedAt: null, buyAgainPath: null };
  }
  return clientConversationState({ ...scoped.order, serviceSlug: scoped.serviceSlug }, now);
}

export type PostMessageResult =
  | { ok: true; messageId: string; message: string }
  | { ok: false; status: 400 | 413; error: string; fieldErrors: { body?: string; files?: string } }
  | { ok: false; status: 404; error: string }
  | { ok: false; status: 409; error: string; buyAgainPath: string | null }
  | { ok: false; status: 429; error: string; retryAfterSeconds: number };

export interface PostMessageInput {
  author: Viewer;
  orderId: string;
  /** The message's text as sent (trimmed here). */
  body: unknown;
  files?: readonly IncomingFile[];
  /** The post was counted against the rate already, before its body was read (message-post.server.ts). */
  counted?: boolean;
}

/** The bytes of the files an account has attached to messages (its storage quota's use, ADR 0514). */
export async function storedAttachmentBytes(db: Database, authorId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string>`coalesce(sum(${messageAttachments.size}), 0)` })
    .from(messageAttachments)
    .innerJoin(orderMessages, eq(orderMessages.id, messageAttachments.messageId))
    .where(eq(orderMessages.authorId, authorId));
  return Number(row?.bytes ?? 0);
}

/**
 * Posts a message on an order. 404: not the author's order (a client's), or a malformed id. 409: the
 * conversation is closed to the client (cancelled, or the follow-up period ended: 'Follow-up period
 * ended on {date}.', with where to buy again). 400/413: the text or a file is refused (nothing is
 * stored), or over the account's storage quota (413). 429: too many messages from this account in a
 * short time; every post counts, refused ones too (ADR 0514), counted here unless the post was counted
 * before its body was read (`counted`).
 */
export async function postMessage(deps: AfterSaleDeps, input: PostMessageInput): Promise<PostMessageResult> {
  const { db } = deps;
  const { author } = input;
  if (!input.counted) {
    const limit = await consumeRateLimit(
      db,
      `order-message:${author.id}`,
      MESSAGES_PER_WINDOW,
      MESSAGE_WINDOW_MS,
    );
    if (!limit.allowed) {
      return {
        ok: false,
        status: 429,
        error: CONVERSATION_MESSAGES.rateLimited,
        retryAfterSeconds: limit.retryAfterSeconds,
      };
    }
  }
  const scoped = await findOrderFor(db, author, input.orderId);
  if (!scoped) return { ok: false, status: 404, error: CONVERSATION_MESSAGES.orderNotFound };
  const closed = refusal(conversationStateFor(author, scoped, nowOf(deps)));
  if (closed) return closed;

  const body = messageBodySchema.safeParse(input.body);
  if (!body.success) {
    const error = body.error.issues[0]?.message ?? CONVERSATION_MESSAGES.emptyBody;
    return { ok: false, status: 400, error, fieldErrors: { body: error } };
  }
  const files = checkAttachments(input.files ?? []);
  if (!files.ok)
    return { ok: false, status: files.status, error: files.error, fieldErrors: { files: files.error } };

  const result = await db.transaction(async (tx): Promise<PostMessageResult> => {
    // Again under the order's lock: it may have been cancelled or completed since.
    const locked = await findOrderFor(tx, author, input.orderId, true);
    if (!locked) return { ok: false, status: 404, error: CONVERSATION_MESSAGES.orderNotFound };
    const closedNow = refusal(conversationStateFor(author, locked, nowOf(deps)));
    if (closedNow) return closedNow;
    const { order } = locked;
    const adding = files.attachments.reduce((sum, a) => sum + a.size, 0);
    if (adding > 0) {
      // One post at a time per account past this point, so two uploads cannot both fit the same room.
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`attachment-quota:${author.id}`}, 0))`,
      );
      const stored = await storedAttachmentBytes(tx, author.id);
      const quota = deps.config.attachmentQuotaBytes;
      if (stored + adding > quota) {
        const error = ATTACHMENT_MESSAGES.quota(quota, stored);
        return { ok: false, status: 413, error, fieldErrors: { files: error } };
      }
    }
    const role = roleOf(author);
    const [message] = await tx
      .insert(orderMessages)
      .values({ orderId: order.id, authorId: author.id, authorRole: role, body: body.data })
      .returning({ id: orderMessages.id });
    const messageId = message!.id;
    for (const [position, file] of files.attachments.entries()) {
      await tx.insert(messageAttachments).values({
        messageId,
        position,
        filename: file.filename,
        contentType: file.contentType,
        size: file.size,
        bytes: file.bytes,
        sha256: createHash("sha256").update(file.bytes).digest("hex"),
      });
    }
    await announceMessage(tx, deps, {
      scoped: locked,
      author,
      body: body.data,
      filenames: files.attachments.map((a) => a.filename),
    });
    return { ok: true, messageId, message: "Message sent." };
  });
  if (result.ok) deps.wakeOutbox?.();
  return result;
}

function refusal(state: ConversationState): Extract<PostMessageResult, { status: 409 }> | null {
  if (state.open) return null;
  return { ok: false, status: 409, error: state.message, buyAgainPath: state.buyAgainPath };
}

/** The other side's notices of a new message, in the post's transaction. */
async function announceMessage(
  tx: Database,
  deps: AfterSaleDeps,
  post: { scoped: ScopedOrder; author: Viewer; body: string; filenames: string[] },
): Promise<void> {
  const { order } = post.scoped;
  const { business, publicUrl } = deps.config;
  const event = { kind: "message", entityId: order.id, status: "new" } as const;
  const [client] = await tx
    .select({ name: clients.name, email: clients.email })
    .from(clients)
    .where(eq(clients.id, order.clientId))
    .limit(1);
  const attached = post.filenames.length ? [`Attached: ${post.filenames.join(", ")} (in the portal).`] : [];
  // The client's page (the other side, or the author's other tabs) and every admin's but the author's.
  await publishLiveEvent(tx, { ...event, userId: order.clientId });
  await publishToOwners(tx, event, post.author.role === "admin" ? post.author.id : null);

  if (post.author.role === "admin") {
    await raiseNotification(tx, order.clientId, {
      ...NOTIFICATIONS.orderMessage(order.serviceName),
      href: clientOrderPath(order.id),
    });
    // The client's Notifications switches (order updates, email notifications); the bell still rings.
    if (!client || !(await clientWantsEmail(tx, order.clientId, "orderMessage"))) return;
    await enqueueEmail(tx, {
      kind: "order-message",
      to: mailbox(client.email, client.name),
      ...noticeEmail({
        business,
        publicUrl,
        subject: `New message on your order: ${order.serviceName}`,
        greetingName: client.name,
        lines: [
          `${business.name} wrote about your order of ${order.serviceName} (${order.packageName}):`,
          ...attached,
        ],
        note: post.body,
        link: { path: clientOrderPath(order.id), label: "Open your order" },
      }),
    });
    return;
  }
  const clientName = client?.name ?? "A client";
  await notifyOwners(tx, {
    ...NOTIFICATIONS.clientMessage(clientName, order.serviceName),
    href: adminOrderPath(order.id),
  });
  await enqueueEmail(tx, {
    kind: "order-message-owner",
    to: mailbox(business.email, business.name),
    ...noticeEmail({
      business,
      publicUrl,
      subject: `New message from ${clientName}: ${order.serviceName}`,
      greetingName: business.name,
      lines: [
        `${clientName}${client ? ` <${client.email}>` : ""} wrote on their order of ${order.serviceName} (${order.packageName}):`,
        ...attached,
      ],
      note: post.body,
      link: { path: adminOrderPath(order.id), label: "Open the order" },
    }),
  });
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

export interface AttachmentMeta {
  id: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
}

export interface ThreadMessage {
  id: string;
  authorRole: MessageAuthorRole;
  /** Written by the viewer's side (the client themself; for an admin, the owner's side). */
  mine: boolean;
  body: string;
  createdAt: Date;
  /** When the other side first read it; null while unread. */
  readAt: Date | null;
  attachments: AttachmentMeta[];
}

export interface Thread {
  orderId: string;
  messages: ThreadMessage[];
  /** Whether the viewer may write now, and if not why (the page shows `message`, and `buyAgainPath`). */
  conversation: ConversationState;
}

/**
 * An order's messages, oldest first, with their files' details (never their bytes), for the client of
 * the order or an admin; null otherwise (a malformed id too). The other side's unread messages become
 * read (a write only when there are some), and that side's pages are told.
 */
export async function listThread(
  deps: AfterSaleDeps,
  viewer: Viewer,
  orderId: string,
): Promise<Thread | null> {
  const { db } = deps;
  const scoped = await findOrderFor(db, viewer, orderId);
  if (!scoped) return null;
  const now = nowOf(deps);
  const [rows, files] = await Promise.all([
    db
      .select()
      .from(orderMessages)
      .where(eq(orderMessages.orderId, scoped.order.id))
      .orderBy(orderMessages.createdAt, orderMessages.id),
    db
      .select({
        id: messageAttachments.id,
        messageId: messageAttachments.messageId,
        filename: messageAttachments.filename,
        contentType: messageAttachments.contentType,
        size: messageAttachments.size,
        sha256: messageAttachments.sha256,
      })
      .from(messageAttachments)
      .innerJoin(orderMessages, eq(orderMessages.id, messageAttachments.messageId))
      .where(eq(orderMessages.orderId, scoped.order.id))
      .orderBy(messageAttachments.messageId, messageAttachments.position),
  ]);
  const mySide = roleOf(viewer);
  const theirs = otherRole(mySide);
  const unread = rows.filter((m) => m.authorRole === theirs && !m.readAt);
  if (unread.length) await markRead(db, viewer, scoped, theirs, now);
  const byMessage = new Map<string, AttachmentMeta[]>();
  for (const { messageId, ...meta } of files) {
    const list = byMessage.get(messageId) ?? [];
    list.push(meta);
    byMessage.set(messageId, list);
  }
  return {
    orderId: scoped.order.id,
    messages: rows.map((m) => ({
      id: m.id,
      authorRole: m.authorRole,
      mine: m.authorRole === mySide,
      body: m.body,
      createdAt: m.createdAt,
      readAt: m.readAt ?? (m.authorRole === theirs ? now : null),
      attachments: byMessage.get(m.id) ?? [],
    })),
    conversation: conversationStateFor(viewer, scoped, now),
  };
}

async function markRead(
  db: Database,
  viewer: Viewer,
  scoped: ScopedOrder,
  role: MessageAuthorRole,
  now: Date,
) {
  const orderId = scoped.order.id;
  await db.transaction(async (tx) => {
    const marked = await tx
      .update(orderMessages)
      .set({ readAt: now })
      .where(
        and(
          eq(orderMessages.orderId, orderId),
          eq(orderMessages.authorRole, role),
          isNull(orderMessages.readAt),
        ),
      )
      .returning({ id: orderMessages.id });
    if (!marked.length) return;
    const event = { kind: "message", entityId: orderId, status: "read" } as const;
    // The authors' side sees its messages read; an admin reading also clears the other admins' inbox.
    if (role === "owner") await publishToOwners(tx, event);
    else {
      await publishLiveEvent(tx, { ...event, userId: scoped.order.clientId });
      await publishToOwners(tx, event, viewer.id);
    }
  });
}

/** A file to download, with the headers it must be served with. */
export interface AttachmentDownload {
  orderId: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  bytes: Uint8Array;
  headers: Record<string, string>;
}

/** An attachment's bytes, only for the client of its order or an admin; null otherwise. */
export async function getAttachment(
  deps: Pick<AfterSaleDeps, "db">,
  viewer: Viewer,
  attachmentId: string,
): Promise<AttachmentDownload | null> {
  if (!isUuid(attachmentId)) return null;
  const [row] = await deps.db
    .select({
      orderId: orderMessages.orderId,
      filename: messageAttachments.filename,
      contentType: messageAttachments.contentType,
      size: messageAttachments.size,
      sha256: messageAttachments.sha256,
      bytes: messageAttachments.bytes,
    })
    .from(messageAttachments)
    .innerJoin(orderMessages, eq(orderMessages.id, messageAttachments.messageId))
    .innerJoin(orders, eq(orders.id, orderMessages.orderId))
    .where(and(eq(messageAttachments.id, attachmentId), orderScope(viewer)))
    .limit(1);
  if (!row) return null;
  return { ...row, headers: attachmentHeaders(row) };
}

// ---------------------------------------------------------------------------
// The back office's inbox
// ---------------------------------------------------------------------------

export interface UnreadClientMessage {
  messageId: string;
  orderId: string;
  serviceName: string;
  clientId: string;
  clientName: string | null;
  clientEmail: string | null;
  /** One line of the message. */
  preview: string;
  attachmentCount: number;
  createdAt: Date;
}

/** Unread client messages on every order, newest first (the partial index keeps this cheap). */
export async function listUnreadClientMessages(
  db: Database,
  page: { limit?: number; offset?: number } = {},
): Promise<UnreadClientMessage[]> {
  const rows = await db
    .select({
      messageId: orderMessages.id,
      orderId: orderMessages.orderId,
      serviceName: orders.serviceName,
      clientId: orders.clientId,
      clientName: clients.name,
      clientEmail: clients.email,
      body: orderMessages.body,
      attachmentCount:
        sql<number>`(select count(*) from ${messageAttachments} where ${messageAttachments.messageId} = ${orderMessages.id})`.mapWith(
          Number,
        ),
      createdAt: orderMessages.createdAt,
    })
    .from(orderMessages)
    .innerJoin(orders, eq(orders.id, orderMessages.orderId))
    .leftJoin(clients, eq(clients.id, orders.clientId))
    .where(and(eq(orderMessages.authorRole, "client"), isNull(orderMessages.readAt)))
    .orderBy(desc(orderMessages.createdAt), desc(orderMessages.id))
    .limit(Math.min(Math.max(page.limit ?? 50, 1), 200))
    .offset(Math.max(page.offset ?? 0, 0));
  return rows.map(({ body, ...r }) => ({ ...r, preview: messagePreview(body) }));
}

/** How many client messages no admin has read yet. */
export async function unreadClientMessageCount(db: Database): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(orderMessages)
    .where(and(eq(orderMessages.authorRole, "client"), isNull(orderMessages.readAt)));
  return row?.n ?? 0;
}
