/** What every /admin route module does first: the role check, and the dependencies of a change. */
import type { AppLoadContext } from "react-router";
import { invalidatePageCache } from "~/delivery/page-cache.server";
import { requireAdmin } from "~/features/accounts/session.server";
import type { MailingChangeDeps } from "~/features/audit/audit.server";
import type { CatalogueEditDeps } from "~/features/catalogue/catalogue-edit.server";
import { isUuid } from "~/features/ids/ids";
import { parsePage } from "~/features/lists/listing";
import type { QuoteDeps } from "~/features/quotes/quote-deps.server";
import type { RefundFormDeps } from "~/features/refunds/refund-form.server";
import { issueRefundFormToken, refundFormSecret } from "~/features/refunds/refund-form-token.server";

export { requireAdmin };

/**
 * The admin's identity for the audit log, and what a change needs: a change that queues email wakes
 * the outbox itself once it committed. Throws 404 for anyone else.
 */
export async function adminDeps(request: Request, context: AppLoadContext): Promise<MailingChangeDeps> {
  const admin = await requireAdmin(request, context);
  return {
    db: context.runtime.database.db,
    config: context.runtime.config,
    actor: { id: admin.id, email: admin.email },
    wakeOutbox: () => context.runtime.outbox.wake(),
  };
}

/** A catalogue edit: the admin's deps, and the public pages' copies in this process to empty after it. */
export async function adminCatalogueDeps(
  request: Request,
  context: AppLoadContext,
): Promise<CatalogueEditDeps> {
  return { ...(await adminDeps(request, context)), invalidatePublicPages: invalidatePageCache };
}

/** A change that may ask a payment provider (a refund): the admin's deps with the providers. */
export async function adminRefundDeps(request: Request, context: AppLoadContext): Promise<RefundFormDeps> {
  const deps = await adminDeps(request, context);
  return {
    ...deps,
    provider: (name) => context.runtime.payments.forWebhook(name),
    logger: context.logger,
    refundFormSecret: refundFormSecret(context.runtime.authSecret),
  };
}

/** A quote's change (the editor, a revision): the admin's deps with the full configuration (the invoice rules). */
export async function adminQuoteDeps(
  request: Request,
  context: AppLoadContext,
): Promise<QuoteDeps & MailingChangeDeps> {
  return { ...(await adminDeps(request, context)), config: context.runtime.config };
}

/** A fresh one-time token for an invoice's refund form (ADR 0505). */
export function newRefundFormToken(context: AppLoadContext, invoiceId: string): string {
  return issueRefundFormToken(refundFormSecret(context.runtime.authSecret), invoiceId);
}

/** A route's id parameter, or a 404 (a malformed id is as unknown as a missing one). */
export function idParam(value: string | undefined): string {
  if (!isUuid(value)) throw new Response("Not Found", { status: 404 });
  return value;
}

/** Common list query: q (trimmed, at most 100 characters) and page. */
export function listQuery(request: Request) {
  const url = new URL(request.url);
  return {
    url,
    q: (url.searchParams.get("q") ?? "").trim().slice(0, 100),
    page: parsePage(url.searchParams.get("page")),
  };
}

/** An account id (better-auth's own ids, or UUIDs from admin:create), or a 404. */
export function userIdParam(value: string | undefined): string {
  if (!value || !/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw new Response("Not Found", { status: 404 });
  return value;
}
