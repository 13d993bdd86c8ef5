/**
 * The Stripe provider's saved cards through the official SDK against the fake Stripe on 127.0.0.1
 * (ADR 0531): a Customer per client, the first payment saving its card (`setup_future_usage`), a
 * setup-mode Checkout Session, the saved card read back with its brand and digits, and off-session
 * PaymentIntents that succeed or decline with Stripe's codes, at most once per idempotency key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentProvider } from "~/features/payments/provider";
import { PaymentProviderError } from "~/features/payments/provider";
import { createStripeProvider } from "~/features/payments/stripe.server";
import { classifyDecline } from "~/features/plans/dunning";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe";

let fake: FakeStripe;
let stripe: PaymentProvider;

beforeAll(async () => {
  fake = await startFakeStripe();
  stripe = createStripeProvider({
    secretKey: "sk_test_saved_cards",
    webhookSecret: "whsec_x",
    apiUrl: fake.url,
  });
});
afterAll(async () => {
  await fake?.close();
});

const FIRST_PERIOD = {
  orderId: "0b6c4c8e-7c43-4d51-9c55-0f6f1d9b0a11",
  invoiceId: "7d2d1f0e-3c1b-4f0a-9e8d-6c5b4a392817",
  invoiceNumber: "INV-2027-0001",
  description: "Care Plus — monthly",
  amount: 129,
  currency: "EUR",
  customerEmail: "ada@example.com",
  successUrl: "http://localhost/thank-you",
  cancelUrl: "http://localhost/client/plans",
};

/** A customer whose first period was paid with `card`: its saved card. */
async function paidFirstPeriodWith(card: string, clientId: string) {
  const customerId = await stripe.createCustomer({ clientId, email: `${clientId}@example.com`, name: "Ada" });
  const checkout = await stripe.createCheckout({
    ...FIRST_PERIOD,
    idempotencyKey: `first:${clientId}`,
    saveCardFor: { customerId },
  });
  fake.pay(checkout.reference!, card);
  const saved = await stripe.savedCardOf(checkout.reference!);
  if (!saved) throw new Error("no card saved");
  return { customerId, saved, checkout };
}

const renewal = (customerId: string, paymentMethodId: string, idempotencyKey: string) => ({
  customerId,
  paymentMethodId,
  orderId: FIRST_PERIOD.orderId,
  invoiceId: FIRST_PERIOD.invoiceId,
  invoiceNumber: "INV-2027-0002",
  description: "Care Plus — renewal",
  amount: 129.5,
  currency: "EUR",
  idempotencyKey,
});

describe("Stripe saved cards", () => {
  it("makes one Customer per client (the same key, the same customer)", async () => {
    const a = await stripe.createCustomer({ clientId: "client-a", email: "a@example.com", name: "A" });
    expect(a).toMatch(/^cus_test_/);
    expect(await stripe.createCustomer({ clientId: "client-a", email: "a@example.com", name: "A" })).toBe(a);
    expect(fake.customers.get(a)).toMatchObject({
      email: "a@example.com",
      metadata: { client_id: "client-a" },
    });
  });

  it("the first payment saves its card on the customer, and the card is read back", async () => {
    const { customerId, saved, checkout } = await paidFirstPeriodWith("pm_card_visa", "client-b");
    const request = fake.requests.find((r) => r.idempotencyKey === "first:client-b")!.fields;
    expect(request.get("customer")).toBe(customerId);
    expect(request.get("customer_email")).toBeNull();
    expect(request.get("payment_intent_data[setup_future_usage]")).toBe("off_session");
    expect(saved).toEqual({
      customerId,
      paymentMethodId: "pm_card_visa",
      brand: "visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2034,
    });
    // An ordinary checkout keeps the email and saves nothing.
    const plain = await stripe.createCheckout({ ...FIRST_PERIOD, idempotencyKey: "plain" });
    const fields = fake.requests.find((r) => r.idempotencyKey === "plain")!.fields;
    expect(fields.get("customer_email")).toBe("ada@example.com");
    expect(fields.get("payment_intent_data[setup_future_usage]")).toBeNull();
    fake.pay(plain.reference!);
    expect(await stripe.savedCardOf(plain.reference!)).toBeNull();
    expect(checkout.reference).not.toBe(plain.reference);
  });

  it("an unpaid checkout or an unknown one has no card", async () => {
    const customerId = await stripe.createCustomer({
      clientId: "client-c",
      email: "c@example.com",
      name: "C",
    });
    const open = await stripe.createCheckout({
      ...FIRST_PERIOD,
      idempotencyKey: "open",
      saveCardFor: { customerId },
    });
    expect(await stripe.savedCardOf(open.reference!)).toBeNull();
    expect(await stripe.savedCardOf("cs_test_missing")).toBeNull();
  });

  it("a setup-mode session saves a new card and charges nothing", async () => {
    const customerId = await stripe.createCustomer({
      clientId: "client-d",
      email: "d@example.com",
      name: "D",
    });
    const setup = await stripe.createCardSetup({
      customerId,
      description: "Care Plus: the card for renewals",
      currency: "EUR",
      successUrl: "http://localhost/client/plans?card=saved",
      cancelUrl: "http://localhost/client/plans",
      idempotencyKey: "setup:client-d:1",
      metadata: { subscription_id: "sub-d" },
    });
    const fields = fake.requests.find((r) => r.idempotencyKey === "setup:client-d:1")!.fields;
    expect(fields.get("mode")).toBe("setup");
    expect(fields.get("currency")).toBe("eur");
    expect(fields.get("setup_intent_data[metadata][subscription_id]")).toBe("sub-d");
    fake.pay(setup.reference!, "pm_card_chargeDeclinedStolenCard");
    expect(await stripe.savedCardOf(setup.reference!)).toMatchObject({ customerId, last4: "9979" });
    expect(fake.sessions.get(setup.reference!)?.payment_intent).toBeNull();
  });

  it("charges a saved card off-session in minor units, once per idempotency key", async () => {
    const { customerId, saved } = await paidFirstPeriodWith("pm_card_visa", "client-e");
    const first = await stripe.chargeSavedCard(
      renewal(customerId, saved.paymentMethodId, "plan:e:period:1:attempt:0"),
    );
    expect(first).toEqual({ status: "succeeded", paymentReference: expect.stringMatching(/^pi_test_/) });
    const again = await stripe.chargeSavedCard(
      renewal(customerId, saved.paymentMethodId, "plan:e:period:1:attempt:0"),
    );
    expect(again).toEqual(first);
    const sent = fake.paymentIntentRequests.filter((r) => r.idempotencyKey === "plan:e:period:1:attempt:0");
    expect(sent.length).toBeGreaterThanOrEqual(1);
    const fields = sent[0]!.fields;
    expect(fields.get("amount")).toBe("12950");
    expect(fields.get("currency")).toBe("eur");
    expect(fields.get("off_session")).toBe("true");
    expect(fields.get("confirm")).toBe("true");
    expect(fields.get("metadata[invoice_id]")).toBe(FIRST_PERIOD.invoiceId);
    // A renewal payment can be refunded like any other.
    if (first.status !== "succeeded") throw new Error("expected a payment");
    const refund = await stripe.refund({
      refundId: "refund-e",
      invoiceId: FIRST_PERIOD.invoiceId,
      orderId: FIRST_PERIOD.orderId,
      paymentReference: first.paymentReference,
      amount: 29.5,
      currency: "EUR",
      idempotencyKey: "refund:e",
    });
    expect(refund.status).toBe("succeeded");
  });

  it("answers declines with Stripe's codes, classified soft, hard or authentication", async () => {
    const cases: Array<[string, string, ReturnType<typeof classifyDecline>]> = [
      ["pm_card_chargeDeclinedInsufficientFunds", "insufficient_funds", "soft"],
      ["pm_card_chargeDeclinedStolenCard", "stolen_card", "hard"],
      ["pm_card_authenticationRequired", "authentication_required", "authentication"],
      ["pm_card_chargeDeclinedDoNotTryAgain", "generic_decline", "hard"],
    ];
    for (const [card, declineCode, kind] of cases) {
      const { customerId, saved } = await paidFirstPeriodWith(card, `client-${card}`);
      const result = await stripe.chargeSavedCard(renewal(customerId, saved.paymentMethodId, `k:${card}`));
      expect(result, card).toMatchObject({ status: "declined", decline: { declineCode } });
      if (result.status !== "declined") throw new Error("expected a decline");
      expect(result.paymentReference, card).toMatch(/^pi_test_/);
      expect(result.message.length, card).toBeGreaterThan(0);
      expect(classifyDecline(result.decline), card).toBe(kind);
    }
  });

  it("a card that is not the customer's is the provider refusing, not a decline", async () => {
    const { saved } = await paidFirstPeriodWith("pm_card_visa", "client-f");
    const other = await stripe.createCustomer({ clientId: "client-g", email: "g@example.com", name: "G" });
    await expect(
      stripe.chargeSavedCard(renewal(other, saved.paymentMethodId, "wrong-customer")),
    ).rejects.toThrow(PaymentProviderError);
  });
});
