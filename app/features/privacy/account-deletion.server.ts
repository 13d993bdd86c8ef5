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
 *
 * This file: the forms, who asks, and the deletion's steps in order. Each group of tables has its own
 * file: the orders (deletion-orders: what refuses a deletion, what it cancels), what goes outright
 * (deletion-erase), what is kept without the client in it (deletion-redaction), and how the client's
 * identifiers are found in kept text (deletion-identifiers).
 */
import { isAPIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Config } from "~/config.server";
import type { Database } from "~/db/client.server";
import { clients, orders, user } from "~/db/schema";
import { ACCOUNT_MESSAGES, withinLimit } from "~/features/accounts/accounts.server";
import type { AccountDeps } from "~/features/accounts/deps.server";
import { ACCOUNT_LIMITS } from "~/features/accounts/limits";
import { MAX_PASSWORD_LENGTH } from "~/features/accounts/password";
import type { SessionUser } from "~/features/accounts/session-user";
import { parseSignInCode } from "~/features/accounts/two-factor";
import { checkCurrentCode, twoFactorStatus } from "~/features/accounts/two-factor.server";
import { type Actor, recordAudit } from "~/features/audit/audit.server";
import { forgetDomainsOfDeletedClient } from "~/features/domain-checks/domain-privacy.server";
import { enqueueEmail, mailbox } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import type { OpenCheckout } from "~/features/payments/provider.server";
import { endPlansOfDeletedClient } from "~/features/plans/plan-privacy.server";
import { consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import { parseForm } from "~/ui/form";
import {
  blockedMessage,
  DELETE_CONFIRMATION,
  DELETED_NAME,
  DELETION_MESSAGES,
  type DeletionBlocker,
  deletedEmail,
} from "./account-deletion";
import { type AccountDeletionDeps, afterDeletionCommitted } from "./deletion-deps.server";
import { endSessions, eraseCredentials, eraseEmails, eraseSentFromAddress } from "./deletion-erase.server";
import { type DeletedAccount, identifiersOf } from "./deletion-identifiers.server";
import { cancelPendingOrders, deletionBlockers } from "./deletion-orders.server";
import { redactConversations, redactQuotes, redactRecords } from "./deletion-redaction.server";

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
  | { ok: false; status: number; error: string; blocking?: DeletionBlocker[] };

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
    const blocking = await deletionBlockers(tx, clientId);
    if (blocking.length > 0) {
      return { ok: false, status: 409, error: blockedMessage(blocking, requestedBy), blocking };
    }

    const oldEmail = u.email;
    const placeholder = deletedEmail(clientId);
    const ids = identifiersOf(oldEmail, {
      names: [u.name, client?.name ?? ""],
      phone: client?.phone ?? null,
      company: client?.company ?? null,
    });
    const deleted: DeletedAccount = { tx, clientId, emailLower: oldEmail.toLowerCase(), placeholder };
    // The client's own steps are recorded by the account's id, never the old address.
    const who: Actor = requestedBy === "client" ? { id: clientId, email: placeholder } : actor;

    // 1. Unpaid pending orders are cancelled (invoices voided).
    const { cancelled, checkouts } = await cancelPendingOrders(tx, who, own);
    // 1b. Care plans end (those set to end with their period, or waiting for a first payment), the card
    // on file forgotten.
    await endPlansOfDeletedClient(tx, clientId, new Date());
    // 1c. Watched domains go, with their checks and alerts (issue 39).
    await forgetDomainsOfDeletedClient(tx, clientId);
    // 2. Every session ends, its live stream closed.
    const sessionsEnded = await endSessions(deleted);
    // 3. What is only the client's: sign-in, secrets, preferences.
    await eraseCredentials(deleted);
    // 4. Orders' conversations: the files go, the bodies and briefs are redacted.
    await redactConversations(deleted, ids);
    // 5. Sent from the address: contact messages and the newsletter subscription.
    await eraseSentFromAddress(deleted);
    // 6. Quote requests and quotes: kept as documents, without the client.
    await redactQuotes(deleted);
    // 7. Emails to or about the address.
    await eraseEmails(deleted, ids.emailPattern);
    // 8. Kept records (audit log, the owner's notices, payment records) name the account by its id only.
    await redactRecords(deleted, ids);

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
          countryCode: null,
          taxId: null,
          // What VIES said of the VAT number goes with it (issue 40).
          vatStatus: null,
          vatCheckedNumber: null,
          vatCheckedAt: null,
          vatRequestId: null,
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
      to: mailbox(oldEmail, client?.name ?? u.name),
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
      after: { requestedBy, cancelledOrders: cancelled, sessionsEnded },
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
  /** A field says it (the wrong password): the form shows no alert repeating it (issue 37, item 11). */
  inFields?: true;
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
  ...(Object.keys(fieldErrors).length > 0 ? { inFields: true as const } : {}),
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
