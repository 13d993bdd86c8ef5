/**
 * The sandbox's saved cards (ADR 0531): a customer per client, a card saved by a payment or a setup page,
 * off-session charges that end as the chosen test card says (Stripe's codes), once per idempotency key.
 */
import { describe, expect, it } from "vitest";
import { PaymentProviderError } from "./provider";
import { createSandboxProvider, memorySandboxStore } from "./sandbox.server";
import type { SANDBOX_TEST_CARD_NAMES } from "./sandbox-cards";

const SECRET = "unit-test-secret-0123456789";

function sandbox(now = new Date("2027-01-15T10:00:00Z")) {
  const clock = { now };
  const hooks: string[] = [];
  const provider = createSandboxProvider({
    secret: SECRET,
    webhookUrl: "http://127.0.0.1:1/hook",
    store: memorySandboxStore(() => clock.now),
    now: () => clock.now,
    fetch: (async (_url: string, init: RequestInit) => {
      hooks.push(String(init.body));
      return new Response("ok");
    }) as typeof fetch,
  });
  return { provider, clock, hooks };
}

const CHECKOUT = {
  orderId: "0b6c4c8e-7c43-4d51-9c55-0f6f1d9b0a11",
  invoiceId: "7d2d1f0e-3c1b-4f0a-9e8d-6c5b4a392817",
  invoiceNumber: "INV-2027-0001",
  description: "Care Plus — monthly",
  amount: 129,
  currency: "USD",
  customerEmail: "ada@example.com",
  successUrl: "http://localhost/thank-you",
  cancelUrl: "http://localhost/client/plans",
  idempotencyKey: "first-period",
};

/** A client's card saved by paying their first period with `card`. */
async function cardSavedByPaying(
  s: ReturnType<typeof sandbox>,
  card: (typeof SANDBOX_TEST_CARD_NAMES)[number],
) {
  const customerId = await s.provider.createCustomer({
    clientId: "client-1",
    email: "ada@example.com",
    name: "Ada",
  });
  const checkout = await s.provider.createCheckout({
    ...CHECKOUT,
    idempotencyKey: `first:${card}`,
    saveCardFor: { customerId },
  });
  const token = new URL(checkout.url!, "http://x").searchParams.get("session")!;
  await s.provider.pay(s.provider.readSession(token)!, card);
  const saved = await s.provider.savedCardOf(checkout.reference!);
  return { customerId, saved: saved!, checkout };
}

const charge = (customerId: string, paymentMethodId: string, idempotencyKey: string) => ({
  customerId,
  paymentMethodId,
  orderId: CHECKOUT.orderId,
  invoiceId: CHECKOUT.invoiceId,
  invoiceNumber: "INV-2027-0002",
  description: "Care Plus — renewal",
  amount: 129,
  currency: "USD",
  idempotencyKey,
});

describe("sandbox saved cards", () => {
  it("one customer per client, the same id every time", async () => {
    const { provider } = sandbox();
    const a = await provider.createCustomer({ clientId: "client-1", email: "a@example.com", name: "A" });
    expect(a).toMatch(/^cus_sbx_/);
    expect(await provider.createCustomer({ clientId: "client-1", email: "a@example.com", name: "A" })).toBe(
      a,
    );
    expect(
      await provider.createCustomer({ clientId: "client-2", email: "b@example.com", name: "B" }),
    ).not.toBe(a);
  });

  it("a first payment that saves the card: its webhook is sent, and the card is on file with its brand and digits", async () => {
    const s = sandbox();
    const { customerId, saved } = await cardSavedByPaying(s, "succeeds");
    expect(s.hooks).toHaveLength(1);
    expect(saved).toEqual({
      customerId,
      paymentMethodId: expect.stringMatching(/^pm_sbx_/),
      brand: "visa",
      last4: "4242",
      expMonth: 1,
      expYear: 2030,
    });
  });

  it("a checkout that saves nothing leaves no card; a card is not saved twice by one checkout", async () => {
    const s = sandbox();
    const plain = await s.provider.createCheckout(CHECKOUT);
    const token = new URL(plain.url!, "http://x").searchParams.get("session")!;
    await s.provider.pay(s.provider.readSession(token)!, "stolen");
    expect(await s.provider.savedCardOf(plain.reference!)).toBeNull();
    const { checkout, saved } = await cardSavedByPaying(s, "insufficient_funds");
    const session = s.provider.readSession(new URL(checkout.url!, "http://x").searchParams.get("session")!)!;
    await s.provider.saveCard(session, "succeeds");
    expect(await s.provider.savedCardOf(checkout.reference!)).toEqual(saved);
  });

  it("a succeeding card is charged once per key; the payment can be looked up and refunded", async () => {
    const s = sandbox();
    const { customerId, saved } = await cardSavedByPaying(s, "succeeds");
    const first = await s.provider.chargeSavedCard(
      charge(customerId, saved.paymentMethodId, "plan:1:period:1:attempt:0"),
    );
    expect(first).toEqual({ status: "succeeded", paymentReference: expect.stringMatching(/^pi_sbx_/) });
    const again = await s.provider.chargeSavedCard(
      charge(customerId, saved.paymentMethodId, "plan:1:period:1:attempt:0"),
    );
    expect(again).toEqual(first);
    const next = await s.provider.chargeSavedCard(
      charge(customerId, saved.paymentMethodId, "plan:1:period:2:attempt:0"),
    );
    expect(next.status).toBe("succeeded");
    expect(next.status === "succeeded" && next.paymentReference).not.toBe(
      first.status === "succeeded" && first.paymentReference,
    );
    if (first.status !== "succeeded") throw new Error("expected a payment");
    expect(await s.provider.retrieveCheckout(first.paymentReference)).toEqual({
      status: "paid",
      amount: 129,
      currency: "USD",
      paymentReference: first.paymentReference,
    });
    const refund = await s.provider.refund({
      refundId: "r1",
      invoiceId: CHECKOUT.invoiceId,
      orderId: CHECKOUT.orderId,
      paymentReference: first.paymentReference,
      amount: 29,
      currency: "USD",
      idempotencyKey: "refund-1",
    });
    expect(refund.status).toBe("succeeded");
  });

  it("declining cards answer Stripe's codes, and no payment is made", async () => {
    const cases = {
      insufficient_funds: { code: "card_declined", declineCode: "insufficient_funds" },
      stolen: { code: "card_declined", declineCode: "stolen_card" },
      authentication: { code: "authentication_required", declineCode: "authentication_required" },
    } as const;
    for (const [card, decline] of Object.entries(cases)) {
      const s = sandbox();
      const { customerId, saved } = await cardSavedByPaying(s, card as keyof typeof cases);
      const result = await s.provider.chargeSavedCard(charge(customerId, saved.paymentMethodId, `k:${card}`));
      expect(result, card).toMatchObject({ status: "declined", decline });
      if (result.status !== "declined" || !result.paymentReference) throw new Error("expected a decline");
      expect((await s.provider.retrieveCheckout(result.paymentReference)).status).toBe("unknown");
    }
  });

  it("a card that has expired by the charge's day is declined as expired_card", async () => {
    const s = sandbox(new Date("2027-01-15T10:00:00Z"));
    const { customerId, saved } = await cardSavedByPaying(s, "expiring");
    expect(saved).toMatchObject({ brand: "mastercard", last4: "4444", expMonth: 1, expYear: 2027 });
    expect((await s.provider.chargeSavedCard(charge(customerId, saved.paymentMethodId, "jan"))).status).toBe(
      "succeeded",
    );
    s.clock.now = new Date("2027-02-01T00:00:00Z");
    expect(await s.provider.chargeSavedCard(charge(customerId, saved.paymentMethodId, "feb"))).toMatchObject({
      status: "declined",
      decline: { code: "expired_card" },
    });
  });

  it("refuses an unknown card, or another customer's", async () => {
    const s = sandbox();
    const { customerId, saved } = await cardSavedByPaying(s, "succeeds");
    await expect(s.provider.chargeSavedCard(charge(customerId, "pm_sbx_nope", "x"))).rejects.toThrow(
      PaymentProviderError,
    );
    await expect(
      s.provider.chargeSavedCard(charge("cus_sbx_other", saved.paymentMethodId, "y")),
    ).rejects.toThrow(PaymentProviderError);
  });

  it("a card setup page saves the chosen card and charges nothing", async () => {
    const s = sandbox();
    const customerId = await s.provider.createCustomer({
      clientId: "client-9",
      email: "c@example.com",
      name: "C",
    });
    const setup = await s.provider.createCardSetup({
      customerId,
      description: "Care Plus: the card for renewals",
      currency: "EUR",
      successUrl: "http://localhost/client/plans?card=saved",
      cancelUrl: "http://localhost/client/plans",
      idempotencyKey: "setup-1",
      metadata: { subscription_id: "sub-1" },
    });
    expect(setup.reference).toMatch(/^cs_setup_sbx_/);
    const session = s.provider.readSession(new URL(setup.url!, "http://x").searchParams.get("session")!)!;
    expect(session).toMatchObject({ mode: "setup", saveCardFor: customerId, amount: 0 });
    expect(await s.provider.savedCardOf(setup.reference!)).toBeNull();
    await expect(s.provider.pay(session)).rejects.toThrow(PaymentProviderError);
    await s.provider.saveCard(session, "authentication");
    expect(await s.provider.savedCardOf(setup.reference!)).toMatchObject({ customerId, last4: "3184" });
    expect(s.hooks).toHaveLength(0);
  });
});
