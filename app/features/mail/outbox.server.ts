/**
 * The persistent outbox (docs/decisions/0300-mail-outbox.md). Every email is a row first; the worker of
 * each process claims due rows with `FOR UPDATE SKIP LOCKED` and a lease, so several processes sharing
 * one PostgreSQL never send one message twice, and a crashed send is retried after its lease.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { queryRows } from "~/db/client.server";
import { type OutboxEmail, outboxEmails } from "~/db/schema";
import { type EmailContent, type MailAddress, retryDelayMs, storeAddress } from "./email";

export interface OutgoingEmail extends EmailContent {
  /** What kind of email it is ('contact-notification', 'password-reset', …). */
  kind: string;
  /** The recipient by name and address (`mailbox(address, name)`), written `"Name" <address>`. */
  to: MailAddress;
  /** Structured, never a formatted string: a name can then never add a recipient. */
  replyTo?: MailAddress;
  /** Forget the address and the body once sent or failed for good (an account's deletion, ADR 0520). */
  eraseWhenSent?: boolean;
}

/** What an erased email keeps: its kind, subject, status and times; never whom it went to nor what it said. */
export const ERASED_ADDRESS = "erased@deleted.invalid";
const ERASED_BODY = "(erased once sent: the recipient's account was deleted)";
const erased = {
  toAddress: ERASED_ADDRESS,
  toName: null,
  replyTo: null,
  html: ERASED_BODY,
  text: ERASED_BODY,
  lastError: null,
} as const;

/**
 * Queues an email. Pass the transaction that stores what the email is about, so both commit together;
 * after the commit, call `runtime.outbox.wake()` to send it at once instead of at the next poll.
 */
export async function enqueueEmail(db: Database, email: OutgoingEmail): Promise<string> {
  const [row] = await db
    .insert(outboxEmails)
    .values({
      kind: email.kind,
      toAddress: email.to.address,
      toName: email.to.name,
      replyTo: email.replyTo ? storeAddress(email.replyTo) : null,
      subject: email.subject,
      html: email.html,
      text: email.text,
      eraseWhenSent: email.eraseWhenSent ?? false,
    })
    .returning({ id: outboxEmails.id });
  return row!.id;
}

export interface ClaimedEmail {
  id: string;
  kind: string;
  to: string;
  /** The recipient's name, if the row kept one (see `mailbox`). */
  toName: string | null;
  /** As stored: read it with readStoredAddress. */
  replyTo: string | null;
  subject: string;
  html: string;
  text: string;
  /** Attempts including this one. */
  attempts: number;
}

/**
 * Claims up to `limit` due messages for this worker: pending ones whose time has come, and 'sending'
 * ones whose lease ran out (their worker died). Claiming counts the attempt and sets a lease.
 */
export async function claimDueEmails(db: Database, limit: number, leaseMs: number): Promise<ClaimedEmail[]> {
  return queryRows<ClaimedEmail>(
    db,
    sql`UPDATE outbox_emails SET status = 'sending', attempts = attempts + 1,
          locked_until = now() + (${leaseMs}::int * interval '1 millisecond'), updated_at = now()
        WHERE id IN (
          SELECT id FROM outbox_emails
          WHERE (status = 'pending' AND next_attempt_at <= now())
             OR (status = 'sending' AND locked_until < now())
          ORDER BY next_attempt_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING id, kind, to_address AS "to", to_name AS "toName", reply_to AS "replyTo", subject, html, text, attempts`,
  );
}

export async function markEmailDelivered(
  db: Database,
  id: string,
  result: { messageId: string; captured: boolean },
): Promise<void> {
  await db
    .update(outboxEmails)
    .set({
      status: result.captured ? "captured" : "sent",
      messageId: result.messageId,
      sentAt: new Date(),
      lockedUntil: null,
      lastError: null,
    })
    .where(eq(outboxEmails.id, id));
  await eraseIfAsked(db, id);
}

/** Records a failed attempt: retried later with exponential backoff, or `failed` after the last attempt. */
export async function markEmailAttemptFailed(
  db: Database,
  email: Pick<ClaimedEmail, "id" | "attempts">,
  error: string,
  policy: { maxAttempts: number; retryBaseMs: number },
): Promise<"pending" | "failed"> {
  const status = email.attempts >= policy.maxAttempts ? "failed" : "pending";
  const delay = retryDelayMs(email.attempts, policy.retryBaseMs);
  await db
    .update(outboxEmails)
    .set({
      status,
      lastError: error.slice(0, 2000),
      lockedUntil: null,
      nextAttemptAt: sql`now() + (${delay}::int * interval '1 millisecond')`,
    })
    .where(eq(outboxEmails.id, email.id));
  if (status === "failed") await eraseIfAsked(db, email.id);
  return status;
}

/** An email marked `erase_when_sent` that is done (sent, captured or failed) keeps no address nor body. */
async function eraseIfAsked(db: Database, id: string): Promise<void> {
  await db
    .update(outboxEmails)
    .set(erased)
    .where(and(eq(outboxEmails.id, id), eq(outboxEmails.eraseWhenSent, true)));
}

/** The most recent emails, newest first (the /dev/mail inbox). */
export function listRecentEmails(db: Database, limit = 100): Promise<OutboxEmail[]> {
  return db.select().from(outboxEmails).orderBy(desc(outboxEmails.createdAt)).limit(limit);
}

export async function findEmail(db: Database, id: string): Promise<OutboxEmail | null> {
  const [row] = await db.select().from(outboxEmails).where(eq(outboxEmails.id, id));
  return row ?? null;
}
