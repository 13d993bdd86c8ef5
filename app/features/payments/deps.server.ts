/**
 * The dependencies of the order and payment features, taken from a request's load context. The
 * orders' builders live here, a layer above orders (ADR 0012), since they hand orders the runtime's
 * payment providers: the active one for checkout, and expiring a cancelled order's checkout.
 */
import type { AppLoadContext } from "react-router";
import type { AfterSaleDeps } from "~/features/orders/order-access.server";
import type { OrderDeps } from "~/features/orders/orders.server";
import { expireCheckouts } from "./provider.server";
import type { ReconcileDeps } from "./reconcile.server";
import type { WebhookDeps } from "./webhooks.server";

export function orderDeps(context: AppLoadContext): OrderDeps {
  const { runtime, logger } = context;
  return {
    db: runtime.database.db,
    config: runtime.config,
    providers: runtime.payments,
    rates: async () => (await runtime.currency.rates.get()).rates,
    logger,
  };
}

/** The dependencies of an order's page, brief and conversation. */
export function afterSaleDeps(context: AppLoadContext): AfterSaleDeps {
  const { runtime } = context;
  return {
    db: runtime.database.db,
    config: runtime.config,
    wakeOutbox: () => runtime.outbox.wake(),
    expireCheckout: (checkout) => void expireCheckouts(runtime.payments, runtime.logger, [checkout]),
  };
}

export function webhookDeps(context: AppLoadContext): WebhookDeps {
  const { runtime, logger } = context;
  return {
    db: runtime.database.db,
    business: runtime.config.business,
    publicUrl: runtime.config.publicUrl,
    wakeOutbox: () => runtime.outbox.wake(),
    logger,
  };
}

/** The webhook's dependencies plus the configured providers: the return to /payment-success asks them. */
export function reconcileDeps(context: AppLoadContext): ReconcileDeps {
  return { ...webhookDeps(context), provider: (name) => context.runtime.payments.forWebhook(name) };
}
