import { describe, expect, it } from "vitest";
import { WebhookVerificationError } from "./provider";
import {
  createSandboxProvider,
  SANDBOX_SIGNATURE_HEADER,
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
      amount: 80,
      currency: "USD",
    });
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
