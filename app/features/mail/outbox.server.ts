/**
 * The persistent outbox (docs/decisions/0300-mail-outbox.md). Every email is a row first; the worker of
 * each process claims due rows with `FOR UPDATE SKIP LOCKED` and a lease, so several processes sharing
 * one PostgreSQL never send one message twice, and a crashed send is retried after its lease.
 */
import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { queryRows } from "~/db/client.server";
import { type OutboxEmail, outboxEmails } from "~/db/schema";
import { type EmailContent, type MailAddress, retryDelayMs, storeAddress } from "./email";

export interface OutgoingEmail extends EmailContent {
  /** What kind of email it is ('contact-notification', 'password-reset', …). */
  kind: string;
  to: string;
  /** Structured, never a formatted string: a name can then never add a recipient. */
  replyTo?: MailAddress;
}

/**
 * Queues an email. Pass the transaction that stores what the email is about, so both commit together;
 * after the commit, call `runtime.outbox.wake()` to send it at once instead of at the next poll.
 */
export async function enqueueEmail(db: Database, email: OutgoingEmail): Promise<string> {
  const [row] = await db
    .insert(outboxEmails)
    .values({
      kind: email.kind,
      toAddress: email.to,
      replyTo: email.replyTo ? storeAddress(email.replyTo) : null,
      subject: email.subject,
      html: email.html,
      text: email.text,
    })
    .returning({ id: outboxEmails.id });
  return row!.id;
}

export interface ClaimedEmail {
  id: string;
  kind: string;
  to: string;
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
        RETURNING id, kind, to_address AS "to", reply_to AS "replyTo", subject, html, text, attempts`,
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
  return status;
}

/** The most recent emails, newest first (the /dev/mail inbox). */
export function listRecentEmails(db: Database, limit = 100): Promise<OutboxEmail[]> {
  return db.select().from(outboxEmails).orderBy(desc(outboxEmails.createdAt)).limit(limit);
}

export async function findEmail(db: Database, id: string): Promise<OutboxEmail | null> {
  const [row] = await db.select().from(outboxEmails).where(eq(outboxEmails.id, id));
  return row ?? null;
}
