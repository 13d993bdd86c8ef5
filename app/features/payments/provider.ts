/**
 * What a payment provider is (ARCHITECTURE.md "payments"): the interface every provider implements,
 * the requests and events it exchanges, and its two errors. Making a checkout is the part the orders'
 * checkout asks for, so its interface and request are declared there (orders/checkout-provider.ts,
 * ADR 0012) and extended here. The providers (sandbox.server.ts, stripe.server.ts) import this module;
 * the factory that chooses one (provider.server.ts) imports them, so nothing imports in a circle.
 */
import type { CheckoutProvider, CheckoutResult } from "~/features/orders/checkout-provider";

export type ProviderName = "sandbox" | "stripe";

/** A stored provider name ('sandbox', 'stripe'; not 'manual' or null) that a provider answers to. */
export function isProviderName(name: string | null | undefined): name is ProviderName {
  return name === "sandbox" || name === "stripe";
}

/** A refund asked of the provider (ADR 0505). */
export interface RefundRequest {
  /** Portico's refund id: the provider keeps it (metadata), so its webhooks name the refund. */
  refundId: string;
  invoiceId: string;
  orderId: string;
  /** The provider's payment id the invoice was paid with (a PaymentIntent, a sandbox checkout). */
  paymentReference: string;
  /** In major units of `currency`, already exact for the currency. */
  amount: number;
  currency: string;
  /** The same key makes the same refund, however many times it is asked. */
  idempotencyKey: string;
}

/** What the provider did with a refund (or a webhook says it did). */
export interface RefundOutcome {
  status: "succeeded" | "pending" | "failed";
  /** The provider's refund id (re_…); null when it made none. */
  providerRefundId: string | null;
  failureReason?: string | null;
}

/** One refund a webhook reports: ours (its metadata names `refundId`) or one made at the provider. */
export interface RefundUpdate extends RefundOutcome {
  providerRefundId: string;
  /** Portico's refund id from the provider's metadata; null for a refund made outside Portico. */
  refundId: string | null;
  /** The payment it gives back (to find the invoice of a refund made outside Portico). */
  paymentReference: string | null;
  amount: number;
  currency: string;
}

/** A webhook whose signature was verified, reduced to what the portal acts on. */
export interface VerifiedPaymentEvent {
  provider: ProviderName;
  /** The provider's unique event id: the idempotency key of processing. */
  eventId: string;
  type: string;
  /** paid: the checkout was paid; expired: it ended unpaid; refund: see `refunds`; other: recorded only. */
  kind: "paid" | "expired" | "refund" | "other";
  orderId: string | null;
  /**
   * The invoice the checkout was made for (the provider's metadata): a payment pays that invoice and no
   * other (an order may have a deposit and a balance). Null or absent for a checkout made before
   * checkouts named their invoice: it pays the order's open invoice, as it always did (ADR 0503).
   */
  invoiceId?: string | null;
  /** What was paid, in major units of `currency`; null when the event carries no amount. */
  amount: number | null;
  currency: string | null;
  /** The provider's payment or checkout id. */
  reference: string | null;
  /** kind refund: the refunds it reports (a charge.refunded may carry several). */
  refunds?: RefundUpdate[];
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

/** A card saved at the provider, to be charged without the client present (care plans, ADR 0531). */
export interface SavedCard {
  /** The provider's customer the card belongs to. */
  customerId: string;
  /** The provider's id of the saved card (a PaymentMethod). */
  paymentMethodId: string;
  /** "visa", "mastercard", …: shown with the last four digits. */
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** Why the provider refused a charge, in Stripe's words (the sandbox uses the same codes). */
export interface ChargeDecline {
  /** The error's `code`: `card_declined`, `expired_card`, `authentication_required`, … */
  code?: string | null;
  declineCode?: string | null;
  adviceCode?: string | null;
}

/** A charge of a saved card for an invoice, without the client present. */
export interface SavedCardCharge {
  customerId: string;
  paymentMethodId: string;
  orderId: string;
  invoiceId: string;
  invoiceNumber: string;
  description: string;
  /** The invoice total in `currency` (major units, already exact for the currency). */
  amount: number;
  currency: string;
  /** The same key makes at most one charge (one per plan, period and attempt). */
  idempotencyKey: string;
}

export type SavedCardChargeResult =
  | { status: "succeeded"; paymentReference: string }
  /** Accepted and not yet settled: the webhook (or the payment sweep) says how it ends. */
  | { status: "processing"; paymentReference: string }
  | { status: "declined"; paymentReference: string | null; decline: ChargeDecline; message: string };

/** A hosted page where a client saves a card for later charges (Stripe Checkout in setup mode). */
export interface CardSetupRequest {
  customerId: string;
  /** What the card is for, as the page shows it ("Care Plus: the card for renewals"). */
  description: string;
  /** The currency of the charges to come. */
  currency: string;
  successUrl: string;
  cancelUrl: string;
  idempotencyKey: string;
  /** Kept by the provider and returned with the page's events (e.g. the subscription it is for). */
  metadata: Record<string, string>;
}

/** What a provider offers for saved cards (ADR 0531): a customer, a card saved, a card charged. */
export interface SavedCardProvider {
  /**
   * Makes the provider's customer for a client. The caller keeps its id and asks once per client;
   * the same idempotency key gives the same customer while the provider remembers the key.
   */
  createCustomer(request: { clientId: string; email: string; name: string }): Promise<string>;
  createCardSetup(request: CardSetupRequest): Promise<CheckoutResult>;
  /**
   * The card a completed checkout left on file: a payment made with `saveCardFor`, or a card setup;
   * null when it saved none (not completed, or no card).
   */
  savedCardOf(checkoutReference: string): Promise<SavedCard | null>;
  /** Charges a saved card off-session; declines are answered, not thrown. Throws PaymentProviderError. */
  chargeSavedCard(request: SavedCardCharge): Promise<SavedCardChargeResult>;
}

export interface PaymentProvider extends CheckoutProvider, SavedCardProvider {
  readonly name: ProviderName;
  /**
   * Gives back (part of) a payment; the same idempotency key makes one refund. Throws
   * PaymentProviderError when the provider cannot be reached or refuses outright.
   */
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /** Asks the provider about a checkout by its reference; throws PaymentProviderError when it cannot say. */
  retrieveCheckout(reference: string): Promise<CheckoutStatus>;
  /**
   * Ends an open checkout so it can no longer be paid (its order was cancelled); throws
   * PaymentProviderError when the provider refuses (already paid or expired) or cannot be reached.
   */
  expireCheckout(reference: string): Promise<void>;
  /** Verifies a webhook on its raw body; throws WebhookVerificationError. */
  verifyWebhook(rawBody: string, headers: Headers): VerifiedPaymentEvent;
}
