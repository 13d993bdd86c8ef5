import { describe, expect, it } from "vitest";
import { PaymentProviderError, type RefundRequest, WebhookVerificationError } from "./provider";
import {
  createSandboxProvider,
  memorySandboxStore,
  SANDBOX_SIGNATURE_HEADER,
  type SandboxProvider,
  sandboxRefundId,
  signSandboxPayload,
  verifySandboxSignature,
} from "./sandbox.server";
import { fromStripeAmount, toStripeAmount } from "./stripe.server";

const SECRET = "unit-test-secret-0123456789";

describe("sandbox webhook signatures", () => {
  it("accepts its own signature and refuses a wrong, stale or missing one", () => {
    const body = '{"id":"evt_1"}';
    const now = 1_800_000_000;
    expect(() =>
      verifySandboxSignature(SECRET, body, signSandboxPayload(SECRET, body, now), now),
    ).not.toThrow();
    expect(() =>
      verifySandboxSignature(SECRET, `${body} `, signSandboxPayload(SECRET, body, now), now),
    ).toThrow(WebhookVerificationError);
    expect(() =>
      verifySandboxSignature("other-secret-0123456", body, signSandboxPayload(SECRET, body, now), now),
    ).toThrow(WebhookVerificationError);
    expect(() =>
      verifySandboxSignature(SECRET, body, signSandboxPayload(SECRET, body, now - 301), now),
    ).toThrow(/too old/);
    expect(() => verifySandboxSignature(SECRET, body, null, now)).toThrow(/missing/);
    expect(() => verifySandboxSignature(SECRET, body, "garbage", now)).toThrow(/malformed/);
  });
});

describe("sandbox checkout sessions", () => {
  const provider = createSandboxProvider({ secret: SECRET, webhookUrl: "http://127.0.0.1:1/hook" });
  const request = {
    orderId: "0b6c4c8e-7c43-4d51-9c55-0f6f1d9b0a11",
    invoiceId: "i",
    invoiceNumber: "INV-2026-0001",
    description: "Email Migration & Setup — Per Mailbox × 20",
    amount: 80,
    currency: "USD",
    customerEmail: "a@example.com",
    successUrl: "http://x/payment-success",
    cancelUrl: "http://x/client/purchase/email-migration",
    idempotencyKey: "0b6c4c8e-7c43-4d51-9c55-0f6f1d9b0a11",
  };

  it("gives the same session for the same idempotency key, readable only with its signature", async () => {
    const a = await provider.createCheckout(request);
    const b = await provider.createCheckout(request);
    expect(a).toEqual(b);
    const token = new URL(a.url!, "http://x").searchParams.get("session")!;
    expect(provider.readSession(token)).toMatchObject({
      orderId: request.orderId,
      amount: 80,
      currency: "USD",
    });
    expect(provider.readSession(`${token}x`)).toBeNull();
    expect(provider.readSession("e30.0000")).toBeNull();
  });

  it("posts one signed completed event per session", async () => {
    const sent: Array<{ body: string; signature: string | null }> = [];
    const paying = createSandboxProvider({
      secret: SECRET,
      webhookUrl: "http://127.0.0.1:1/hook",
      fetch: async (_url, init) => {
        const headers = new Headers(init?.headers);
        sent.push({ body: String(init?.body), signature: headers.get(SANDBOX_SIGNATURE_HEADER) });
        return new Response("{}", { status: 200 });
      },
    });
    const { url } = await paying.createCheckout(request);
    const session = paying.readSession(new URL(url!, "http://x").searchParams.get("session")!)!;
    await paying.pay(session);
    await paying.pay(session);
    expect(sent[0]!.body).toBe(sent[1]!.body);
    const event = paying.verifyWebhook(
      sent[0]!.body,
      new Headers({ [SANDBOX_SIGNATURE_HEADER]: sent[0]!.signature! }),
    );
    expect(event).toMatchObject({
      provider: "sandbox",
      kind: "paid",
      orderId: request.orderId,
      invoiceId: request.invoiceId,
      amount: 80,
      currency: "USD",
    });

    // A page of a checkout made before sessions named their invoice: paid, it names none (the
    // portal then pays the order's open invoice, as before).
    const { invoiceId: _none, ...old } = session;
    await paying.pay(old);
    const before = paying.verifyWebhook(
      sent[2]!.body,
      new Headers({ [SANDBOX_SIGNATURE_HEADER]: sent[2]!.signature! }),
    );
    expect(before).toMatchObject({ kind: "paid", orderId: request.orderId, invoiceId: null });
  });

  it("reports an undeliverable webhook as a provider error", async () => {
    const failing = createSandboxProvider({
      secret: SECRET,
      webhookUrl: "http://127.0.0.1:1/hook",
      fetch: async () => new Response("nope", { status: 500 }),
    });
    const { url } = await failing.createCheckout(request);
    const session = failing.readSession(new URL(url!, "http://x").searchParams.get("session")!)!;
    await expect(failing.pay(session)).rejects.toThrow(/answered 500/);
  });
});

describe("Stripe amounts", () => {
  it("sends cents, and whole units for zero-decimal currencies", () => {
    expect(toStripeAmount(80, "USD")).toBe(8000);
    expect(toStripeAmount(73.6, "EUR")).toBe(7360);
    expect(toStripeAmount(1059, "JPY")).toBe(1059);
    expect(toStripeAmount(110000, "KRW")).toBe(110000);
    expect(fromStripeAmount(8000, "usd")).toBe(80);
    expect(fromStripeAmount(1059, "jpy")).toBe(1059);
  });
});

describe("sandbox refunds", () => {
  const ORDER = "6f0f3c1a-2b4d-4e8f-9a1b-3c5d7e9f1a2b";
  const REFUND = "1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e5f";

  /** A sandbox whose webhooks are caught by `answer` (a delivered 200 unless it says otherwise). */
  function sandbox(answer: () => Promise<Response> = async () => new Response("{}", { status: 200 })) {
    const sent: Array<{ url: string; body: string; signature: string | null }> = [];
    const provider = createSandboxProvider({
      secret: SECRET,
      webhookUrl: "http://127.0.0.1:1/api/payments/sandbox/webhook",
      store: memorySandboxStore(),
      fetch: async (url, init) => {
        sent.push({
          url: String(url),
          body: String(init?.body),
          signature: new Headers(init?.headers).get(SANDBOX_SIGNATURE_HEADER),
        });
        return answer();
      },
    });
    return { provider, sent };
  }

  const checkoutRequest = (amount: number, currency: string, paid: boolean) => ({
    orderId: ORDER,
    invoiceId: "i",
    invoiceNumber: "INV-2026-0042",
    description: "Email Migration & Setup — Per Mailbox × 20",
    amount,
    currency,
    customerEmail: "a@example.com",
    successUrl: "http://x/payment-success",
    cancelUrl: "http://x/client/purchase/email-migration",
    idempotencyKey: `${ORDER}:${amount}:${currency}:${paid}`,
  });

  /** A checkout of `amount` `currency`, paid unless `paid` is false; its reference. */
  async function checkout(provider: SandboxProvider, amount: number, currency = "USD", paid = true) {
    const { url, reference } = await provider.createCheckout(checkoutRequest(amount, currency, paid));
    if (paid)
      await provider.pay(provider.readSession(new URL(url!, "http://x").searchParams.get("session")!)!);
    return reference!;
  }

  const refundOf = (
    paymentReference: string,
    amount: number,
    refundId = REFUND,
    currency = "USD",
  ): RefundRequest => ({
    refundId,
    invoiceId: "0c9d8e7f-6a5b-4c3d-2e1f-0a9b8c7d6e5f",
    orderId: ORDER,
    paymentReference,
    amount,
    currency,
    idempotencyKey: `refund:${refundId}`,
  });

  it("answers succeeded and posts a signed refund.succeeded webhook naming Portico's refund and its own", async () => {
    const { provider, sent } = sandbox();
    const payment = await checkout(provider, 94.4);
    sent.length = 0;
    const outcome = await provider.refund(refundOf(payment, 30.1));
    const providerRefundId = sandboxRefundId(`refund:${REFUND}`);
    expect(providerRefundId).toMatch(/^re_sbx_[0-9a-f]{24}$/);
    expect(outcome).toEqual({ status: "succeeded", providerRefundId });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe("http://127.0.0.1:1/api/payments/sandbox/webhook");
    const event = provider.verifyWebhook(
      sent[0]!.body,
      new Headers({ [SANDBOX_SIGNATURE_HEADER]: sent[0]!.signature! }),
    );
    expect(event).toMatchObject({
      provider: "sandbox",
      type: "refund.succeeded",
      kind: "refund",
      orderId: ORDER,
      amount: null,
      currency: null,
      reference: payment,
      refunds: [
        {
          status: "succeeded",
          providerRefundId,
          refundId: REFUND,
          paymentReference: payment,
          amount: 30.1,
          currency: "USD",
        },
      ],
    });
    expect(event.eventId).toMatch(/^evt_sbx_[0-9a-f]{24}$/);
    // Tampered with, it is refused.
    expect(() =>
      provider.verifyWebhook(
        sent[0]!.body.replace("30.1", "94.4"),
        new Headers({ [SANDBOX_SIGNATURE_HEADER]: sent[0]!.signature! }),
      ),
    ).toThrow(WebhookVerificationError);
  });

  it("makes one refund per idempotency key: asked again, the same refund and event, counted once", async () => {
    const { provider, sent } = sandbox();
    const payment = await checkout(provider, 80);
    sent.length = 0;
    const first = await provider.refund(refundOf(payment, 60));
    const again = await provider.refund(refundOf(payment, 60));
    expect(again).toEqual(first);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    // Counted once: 20 is left, not nothing.
    const other = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b";
    const rest = await provider.refund(refundOf(payment, 20, other));
    expect(rest).toEqual({ status: "succeeded", providerRefundId: sandboxRefundId(`refund:${other}`) });
    expect(rest.providerRefundId).not.toBe(first.providerRefundId);
    await expect(
      provider.refund(refundOf(payment, 0.01, "7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d")),
    ).rejects.toThrow(PaymentProviderError);
  });

  it("refuses more than is left of the payment, saying how much is left", async () => {
    const { provider, sent } = sandbox();
    const payment = await checkout(provider, 94.4);
    await provider.refund(refundOf(payment, 30.1));
    sent.length = 0;
    const tooMuch = provider.refund(refundOf(payment, 64.31, "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"));
    await expect(tooMuch).rejects.toThrow(PaymentProviderError);
    await expect(tooMuch).rejects.toThrow(
      "the refund of 64.31 USD is more than the 64.3 USD left of the payment",
    );
    expect(sent).toHaveLength(0);
    // Exactly what is left is fine.
    const rest = await provider.refund(refundOf(payment, 64.3, "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"));
    expect(rest.status).toBe("succeeded");
  });

  it("refuses an unpaid or unknown checkout, and another currency", async () => {
    const { provider, sent } = sandbox();
    const unpaid = await checkout(provider, 80, "USD", false);
    await expect(provider.refund(refundOf(unpaid, 10))).rejects.toThrow(
      new PaymentProviderError(`no paid checkout ${unpaid}`),
    );
    await expect(provider.refund(refundOf("cs_sbx_unknown", 10))).rejects.toThrow(
      new PaymentProviderError("no paid checkout cs_sbx_unknown"),
    );
    const euros = await checkout(provider, 80, "EUR");
    await expect(provider.refund(refundOf(euros, 10))).rejects.toThrow(
      new PaymentProviderError("the payment was in EUR, not USD"),
    );
    expect(sent.filter((s) => s.body.includes("refund."))).toHaveLength(0);
  });

  it("a zero-decimal payment is refunded in whole units", async () => {
    const { provider } = sandbox();
    const yen = await checkout(provider, 12_000, "JPY");
    await provider.refund(refundOf(yen, 1_200, REFUND, "JPY"));
    await expect(
      provider.refund(refundOf(yen, 10_801, "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f", "JPY")),
    ).rejects.toThrow("the refund of 10801 JPY is more than the 10800 JPY left of the payment");
  });

  it("a webhook that cannot be delivered, or is answered with an error, leaves the refund made", async () => {
    for (const answer of [
      async (): Promise<Response> => {
        throw new TypeError("fetch failed");
      },
      async () => new Response("nope", { status: 500 }),
    ]) {
      const { provider, sent } = sandbox(answer);
      // Paying needs its webhook answered; the sandbox notes the payment first all the same.
      await expect(checkout(provider, 80)).rejects.toThrow(PaymentProviderError);
      const payment = (await provider.createCheckout(checkoutRequest(80, "USD", true))).reference!;
      expect((await provider.retrieveCheckout(payment)).status).toBe("paid");
      const outcome = await provider.refund(refundOf(payment, 30));
      expect(outcome).toEqual({ status: "succeeded", providerRefundId: sandboxRefundId(`refund:${REFUND}`) });
      expect(sent.at(-1)!.body).toContain('"type":"refund.succeeded"');
    }
  });
});
