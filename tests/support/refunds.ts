/** The back office refund form as the owner's browser posts it (ADR 0505): with the page's one-time token. */
import {
  issueRefundFormToken,
  refundConfirmation,
  refundFormSecret,
} from "~/features/refunds/refund-form-token.server";
import type { Session } from "./browserless";
import type { TestServer } from "./server";

/** The refund form's token on an admin invoice page. */
export function refundTokenIn(html: string): string {
  const token = html.match(/name="token" value="([^"]+)"/)?.[1];
  if (!token) throw new Error("no refund form token on the invoice page");
  return token;
}

/** A fresh token from the invoice's page, as a newly opened page has. */
export async function refundFormToken(admin: Session, invoiceId: string): Promise<string> {
  return refundTokenIn(await (await admin.get(`/admin/invoices/${invoiceId}`)).text());
}

/**
 * A token the server issued for an invoice whose page shows no refund form (unpaid, or nothing left):
 * what a page opened earlier, in another tab, still carries.
 */
export function staleRefundFormToken(server: TestServer, invoiceId: string): string {
  return issueRefundFormToken(refundFormSecret(server.portico.runtime.authSecret), invoiceId);
}

/** The confirmation step's signed mark on a page showing it ("" when the page shows none). */
export function refundConfirmationIn(html: string): string {
  return html.match(/name="confirmation" value="([^"]+)"/)?.[1] ?? "";
}

/**
 * Reviews then confirms a refund, as the owner's two clicks do, with a fresh page's token (or `token`):
 * the review's answer when it was refused, else the confirmation's.
 */
export async function refundThroughForm(
  admin: Session,
  invoiceId: string,
  fields: Record<string, string>,
  token?: string,
): Promise<Response> {
  const formToken = token ?? (await refundFormToken(admin, invoiceId));
  const path = `/admin/invoices/${invoiceId}`;
  const review = await admin.post(path, { intent: "refund-review", token: formToken, ...fields });
  const html = await review.text();
  const confirmation = refundConfirmationIn(html);
  if (!confirmation) return new Response(html, { status: review.status, headers: review.headers });
  return admin.post(path, { intent: "refund", token: formToken, ...fields, confirmation });
}

/** The confirmation step's mark for these fields, as the server signs it (for posts racing each other). */
export function refundConfirmationFor(
  server: TestServer,
  token: string,
  fields: { amount: string; reason: string; reference?: string },
): string {
  const secret = refundFormSecret(server.portico.runtime.authSecret);
  return refundConfirmation(secret, token, { ...fields, reference: fields.reference ?? null });
}
