/**
 * What a payment provider is (ARCHITECTURE.md "payments"): the interface every provider implements,
 * the requests and events it exchanges, and its two errors. The providers (sandbox.server.ts,
 * stripe.server.ts) import this module; the factory that chooses one (provider.server.ts) imports them,
 * so nothing imports in a circle.
 */
export type ProviderName = "sandbox" | "stripe";

export interface CheckoutRequest {
  orderId: string;
  invoiceId: string;
  invoiceNumber: string;
  /** What is bought, as the checkout page shows it ("Email Migration & Setup — Per Mailbox × 20"). */
  description: string;
  /** The invoice total in `currency` (major units, already rounded for the currency). */
  amount: number;
  currency: string;
  customerEmail: string;
  /** Absolute URLs the provider returns the browser to. */
  successUrl: string;
  cancelUrl: string;
  /** The same key gives the same checkout (the order id for the first checkout of an order). */
  idempotencyKey: string;
}

export interface CheckoutResult {
  /** Where to send the browser; null when the provider needs no page (then /payment-success). */
  url: string | null;
  /** The provider's id of the checkout (kept on the order). */
  reference: string | null;
}

/** A webhook whose signature was verified, reduced to what the portal acts on. */
export interface VerifiedPaymentEvent {
  provider: ProviderName;
  /** The provider's unique event id: the idempotency key of processing. */
  eventId: string;
  type: string;
  /** paid: the checkout was paid; expired: it ended unpaid; other: recorded only. */
  kind: "paid" | "expired" | "other";
  orderId: string | null;
  /** What was paid, in major units of `currency`; null when the event carries no amount. */
  amount: number | null;
  currency: string | null;
  /** The provider's payment or checkout id. */
  reference: string | null;
  payload: unknown;
}

/** A webhook with a missing or wrong signature, or a body that is not an event: answered 400. */
export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}

/** The provider could not make a checkout; its message is shown as 'Failed to create payment: {message}'. */
export class PaymentProviderError extends Error {
  override name = "PaymentProviderError";
}

/** What the provider says about one of its checkouts when asked (ADR 0503). */
export interface CheckoutStatus {
  /** paid: the checkout was paid; open: not yet; expired: it ended unpaid; unknown: no such checkout. */
  status: "paid" | "open" | "expired" | "unknown";
  /** What the checkout is for, in major units of `currency`; null when the provider does not say. */
  amount: number | null;
  currency: string | null;
  /** The provider's payment id, when paid (else the checkout's own id stands for it). */
  paymentReference?: string | null;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  createCheckout(request: CheckoutRequest): Promise<CheckoutResult>;
  /** Asks the provider about a checkout by its reference; throws PaymentProviderError when it cannot say. */
  retrieveCheckout(reference: string): Promise<CheckoutStatus>;
  /** Verifies a webhook on its raw body; throws WebhookVerificationError. */
  verifyWebhook(rawBody: string, headers: Headers): VerifiedPaymentEvent;
}
