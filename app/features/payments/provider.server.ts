/**
 * The payment providers behind one small interface (ARCHITECTURE.md "payments"): `sandbox` (built in,
 * the default) and `stripe`. A provider makes a hosted checkout for an invoice and verifies the webhooks
 * it sends; what a verified event does to orders and invoices is decided in webhooks.server.ts, the
 * same way for every provider. This module only chooses them; what a provider is lives in provider.ts.
 */
import type { Config } from "~/config.server";
import type { Database } from "~/db/client.server";
import type { BusinessIdentity } from "~/features/business/business";
import type { PaymentProvider } from "./provider";
import { createSandboxProvider, type SandboxProvider } from "./sandbox.server";
import { databaseSandboxStore } from "./sandbox-store.server";
import { createStripeProvider } from "./stripe.server";

export interface PaymentProviders {
  /** The provider new checkouts go to (PAYMENT_PROVIDER). */
  active: PaymentProvider;
  /**
   * The configured provider of that name (whose webhooks an endpoint accepts, and which the payment
   * sweep asks about an order's checkout), or null when it is not configured.
   */
  forWebhook(name: string): PaymentProvider | null;
  /** The built-in sandbox (its hosted checkout page), when it is the active provider. */
  sandbox: SandboxProvider | null;
}

/** An order's checkout at its provider (a cancelled order's, to expire). */
export interface OpenCheckout {
  orderId: string;
  provider: string | null;
  reference: string | null;
}

/**
 * Expires the checkouts of cancelled orders at their providers, after the cancellation committed, so
 * they can no longer be paid. Never throws: a failure is logged and harmless (a payment that still
 * arrives for a cancelled order lands in Needs attention, webhooks.server.ts).
 */
export async function expireCheckouts(
  providers: Pick<PaymentProviders, "forWebhook">,
  logger: { warn(obj: object, msg: string): void },
  checkouts: OpenCheckout[],
): Promise<void> {
  for (const c of checkouts) {
    const provider = c.provider && c.reference ? providers.forWebhook(c.provider) : null;
    if (!provider || !c.reference) continue;
    try {
      await provider.expireCheckout(c.reference);
    } catch (error) {
      const err = error as Error;
      logger.warn(
        { orderId: c.orderId, provider: c.provider, errType: err.name, errMessage: err.message },
        "could not expire the checkout of a cancelled order",
      );
    }
  }
}

export function createPaymentProviders(input: {
  config: Config;
  authSecret: string;
  business: BusinessIdentity;
  /** Where the sandbox remembers its checkouts; in memory without one. */
  db?: Database;
}): PaymentProviders {
  const { config } = input;
  const p = config.payments;
  const sandbox =
    p.provider === "sandbox"
      ? createSandboxProvider({
          secret: p.sandboxWebhookSecret ?? `${input.authSecret}:sandbox-webhooks`,
          webhookUrl: p.sandboxWebhookUrl ?? `${config.publicUrl}/api/payments/sandbox/webhook`,
          ...(input.db ? { store: databaseSandboxStore(input.db) } : {}),
        })
      : null;
  const stripe =
    p.stripeSecretKey && p.stripeWebhookSecret
      ? createStripeProvider({
          secretKey: p.stripeSecretKey,
          webhookSecret: p.stripeWebhookSecret,
          apiUrl: p.stripeApiUrl,
        })
      : null;
  const active = p.provider === "stripe" ? stripe : sandbox;
  if (!active) throw new Error(`payment provider ${p.provider} is not configured`);
  return {
    active,
    sandbox,
    forWebhook: (name) => (name === "sandbox" ? sandbox : name === "stripe" ? stripe : null),
  };
}
