/**
 * What checkout asks of a payment provider: a hosted checkout for an invoice. Declared here, in
 * orders, so the checkout depends on this interface only (ADR 0012: payments sits above orders); the
 * providers implement it (`PaymentProvider` in payments/provider.ts extends it) and the runtime's
 * active provider reaches the checkout through `orderDeps` (payments/deps.server.ts).
 */

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
  /**
   * Saves the card used for later charges without the client present (a care plan's first period,
   * ADR 0531), on this provider customer. The customer's email then stands for `customerEmail`.
   */
  saveCardFor?: { customerId: string };
}

export interface CheckoutResult {
  /** Where to send the browser; null when the provider needs no page (then /payment-success). */
  url: string | null;
  /** The provider's id of the checkout (kept on the order). */
  reference: string | null;
}

export interface CheckoutProvider {
  /** Kept on the order and the invoice with the checkout's reference ('sandbox', 'stripe'). */
  readonly name: string;
  /** Throws PaymentProviderError (payments/provider.ts) when the provider cannot make one. */
  createCheckout(request: CheckoutRequest): Promise<CheckoutResult>;
}
