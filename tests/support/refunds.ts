/** The back office refund form as the owner's browser posts it (ADR 0505): with the page's one-time token. */
import { issueRefundFormToken, refundFormSecret } from "~/features/refunds/refund-form-token.server";
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

/** Confirms a refund the way the form's confirmation step does, with a fresh page's token (or `token`). */
export async function refundThroughForm(
  admin: Session,
  invoiceId: string,
  fields: Record<string, string>,
  token?: string,
): Promise<Response> {
  const formToken = token ?? (await refundFormToken(admin, invoiceId));
  return admin.post(`/admin/invoices/${invoiceId}`, { intent: "refund", token: formToken, ...fields });
}
