/**
 * Account deletion (docs/decisions/0520-account-deletion.md): what goes outright, because it is only
 * the client's: sessions, sign-in and secrets, preferences, notifications, rate-limit counters, what was
 * sent from the address (contact messages, the newsletter) and emails to or about it.
 */
import { and, eq, inArray, or, sql } from "drizzle-orm";
import {
  account,
  contactMessages,
  newsletterSubscriptions,
  notifications,
  outboxEmails,
  rateLimits,
  session,
  signInDevices,
  twoFactor,
  userPreferences,
  verification,
} from "~/db/schema";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { type DeletedAccount, matches } from "./deletion-identifiers.server";

/** Every session ends; each one's live stream closes on its event (and finds no session after). Answers how many. */
export async function endSessions({ tx, clientId }: DeletedAccount): Promise<number> {
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
  return sessions.length;
}

/** What is only the client's: sign-in (so it can never sign in again), secrets, preferences. */
export async function eraseCredentials({ tx, clientId, emailLower }: DeletedAccount): Promise<void> {
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
}

/** Sent from the address: contact messages and the newsletter subscription go. */
export async function eraseSentFromAddress({ tx, emailLower }: DeletedAccount): Promise<void> {
  await tx.delete(contactMessages).where(sql`lower(${contactMessages.email}) = ${emailLower}`);
  await tx.delete(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, emailLower));
}

/** Emails to or about the address go (sent ones are history; queued ones have no one to reach). */
export async function eraseEmails({ tx, emailLower }: DeletedAccount, emailPattern: string): Promise<void> {
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
}
