/**
 * Asking the provider instead of waiting for its webhook (ADR 0503). Two callers: the return to
 * /payment-success (the signed-in client's own order) and the payment sweep (checkouts open for more
 * than ten minutes, one process at a time). A paid answer goes through the webhook's own processing
 * (`processPaymentEvent`) as an event whose id is the checkout's, naming the invoice the checkout was
 * made for, so that invoice (and its order, if pending) becomes paid once, with one receipt, however
 * many of the three signals arrive, in any order.
 *
 * Where a checkout is kept: a pending order's on the order (`provider_reference`, as it always was) and
 * on its invoice; a checkout of an invoice whose order is no longer pending (a quote's balance, issued
 * when the work is complete) on the invoice only (`invoices.checkout_reference`, ADR 0503 amended
 * 2026-11-25).
 */
import { and, desc, eq, isNotNull, ne, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, orders } from "~/db/schema";
import { unpaidInvoiceSql } from "~/features/invoices/invoice-status.server";
import { consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import { type CheckoutStatus, isProviderName, type PaymentProvider, type ProviderName } from "./provider";
import { processPaymentEvent, type WebhookDeps } from "./webhooks.server";

export interface ReconcileDeps extends WebhookDeps {
  /** The configured provider of a name, or null. */
  provider(name: string): PaymentProvider | null;
}

/** What one checkout's answer does: pay the order, forget the expired checkout, report it, or wait. */
export type CheckoutDecision = "pay" | "expire" | "report-unknown" | "wait";

export function decideCheckout(status: CheckoutStatus["status"]): CheckoutDecision {
  switch (status) {
    case "paid":
      return "pay";
    case "expired":
      return "expire";
    case "unknown":
      return "report-unknown";
    default:
      return "wait";
  }
}

/** The event id of "the provider said this checkout is paid": one per checkout, so a repeat is a no-op. */
export function checkoutPaidEventId(reference: string): string {
  return `checkout:${reference}:paid`;
}

export interface CheckoutRef {
  /** The order the checkout pays (for a quote's balance, an order already complete). */
  id: string;
  provider: ProviderName;
  providerReference: string;
  /**
   * The invoice it was made for, when kept on it; null for a pending order's checkout made before
   * invoices kept theirs (then it pays the order's open invoice, as before).
   */
  invoiceId?: string | null;
}

/** Applies a paid answer as the provider's event would be; returns the outcome ('applied', 'ignored: …'). */
export async function applyPaidCheckout(
  deps: WebhookDeps,
  order: CheckoutRef,
  answer: CheckoutStatus,
  source: "return" | "sweep",
): Promise<string> {
  const result = await processPaymentEvent(deps, {
    provider: order.provider,
    eventId: checkoutPaidEventId(order.providerReference),
    type: "checkout.retrieved",
    kind: "paid",
    orderId: order.id,
    invoiceId: order.invoiceId ?? null,
    amount: answer.amount,
    currency: answer.currency,
    reference: answer.paymentReference ?? order.providerReference,
    payload: { source, checkout: order.providerReference, invoiceId: order.invoiceId ?? null, ...answer },
  });
  return result.duplicate ? "duplicate" : result.outcome;
}

/** Provider questions per client per hour from returns to /payment-success. */
export const RETURN_CHECKS_PER_HOUR = 30;

/** The invoice a pending order's checkout was made for, when the invoice keeps it too. */
export const orderCheckoutInvoiceSql: SQL<string | null> = sql<string | null>`(
  select ${invoices.id} from ${invoices}
  where ${invoices.orderId} = ${orders.id} and ${invoices.checkoutReference} = ${orders.providerReference}
  limit 1
)`;

/**
 * The checkout a return to /payment-success asks about: the client's own order's, while it is pending;
 * once it is not (a quote's balance is paid after the work is complete), the newest checkout kept on
 * one of its open invoices. A cancelled order, another client's, or nothing open: null.
 */
async function returnCheckout(db: Database, clientId: string, orderId: string): Promise<CheckoutRef | null> {
  const [order] = await db
    .select({
      id: orders.id,
      status: orders.status,
      provider: orders.provider,
      providerReference: orders.providerReference,
      invoiceId: orderCheckoutInvoiceSql,
    })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.clientId, clientId), ne(orders.status, "cancelled")))
    .limit(1);
  if (!order) return null;
  if (order.status === "pending") {
    if (!order.providerReference || !isProviderName(order.provider)) return null;
    return {
      id: order.id,
      provider: order.provider,
      providerReference: order.providerReference,
      invoiceId: order.invoiceId,
    };
  }
  const [invoice] = await db
    .select({ id: invoices.id, provider: invoices.checkoutProvider, reference: invoices.checkoutReference })
    .from(invoices)
    .where(and(eq(invoices.orderId, order.id), unpaidInvoiceSql, isNotNull(invoices.checkoutReference)))
    .orderBy(desc(invoices.checkoutStartedAt))
    .limit(1);
  if (!invoice?.reference || !isProviderName(invoice.provider)) return null;
  return {
    id: order.id,
    provider: invoice.provider,
    providerReference: invoice.reference,
    invoiceId: invoice.id,
  };
}

/**
 * The return to /payment-success: asks the provider about the signed-in client's own order's open
 * checkout (a pending order's, or a quote's balance's) and applies a paid answer. Another client's
 * order, a paid or cancelled one, or one without a checkout does nothing. Never throws: the page
 * redirects whatever the provider says.
 */
export async function checkOnReturn(deps: ReconcileDeps, clientId: string, orderId: string): Promise<string> {
  try {
    const checkout = await returnCheckout(deps.db, clientId, orderId);
    if (!checkout) return "nothing to check";
    const provider = deps.provider(checkout.provider);
    if (!provider) return "provider not configured";
    const limit = await consumeRateLimit(
      deps.db,
      `checkout-return:${clientId}`,
      RETURN_CHECKS_PER_HOUR,
      3_600_000,
    );
    if (!limit.allowed) return "too many checks";
    const answer = await provider.retrieveCheckout(checkout.providerReference);
    if (decideCheckout(answer.status) !== "pay") return `checkout ${answer.status}`;
    return await applyPaidCheckout(deps, checkout, answer, "return");
  } catch (error) {
    deps.logger.warn({ err: error, orderId }, "payment return: the provider could not be asked");
    return "failed";
  }
}

/**
 * Forgets a pending order's checkout that ended unpaid: the order stays pending with its invoice, for
 * Pay Now (its invoice forgets it too).
 */
export async function forgetCheckout(db: Database, orderId: string, reference: string): Promise<boolean> {
  const rows = await db
    .update(orders)
    .set({ providerReference: null, updatedAt: sql`${orders.updatedAt}` })
    .where(and(eq(orders.id, orderId), eq(orders.status, "pending"), eq(orders.providerReference, reference)))
    .returning({ id: orders.id });
  await db
    .update(invoices)
    .set({ checkoutReference: null, updatedAt: sql`${invoices.updatedAt}` })
    .where(and(eq(invoices.orderId, orderId), eq(invoices.checkoutReference, reference), unpaidInvoiceSql));
  return rows.length > 0;
}

/** Forgets an invoice's checkout that ended unpaid: the invoice stays open, for Pay Now. */
export async function forgetInvoiceCheckout(
  db: Database,
  invoiceId: string,
  reference: string,
): Promise<boolean> {
  const rows = await db
    .update(invoices)
    .set({ checkoutReference: null, updatedAt: sql`${invoices.updatedAt}` })
    .where(and(eq(invoices.id, invoiceId), eq(invoices.checkoutReference, reference), unpaidInvoiceSql))
    .returning({ id: invoices.id });
  return rows.length > 0;
}
