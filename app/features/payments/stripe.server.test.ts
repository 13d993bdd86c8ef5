/**
 * The Stripe provider's refund side without a network: Refund objects read into the portal's updates,
 * and refund.* and charge.refunded webhooks verified with signatures made by the stripe package's own
 * test helper.
 */
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { WebhookVerificationError } from "./provider";
import { createStripeProvider, stripeRefundUpdate } from "./stripe.server";

const WEBHOOK_SECRET = "whsec_unit_test_refunds";
const stripe = new Stripe("sk_test_unit");
const provider = createStripeProvider({
  secretKey: "sk_test_unit",
  webhookSecret: WEBHOOK_SECRET,
  apiUrl: null,
});

const REFUND_ID = "5b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e";
const ORDER_ID = "0a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d";

function refundObject(overrides: Record<string, unknown> = {}) {
  return {
    id: "re_unit_1",
    object: "refund",
    amount: 3000,
    currency: "usd",
    status: "succeeded",
    payment_intent: "pi_unit_1",
    charge: "ch_unit_1",
    metadata: { refund_id: REFUND_ID, order_id: ORDER_ID, invoice_id: "inv" },
    failure_reason: null,
    created: 1_800_000_000,
    ...overrides,
  };
}

function event(id: string, type: string, object: unknown) {
  return {
    id,
    object: "event",
    type,
    api_version: "2025-01-01",
    created: Math.floor(Date.now() / 1000),
    data: { object },
  };
}

/** Verifies `body` signed with `secret` (the endpoint's by default) through the provider. */
function verify(body: unknown, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(body);
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret });
  return provider.verifyWebhook(payload, new Headers({ "stripe-signature": signature }));
}

describe("stripeRefundUpdate", () => {
  it("reads Portico's refund id, the payment and the amount in major units", () => {
    expect(stripeRefundUpdate(refundObject() as unknown as Stripe.Refund)).toEqual({
      status: "succeeded",
      providerRefundId: "re_unit_1",
      failureReason: null,
      refundId: REFUND_ID,
      paymentReference: "pi_unit_1",
      amount: 30,
      currency: "USD",
    });
  });

  it("maps Stripe's statuses to succeeded, pending and failed", () => {
    const status = (s: string | null) =>
      stripeRefundUpdate(refundObject({ status: s }) as unknown as Stripe.Refund).status;
    expect(status("succeeded")).toBe("succeeded");
    expect(status("pending")).toBe("pending");
    expect(status("requires_action")).toBe("pending");
    expect(status(null)).toBe("pending");
    expect(status("failed")).toBe("failed");
    expect(status("canceled")).toBe("failed");
    expect(
      stripeRefundUpdate(
        refundObject({
          status: "failed",
          failure_reason: "expired_or_canceled_card",
        }) as unknown as Stripe.Refund,
      ),
    ).toMatchObject({ status: "failed", failureReason: "expired_or_canceled_card" });
  });

  it("a zero-decimal currency is in whole units; a refund made at Stripe has no refund id", () => {
    expect(
      stripeRefundUpdate(refundObject({ amount: 1200, currency: "jpy" }) as unknown as Stripe.Refund),
    ).toMatchObject({ amount: 1200, currency: "JPY" });
    const dashboard = stripeRefundUpdate(refundObject({ metadata: {} }) as unknown as Stripe.Refund);
    expect(dashboard.refundId).toBeNull();
    expect(
      stripeRefundUpdate(refundObject({ metadata: null }) as unknown as Stripe.Refund).refundId,
    ).toBeNull();
    expect(
      stripeRefundUpdate(refundObject({ metadata: { refund_id: "" } }) as unknown as Stripe.Refund).refundId,
    ).toBeNull();
  });

  it("names the payment by its PaymentIntent, expanded or not, else by its charge", () => {
    const ref = (o: Record<string, unknown>) =>
      stripeRefundUpdate(refundObject(o) as unknown as Stripe.Refund).paymentReference;
    expect(ref({ payment_intent: { id: "pi_expanded", object: "payment_intent" } })).toBe("pi_expanded");
    expect(ref({ payment_intent: null })).toBe("ch_unit_1");
    expect(ref({ payment_intent: null, charge: { id: "ch_expanded", object: "charge" } })).toBe(
      "ch_expanded",
    );
    expect(ref({ payment_intent: null, charge: null })).toBeNull();
  });
});

describe("Stripe refund webhooks", () => {
  it("refund.created, refund.updated and refund.failed report their one refund", () => {
    for (const [type, status, expected] of [
      ["refund.created", "pending", "pending"],
      ["refund.updated", "succeeded", "succeeded"],
      ["refund.updated", "pending", "pending"],
      ["refund.failed", "failed", "failed"],
    ] as const) {
      const verified = verify(event(`evt_${type}_${status}`, type, refundObject({ status })));
      expect(verified, `${type} ${status}`).toMatchObject({
        provider: "stripe",
        eventId: `evt_${type}_${status}`,
        type,
        kind: "refund",
        orderId: ORDER_ID,
        amount: null,
        currency: null,
        reference: "pi_unit_1",
      });
      expect(verified.refunds).toEqual([
        {
          status: expected,
          providerRefundId: "re_unit_1",
          failureReason: null,
          refundId: REFUND_ID,
          paymentReference: "pi_unit_1",
          amount: 30,
          currency: "USD",
        },
      ]);
    }
  });

  it("a refund made in Stripe's dashboard: no order, no refund id, the PaymentIntent to find the invoice by", () => {
    const verified = verify(
      event("evt_dash", "refund.updated", refundObject({ id: "re_dash", metadata: {} })),
    );
    expect(verified).toMatchObject({ kind: "refund", orderId: null, reference: "pi_unit_1" });
    expect(verified.refunds).toEqual([
      {
        status: "succeeded",
        providerRefundId: "re_dash",
        failureReason: null,
        refundId: null,
        paymentReference: "pi_unit_1",
        amount: 30,
        currency: "USD",
      },
    ]);
  });

  it("charge.refunded reports every refund it carries, and none when they are not expanded", () => {
    const charge = {
      id: "ch_unit_1",
      object: "charge",
      amount: 9440,
      amount_refunded: 5000,
      currency: "usd",
      payment_intent: "pi_unit_1",
      metadata: { order_id: ORDER_ID },
      refunded: false,
      refunds: {
        object: "list",
        has_more: false,
        data: [
          refundObject(),
          refundObject({ id: "re_unit_2", amount: 2000, status: "pending", metadata: {} }),
        ],
      },
    };
    const verified = verify(event("evt_charge", "charge.refunded", charge));
    expect(verified).toMatchObject({
      provider: "stripe",
      type: "charge.refunded",
      kind: "refund",
      orderId: ORDER_ID,
      amount: null,
      currency: null,
      reference: "pi_unit_1",
    });
    expect(verified.refunds).toEqual([
      {
        status: "succeeded",
        providerRefundId: "re_unit_1",
        failureReason: null,
        refundId: REFUND_ID,
        paymentReference: "pi_unit_1",
        amount: 30,
        currency: "USD",
      },
      {
        status: "pending",
        providerRefundId: "re_unit_2",
        failureReason: null,
        refundId: null,
        paymentReference: "pi_unit_1",
        amount: 20,
        currency: "USD",
      },
    ]);
    const bare = verify(
      event("evt_bare", "charge.refunded", {
        ...charge,
        refunds: undefined,
        metadata: {},
        payment_intent: null,
      }),
    );
    expect(bare).toMatchObject({ kind: "refund", orderId: null, reference: "ch_unit_1", refunds: [] });
  });

  it("a completed Checkout Session names its order and invoice from its metadata (none when it has none)", () => {
    const session = {
      id: "cs_unit_1",
      object: "checkout.session",
      payment_status: "paid",
      status: "complete",
      amount_total: 50000,
      currency: "usd",
      client_reference_id: ORDER_ID,
      payment_intent: "pi_unit_9",
      metadata: { order_id: ORDER_ID, invoice_id: "inv" },
    };
    expect(verify(event("evt_cs_1", "checkout.session.completed", session))).toMatchObject({
      kind: "paid",
      orderId: ORDER_ID,
      invoiceId: "inv",
      amount: 500,
      currency: "USD",
      reference: "pi_unit_9",
    });
    const unnamed = { ...session, metadata: {} };
    expect(verify(event("evt_cs_2", "checkout.session.completed", unnamed))).toMatchObject({
      orderId: ORDER_ID,
      invoiceId: null,
    });
  });

  it("other events are recorded only", () => {
    expect(verify(event("evt_other", "charge.succeeded", { id: "ch_1", object: "charge" }))).toMatchObject({
      kind: "other",
      orderId: null,
      reference: null,
    });
  });

  it("refuses a refund event that is unsigned, signed with another secret, or altered", () => {
    const body = event("evt_forged", "refund.updated", refundObject());
    const payload = JSON.stringify(body);
    expect(() => provider.verifyWebhook(payload, new Headers())).toThrow(
      new WebhookVerificationError("missing signature"),
    );
    expect(() => verify(body, "whsec_someone_else")).toThrow(WebhookVerificationError);
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect(() =>
      provider.verifyWebhook(
        payload.replace('"amount":3000', '"amount":9440'),
        new Headers({ "stripe-signature": signature }),
      ),
    ).toThrow(WebhookVerificationError);
  });
});
