/**
 * The back office refund form's one-time token (ADR 0505): issued with the form, signed for one
 * invoice, stored unique with the refund it makes and sent to the provider as its idempotency key, so
 * a form posted twice makes one refund. Signed rather than stored when issued: showing the form writes
 * nothing, and a token the server did not issue (or issued for another invoice) is refused.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const TOKEN = /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;

function mac(secret: string, invoiceId: string, nonce: string): string {
  return createHmac("sha256", secret).update(`refund-form:${invoiceId}:${nonce}`).digest("base64url");
}

/** The refund forms' signing secret, from the site's auth secret. */
export function refundFormSecret(authSecret: string): string {
  return `${authSecret}:refund-forms`;
}

/** A fresh token for one invoice's refund form. */
export function issueRefundFormToken(secret: string, invoiceId: string): string {
  const nonce = randomBytes(16).toString("base64url");
  return `${nonce}.${mac(secret, invoiceId, nonce)}`;
}

/** Whether this server issued `token` for this invoice's refund form. */
export function isRefundFormToken(secret: string, invoiceId: string, token: string): boolean {
  if (!TOKEN.test(token)) return false;
  const [nonce, given] = token.split(".") as [string, string];
  return timingSafeEqual(Buffer.from(given), Buffer.from(mac(secret, invoiceId, nonce)));
}

/**
 * The confirmation step's mark (issue 37, item 10): what the review showed (the token, the amount, the
 * reason and the reference as typed), signed. `refund` makes a refund only with the mark of the review
 * the owner saw, so a post that skipped the confirmation, or changed what it confirmed, is shown the
 * confirmation instead.
 */
export function refundConfirmation(
  secret: string,
  token: string,
  fields: { amount: string; reason: string; reference: string | null },
): string {
  return createHmac("sha256", secret)
    .update(JSON.stringify(["refund-confirm", token, fields.amount, fields.reason, fields.reference ?? ""]))
    .digest("base64url");
}

/** Whether `given` is the confirmation mark of exactly these fields. */
export function isRefundConfirmation(
  secret: string,
  token: string,
  fields: { amount: string; reason: string; reference: string | null },
  given: unknown,
): boolean {
  if (typeof given !== "string" || given.length !== 43) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(refundConfirmation(secret, token, fields)));
}
