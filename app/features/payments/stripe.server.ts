/**
 * Stripe Checkout through the official `stripe` package: one Checkout Session per checkout, in the
 * invoice's currency, with the idempotency key the portal gives; `checkout.session.completed`,
 * `checkout.session.async_payment_succeeded` and `checkout.session.expired` webhooks verified with the
 * endpoint's signing secret on the raw body. Refunds (ADR 0505): a Refund on the PaymentIntent with
 * Portico's refund id in its metadata and the refund's idempotency key; `refund.created`,
 * `refund.updated`, `refund.failed` and `charge.refunded` webhooks report them. Saved cards (ADR 0531):
 * one Customer per client, the card saved by the first payment (`setup_future_usage: off_session`) or
 * by a Checkout Session in setup mode, and charged by an off-session PaymentIntent confirmed at once.
 */
import { createRequire } from "node:module";
import type Stripe from "stripe";
import type { CheckoutRequest, CheckoutResult } from "~/features/orders/checkout-provider";
import {
  type CheckoutStatus,
  type PaymentProvider,
  PaymentProviderError,
  type RefundOutcome,
  type RefundRequest,
  type RefundUpdate,
  type SavedCard,
  type SavedCardChargeResult,
  type VerifiedPaymentEvent,
  WebhookVerificationError,
} from "./provider";

/** Stripe's zero-decimal currencies (https://docs.stripe.com/currencies#zero-decimal). */
const STRIPE_ZERO_DECIMAL = new Set([
  "BIF",
  "CLP",
  "DJF",
  "GNF",
  "JPY",
  "KMF",
  "KRW",
  "MGA",
  "PYG",
  "RWF",
  "UGX",
  "VND",
  "VUV",
  "XAF",
  "XOF",
  "XPF",
]);

/** An amount in major units → Stripe's integer `unit_amount` (cents, or yen for zero-decimal ones). */
export function toStripeAmount(amount: number, currency: string): number {
  return STRIPE_ZERO_DECIMAL.has(currency.toUpperCase()) ? Math.round(amount) : Math.round(amount * 100);
}

export function fromStripeAmount(amount: number, currency: string): number {
  return STRIPE_ZERO_DECIMAL.has(currency.toUpperCase()) ? amount : amount / 100;
}

/** A Stripe refund's status in Portico's three words. */
function refundStatus(status: string | null | undefined): RefundOutcome["status"] {
  if (status === "succeeded") return "succeeded";
  if (status === "failed" || status === "canceled") return "failed";
  return "pending";
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === "string" ? value : (value?.id ?? null);

const fail = (error: unknown) =>
  new PaymentProviderError(error instanceof Error ? error.message : String(error));

/** A PaymentMethod (expanded) → the card Portico shows and charges; null when it is not a card. */
function savedCardFrom(
  method: string | Stripe.PaymentMethod | null | undefined,
  customer: string | { id: string } | null | undefined,
): SavedCard | null {
  if (!method || typeof method === "string" || !method.card) return null;
  const customerId = idOf(customer) ?? idOf(method.customer);
  if (!customerId) return null;
  return {
    customerId,
    paymentMethodId: method.id,
    brand: method.card.brand,
    last4: method.card.last4,
    expMonth: method.card.exp_month,
    expYear: method.card.exp_year,
  };
}

/** A PaymentIntent's state after an off-session confirmation → what the renewal does next. */
function chargeResultOf(intent: Stripe.PaymentIntent): SavedCardChargeResult {
  if (intent.status === "succeeded") return { status: "succeeded", paymentReference: intent.id };
  if (intent.status === "processing") return { status: "processing", paymentReference: intent.id };
  const error = intent.last_payment_error;
  // requires_action: the bank wants its cardholder, who is not there (authentication_required).
  const code =
    error?.code ?? (intent.status === "requires_action" ? "authentication_required" : "card_declined");
  return {
    status: "declined",
    paymentReference: intent.id,
    decline: { code, declineCode: error?.decline_code ?? null, adviceCode: error?.advice_code ?? null },
    message: error?.message ?? "The card was not charged.",
  };
}

/** A Stripe Refund object → the update the portal applies. */
export function stripeRefundUpdate(refund: Stripe.Refund): RefundUpdate {
  const currency = refund.currency.toUpperCase();
  return {
    status: refundStatus(refund.status),
    providerRefundId: refund.id,
    failureReason: refund.failure_reason ?? null,
    refundId: refund.metadata?.refund_id || null,
    paymentReference: idOf(refund.payment_intent) ?? idOf(refund.charge),
    amount: fromStripeAmount(refund.amount, currency),
    currency,
  };
}

export function createStripeProvider(options: {
  secretKey: string;
  webhookSecret: string;
  /** Another API base (tests' fake Stripe on 127.0.0.1); null: api.stripe.com. */
  apiUrl: string | null;
}): PaymentProvider {
  const api = options.apiUrl ? new URL(options.apiUrl) : null;
  // Loaded when the Stripe provider is configured, not by every process (ADR 0803): the package is
  // about 20 MB resident. Synchronously, so the provider's API stays as it is.
  const StripeClient = createRequire(import.meta.url)("stripe") as typeof Stripe;
  const stripe = new StripeClient(options.secretKey, {
    maxNetworkRetries: 1,
    timeout: 15_000,
    ...(api
      ? {
          host: api.hostname,
          port: Number(api.port || (api.protocol === "https:" ? 443 : 80)),
          protocol: api.protocol === "https:" ? "https" : "http",
        }
      : {}),
  });

  return {
    name: "stripe",

    async createCheckout(request: CheckoutRequest): Promise<CheckoutResult> {
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: "payment",
            client_reference_id: request.orderId,
            // Stripe takes a customer or an email, not both: a saved card belongs to the customer.
            ...(request.saveCardFor
              ? { customer: request.saveCardFor.customerId }
              : { customer_email: request.customerEmail }),
            metadata: { order_id: request.orderId, invoice_id: request.invoiceId },
            payment_intent_data: {
              metadata: { order_id: request.orderId, invoice_number: request.invoiceNumber },
              ...(request.saveCardFor ? { setup_future_usage: "off_session" as const } : {}),
            },
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: request.currency.toLowerCase(),
                  unit_amount: toStripeAmount(request.amount, request.currency),
                  product_data: {
                    name: request.description,
                    description: `Invoice ${request.invoiceNumber}`,
                  },
                },
              },
            ],
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return { url: session.url, reference: session.id };
      } catch (error) {
        throw new PaymentProviderError(error instanceof Error ? error.message : String(error));
      }
    },

    async createCustomer({ clientId, email, name }) {
      try {
        const customer = await stripe.customers.create(
          { email, name, metadata: { client_id: clientId } },
          { idempotencyKey: `customer:${clientId}` },
        );
        return customer.id;
      } catch (error) {
        throw fail(error);
      }
    },

    async createCardSetup(request) {
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: "setup",
            customer: request.customerId,
            currency: request.currency.toLowerCase(),
            metadata: request.metadata,
            setup_intent_data: { description: request.description, metadata: request.metadata },
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return { url: session.url, reference: session.id };
      } catch (error) {
        throw fail(error);
      }
    },

    async savedCardOf(reference) {
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.retrieve(reference, {
          expand: ["payment_intent.payment_method", "setup_intent.payment_method"],
        });
      } catch (error) {
        const code = (error as { code?: unknown; statusCode?: unknown }) ?? {};
        if (code.code === "resource_missing" || code.statusCode === 404) return null;
        throw fail(error);
      }
      if (session.status !== "complete") return null;
      const intent = session.mode === "setup" ? session.setup_intent : session.payment_intent;
      if (!intent || typeof intent === "string") return null;
      return savedCardFrom(intent.payment_method as string | Stripe.PaymentMethod | null, session.customer);
    },

    async chargeSavedCard(request) {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: toStripeAmount(request.amount, request.currency),
            currency: request.currency.toLowerCase(),
            customer: request.customerId,
            payment_method: request.paymentMethodId,
            off_session: true,
            confirm: true,
            description: request.description,
            metadata: {
              order_id: request.orderId,
              invoice_id: request.invoiceId,
              invoice_number: request.invoiceNumber,
            },
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return chargeResultOf(intent);
      } catch (error) {
        // A decline is an error with the card's reasons (and the PaymentIntent it left); anything else
        // (the network, a bad key) is the provider failing.
        const e = error as {
          type?: string;
          code?: string;
          decline_code?: string;
          advice_code?: string;
          message?: string;
          payment_intent?: { id?: string };
        };
        if (e?.type === "StripeCardError" || e?.code === "authentication_required") {
          return {
            status: "declined",
            paymentReference: e.payment_intent?.id ?? null,
            decline: {
              code: e.code ?? null,
              declineCode: e.decline_code ?? null,
              adviceCode: e.advice_code ?? null,
            },
            message: e.message ?? "The card was declined.",
          };
        }
        throw fail(error);
      }
    },

    async refund(request: RefundRequest): Promise<RefundOutcome> {
      try {
        const refund = await stripe.refunds.create(
          {
            payment_intent: request.paymentReference,
            amount: toStripeAmount(request.amount, request.currency),
            metadata: {
              refund_id: request.refundId,
              invoice_id: request.invoiceId,
              order_id: request.orderId,
            },
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return {
          status: refundStatus(refund.status),
          providerRefundId: refund.id,
          failureReason: refund.failure_reason ?? null,
        };
      } catch (error) {
        throw new PaymentProviderError(error instanceof Error ? error.message : String(error));
      }
    },

    async expireCheckout(reference: string): Promise<void> {
      try {
        await stripe.checkout.sessions.expire(reference);
      } catch (error) {
        throw new PaymentProviderError(error instanceof Error ? error.message : String(error));
      }
    },

    async retrieveCheckout(reference: string): Promise<CheckoutStatus> {
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.retrieve(reference);
      } catch (error) {
        const code = (error as { code?: unknown; statusCode?: unknown }) ?? {};
        if (code.code === "resource_missing" || code.statusCode === 404) {
          return { status: "unknown", amount: null, currency: null };
        }
        throw new PaymentProviderError(error instanceof Error ? error.message : String(error));
      }
      const currency = session.currency?.toUpperCase() ?? null;
      const amount =
        session.amount_total != null && currency ? fromStripeAmount(session.amount_total, currency) : null;
      if (session.payment_status === "paid") {
        const intent = session.payment_intent;
        return {
          status: "paid",
          amount,
          currency,
          paymentReference: (typeof intent === "string" ? intent : intent?.id) ?? session.id,
        };
      }
      return { status: session.status === "expired" ? "expired" : "open", amount, currency };
    },

    verifyWebhook(rawBody, headers): VerifiedPaymentEvent {
      const signature = headers.get("stripe-signature");
      if (!signature) throw new WebhookVerificationError("missing signature");
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      } catch (error) {
        throw new WebhookVerificationError((error as Error).message);
      }
      const base = {
        provider: "stripe" as const,
        eventId: event.id,
        type: event.type,
        payload: event,
      };
      if (event.type.startsWith("checkout.session.")) {
        const session = event.data.object as Stripe.Checkout.Session;
        const currency = session.currency?.toUpperCase() ?? null;
        const paid =
          (event.type === "checkout.session.completed" && session.payment_status === "paid") ||
          event.type === "checkout.session.async_payment_succeeded";
        return {
          ...base,
          kind: paid ? "paid" : event.type === "checkout.session.expired" ? "expired" : "other",
          orderId: session.metadata?.order_id ?? session.client_reference_id ?? null,
          // Every session Portico made carries its invoice (metadata since the first release).
          invoiceId: session.metadata?.invoice_id || null,
          amount:
            session.amount_total != null && currency
              ? fromStripeAmount(session.amount_total, currency)
              : null,
          currency,
          reference:
            (typeof session.payment_intent === "string"
              ? session.payment_intent
              : session.payment_intent?.id) ?? session.id,
        };
      }
      const refundBase = { ...base, kind: "refund" as const, amount: null, currency: null };
      if (
        event.type === "refund.created" ||
        event.type === "refund.updated" ||
        event.type === "refund.failed"
      ) {
        const update = stripeRefundUpdate(event.data.object as Stripe.Refund);
        const orderId = (event.data.object as Stripe.Refund).metadata?.order_id || null;
        return { ...refundBase, orderId, reference: update.paymentReference, refunds: [update] };
      }
      if (event.type === "charge.refunded") {
        // Since API version 2022-11-15 a charge carries its refunds only when expanded; refund.* events
        // report each refund in any case.
        const charge = event.data.object as Stripe.Charge;
        const refunds = (charge.refunds?.data ?? []).map(stripeRefundUpdate);
        return {
          ...refundBase,
          orderId: charge.metadata?.order_id || null,
          reference: idOf(charge.payment_intent) ?? charge.id,
          refunds,
        };
      }
      return { ...base, kind: "other", orderId: null, amount: null, currency: null, reference: null };
    },
  };
}
