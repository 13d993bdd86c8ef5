/**
 * Asking the provider instead of waiting for its webhook (ADR 0503). Two callers: the return to
 * /payment-success (the signed-in client's own order) and the payment sweep (checkouts pending for
 * more than ten minutes, one process at a time). A paid answer goes through the webhook's own
 * processing (`processPaymentEvent`) as an event whose id is the checkout's, so the order and invoice
 * become paid once, with one receipt, however many of the three signals arrive, in any order.
 */
import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orders } from "~/db/schema";
import { consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import type { CheckoutStatus, PaymentProvider, ProviderName } from "./provider";
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

interface CheckoutRef {
  id: string;
  provider: ProviderName;
  providerReference: string;
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
    amount: answer.amount,
    currency: answer.currency,
    reference: answer.paymentReference ?? order.providerReference,
    payload: { source, checkout: order.providerReference, ...answer },
  });
  return result.duplicate ? "duplicate" : result.outcome;
}

const isProviderName = (name: string | null): name is ProviderName => name === "sandbox" || name === "stripe";

/** Provider questions per client per hour from returns to /payment-success. */
export const RETURN_CHECKS_PER_HOUR = 30;

/**
 * The return to /payment-success: asks the provider about the signed-in client's own pending order and
 * applies a paid answer. Another client's order, a paid one, or one without a checkout does nothing.
 * Never throws: the page redirects whatever the provider says.
 */
export async function checkOnReturn(deps: ReconcileDeps, clientId: string, orderId: string): Promise<string> {
  try {
    const [order] = await deps.db
      .select({ id: orders.id, provider: orders.provider, providerReference: orders.providerReference })
      .from(orders)
      .where(
        and(
          eq(orders.id, orderId),
          eq(orders.clientId, clientId),
          eq(orders.status, "pending"),
          isNotNull(orders.providerReference),
        ),
      )
      .limit(1);
    if (!order?.providerReference || !isProviderName(order.provider)) return "nothing to check";
    const provider = deps.provider(order.provider);
    if (!provider) return "provider not configured";
    const limit = await consumeRateLimit(
      deps.db,
      `checkout-return:${clientId}`,
      RETURN_CHECKS_PER_HOUR,
      3_600_000,
    );
    if (!limit.allowed) return "too many checks";
    const answer = await provider.retrieveCheckout(order.providerReference);
    if (decideCheckout(answer.status) !== "pay") return `checkout ${answer.status}`;
    const ref = { id: order.id, provider: order.provider, providerReference: order.providerReference };
    return await applyPaidCheckout(deps, ref, answer, "return");
  } catch (error) {
    deps.logger.warn({ err: error, orderId }, "payment return: the provider could not be asked");
    return "failed";
  }
}

/** Forgets an order's checkout that ended unpaid: the order stays pending with its invoice, for Pay Now. */
export async function forgetCheckout(db: Database, orderId: string, reference: string): Promise<boolean> {
  const rows = await db
    .update(orders)
    .set({ providerReference: null, updatedAt: sql`${orders.updatedAt}` })
    .where(and(eq(orders.id, orderId), eq(orders.status, "pending"), eq(orders.providerReference, reference)))
    .returning({ id: orders.id });
  return rows.length > 0;
}
