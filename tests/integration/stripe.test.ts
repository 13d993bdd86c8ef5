/**
 * The Stripe provider through the real HTTP server, against a fake Stripe API on 127.0.0.1 (the SDK's
 * host, port and protocol settings) and webhooks signed with the SDK's test-header helper: Checkout
 * Sessions in the order's currency (zero-decimal ones in whole units) with the order id as idempotency
 * key, provider failures, and signed, repeated and out-of-order webhooks. The fake Stripe lives in
 * tests/support/fake-stripe.ts.
 */
import { sql } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { createAccount, FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { Session, text } from "../support/browserless";
import { checkoutTokenIn, PASSWORD, signedInClient } from "../support/clients";
import { testDatabases } from "../support/databases";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe";
import { startTestServer, type TestServer } from "../support/server";
import { eventually } from "../support/smtp";

const WEBHOOK_SECRET = "whsec_test_portico_secret";
const stripe = new Stripe("sk_test_fake");

describe.each(testDatabases)("purchase with the Stripe provider on $name", (database) => {
  let server: TestServer;
  let fake: FakeStripe;
  const db = () => server.portico.runtime.database.db;

  beforeAll(async () => {
    fake = await startFakeStripe();
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_portico",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
    });
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  async function purchase(session: Session, fields: Record<string, string> = {}) {
    const page = await session.get("/client/purchase/email-migration");
    const checkoutToken = checkoutTokenIn(await page.text());
    return session.post("/client/purchase/email-migration", {
      checkoutToken,
      package: "basic",
      quantity: "20",
      currency: "USD",
      ...fields,
    });
  }

  const orderOf = async (clientId: string) =>
    (
      await queryRows<{ id: string; status: string; provider_reference: string | null }>(
        db(),
        sql`select id, status, provider_reference from orders where client_id = ${clientId} order by created_at desc limit 1`,
      )
    )[0]!;
  const invoiceOf = async (orderId: string) =>
    (
      await queryRows<{
        status: string;
        paid_at: Date | null;
        total_amount: string;
        currency: string;
        payment_reference: string | null;
      }>(
        db(),
        sql`select status, paid_at, total_amount, currency, payment_reference from invoices where order_id = ${orderId}`,
      )
    )[0]!;

  function sessionEvent(id: string, type: string, orderId: string, extra: Record<string, unknown> = {}) {
    return {
      id,
      object: "event",
      type,
      api_version: "2025-01-01",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: `cs_test_${id}`,
          object: "checkout.session",
          client_reference_id: orderId,
          metadata: { order_id: orderId },
          amount_total: 8000,
          currency: "usd",
          payment_status: "paid",
          payment_intent: `pi_${id}`,
          ...extra,
        },
      },
    };
  }

  function sendWebhook(event: unknown, signature?: string | null) {
    const payload = JSON.stringify(event);
    const headers: Record<string, string> = { "content-type": "application/json" };
    const sig =
      signature === undefined
        ? stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })
        : signature;
    if (sig !== null) headers["stripe-signature"] = sig;
    return fetch(`${server.url}/api/payments/stripe/webhook`, { method: "POST", body: payload, headers });
  }

  it("creates a Checkout Session in the order's currency with the order id as idempotency key", async () => {
    const { session, id } = await signedInClient(server.url, db());
    const res = await purchase(session);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://checkout.stripe.com/c/pay/cs_test_1");
    const order = await orderOf(id);
    expect(order.provider_reference).toBe("cs_test_1");
    const request = fake.requests.at(-1)!;
    expect(request.auth).toBe("Bearer sk_test_portico");
    expect(request.idempotencyKey).toBe(order.id);
    expect(request.fields.get("mode")).toBe("payment");
    expect(request.fields.get("line_items[0][price_data][currency]")).toBe("usd");
    expect(request.fields.get("line_items[0][price_data][unit_amount]")).toBe("8000");
    expect(request.fields.get("metadata[order_id]")).toBe(order.id);
    expect(request.fields.get("success_url")).toBe(
      `http://127.0.0.1/payment-success?order_id=${order.id}&amount=80`,
    );
    expect(request.fields.get("cancel_url")).toBe(
      "http://127.0.0.1/client/purchase/email-migration?package=basic&currency=USD",
    );

    // A zero-decimal currency is sent in whole units.
    const yen = await signedInClient(server.url, db());
    await purchase(yen.session, { currency: "JPY", quantity: "3" });
    const jpy = fake.requests.at(-1)!;
    const [invoice] = await queryRows<{ total_amount: string }>(
      db(),
      sql`select total_amount from invoices where client_id = ${yen.id}`,
    );
    expect(jpy.fields.get("line_items[0][price_data][currency]")).toBe("jpy");
    expect(jpy.fields.get("line_items[0][price_data][unit_amount]")).toBe(
      String(Number(invoice!.total_amount)),
    );
    expect(Number.isInteger(Number(invoice!.total_amount))).toBe(true);
  });

  it("shows 'Failed to create payment: {message}' and keeps the order pending for Pay Now", async () => {
    const { session, id } = await signedInClient(server.url, db());
    fake.failNext = "Your account cannot currently make live charges.";
    const res = await purchase(session);
    expect(res.status).toBe(502);
    expect(text(await res.text())).toContain(
      "Failed to create payment: Your account cannot currently make live charges.",
    );
    const order = await orderOf(id);
    expect(order.status).toBe("pending");
    const [inv] = await queryRows<{ id: string }>(
      db(),
      sql`select id from invoices where order_id = ${order.id}`,
    );
    const again = await session.post(`/client/invoices/${inv!.id}/pay`, {});
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(fake.requests.at(-1)!.idempotencyKey).toMatch(new RegExp(`^${order.id}:pay:`));
    const count = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from invoices where client_id = ${id}`,
    );
    expect(count[0]!.n).toBe(1);
  });

  it("verifies webhooks on the raw body and applies each event once, in any order", async () => {
    const { session, id } = await signedInClient(server.url, db());
    await purchase(session);
    const order = await orderOf(id);

    expect(
      (await sendWebhook(sessionEvent("evt_1", "checkout.session.completed", order.id), null)).status,
    ).toBe(400);
    expect(
      (await sendWebhook(sessionEvent("evt_1", "checkout.session.completed", order.id), "t=1,v1=bad")).status,
    ).toBe(400);
    const wrongSecret = stripe.webhooks.generateTestHeaderString({
      payload: JSON.stringify(sessionEvent("evt_1", "checkout.session.completed", order.id)),
      secret: "whsec_other",
    });
    expect(
      (await sendWebhook(sessionEvent("evt_1", "checkout.session.completed", order.id), wrongSecret)).status,
    ).toBe(400);
    expect((await orderOf(id)).status).toBe("pending");

    // Expired first (an earlier session), then completed: the order is paid.
    const expired = await sendWebhook(
      sessionEvent("evt_exp", "checkout.session.expired", order.id, { payment_status: "unpaid" }),
    );
    expect((await expired.json()).outcome).toBe("noted: checkout expired, order stays pending");
    const paid = await sendWebhook(sessionEvent("evt_paid", "checkout.session.completed", order.id));
    expect(paid.status).toBe(200);
    expect((await paid.json()).outcome).toBe("applied");
    expect((await orderOf(id)).status).toBe("paid");
    const invoice = await invoiceOf(order.id);
    expect(invoice.status).toBe("paid");
    expect(invoice.paid_at).not.toBeNull();
    expect(invoice.payment_reference).toBe("pi_evt_paid");

    // Repeats and late events: 200, nothing more.
    const repeat = await sendWebhook(sessionEvent("evt_paid", "checkout.session.completed", order.id));
    expect(await repeat.json()).toMatchObject({ duplicate: true });
    const late = await sendWebhook(sessionEvent("evt_late", "checkout.session.expired", order.id));
    expect((await late.json()).outcome).toBe("ignored: order paid");
    const notes = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from notifications where user_id = ${id}`,
    );
    // One payment, one notice (ADR 0515).
    expect(notes[0]!.n).toBe(1);
    expect((await invoiceOf(order.id)).paid_at).toEqual(invoice.paid_at);

    // Unknown orders and other event types are recorded and answered.
    const unknown = await sendWebhook(
      sessionEvent("evt_unknown", "checkout.session.completed", "not-an-order"),
    );
    expect((await unknown.json()).outcome).toBe("ignored: unknown order");
    const other = await sendWebhook({
      ...sessionEvent("evt_other", "customer.created", order.id),
      data: { object: { id: "cus_1", object: "customer" } },
    });
    expect((await other.json()).outcome).toBe("ignored: not a payment outcome");
    const stored = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from payment_events where provider = 'stripe' and event_id in ('evt_exp', 'evt_paid', 'evt_late', 'evt_unknown', 'evt_other')`,
    );
    expect(stored[0]!.n).toBe(5);
  });

  it("does not pay an order for an unpaid or wrong-amount session", async () => {
    const { session, id } = await signedInClient(server.url, db());
    await purchase(session);
    const order = await orderOf(id);
    const unpaid = await sendWebhook(
      sessionEvent("evt_async", "checkout.session.completed", order.id, { payment_status: "unpaid" }),
    );
    expect((await unpaid.json()).outcome).toBe("ignored: not a payment outcome");
    const short = await sendWebhook(
      sessionEvent("evt_short", "checkout.session.completed", order.id, { amount_total: 100 }),
    );
    expect((await short.json()).outcome).toBe("ignored: amount does not match the invoice");
    expect((await orderOf(id)).status).toBe("pending");
    // The sandbox endpoint is off when Stripe is the provider.
    expect(
      (await fetch(`${server.url}/api/payments/sandbox/webhook`, { method: "POST", body: "{}" })).status,
    ).toBe(404);
  });

  it("expires the open Checkout Session of an order cancelled by the account's deletion; a refusal is only logged", async () => {
    const deleteAccount = (session: Session) =>
      session.post("/client/profile", { intent: "deleteAccount", password: PASSWORD, confirm: "DELETE" });

    const a = await signedInClient(server.url, db());
    expect((await purchase(a.session)).status).toBe(302);
    const order = await orderOf(a.id);
    const reference = order.provider_reference!;
    expect(fake.sessions.get(reference)!.status).toBe("open");
    expect((await deleteAccount(a.session)).headers.get("location")).toBe("/client/account-deleted");
    expect((await orderOf(a.id)).status).toBe("cancelled");
    await eventually(() => fake.sessions.get(reference)!.status === "expired");
    expect(fake.expireRequests.filter((id) => id === reference)).toHaveLength(1);

    // Stripe refuses to expire a session that is no longer open: the deletion has happened all the same.
    const b = await signedInClient(server.url, db());
    await purchase(b.session);
    const other = (await orderOf(b.id)).provider_reference!;
    fake.expire(other);
    expect((await deleteAccount(b.session)).headers.get("location")).toBe("/client/account-deleted");
    await eventually(() => fake.expireRequests.includes(other));
    expect((await orderOf(b.id)).status).toBe("cancelled");
  });

  it("expires the open Checkout Session of an unpaid order the owner cancels", async () => {
    const ownerEmail = `owner.stripe.${Date.now()}@example.com`;
    await createAccount(db(), { email: ownerEmail, name: "Owner", role: "admin" });
    const owner = new Session(server.url, "198.51.111.9");
    expect(
      (await owner.post("/client/login", { email: ownerEmail, password: FIXTURE_PASSWORD })).status,
    ).toBe(302);
    const c = await signedInClient(server.url, db());
    await purchase(c.session);
    const order = await orderOf(c.id);
    const res = await owner.post(`/admin/orders/${order.id}`, {
      intent: "transition",
      to: "cancelled",
      note: "",
    });
    expect(res.status).toBe(200);
    expect((await orderOf(c.id)).status).toBe("cancelled");
    await eventually(() => fake.sessions.get(order.provider_reference!)!.status === "expired");
  });
});
