/**
 * No paid checkout is left unpaid (ADR 0503), through the real built server with the Stripe provider
 * against the fake Stripe (and the sandbox with its webhooks black-holed): the customer pays at the provider but the webhook never arrives, and the
 * return to /payment-success or one sweep run pays the order and invoice once; the webhook and the
 * sweep racing still pay once; another client's order id on /payment-success changes nothing.
 */
import { sql } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { sweepPendingCheckouts } from "~/features/payments/payment-sweep.server";
import type { ReconcileDeps } from "~/features/payments/reconcile.server";
import { accountsOn } from "../support/accounts";
import { location, type Session, text } from "../support/browserless";
import { checkoutTokenIn, signedInClient } from "../support/clients";
import { testDatabases } from "../support/databases";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe";
import { freePort, startTestServer, type TestServer } from "../support/server";

const WEBHOOK_SECRET = "whsec_test_portico_reconcile";
const stripe = new Stripe("sk_test_fake");
const MINUTE = 60_000;

describe.each(testDatabases)("paid once without the webhook, Stripe on $name", (database) => {
  let server: TestServer;
  let fake: FakeStripe;
  const db = () => server.portico.runtime.database.db;
  const { signedIn } = accountsOn(
    () => server,
    (n) => `198.51.100.${n + 100}`,
  );

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

  /** The sweep, called directly with the running server's database and providers. */
  function sweepDeps(): ReconcileDeps {
    const { runtime } = server.portico;
    return {
      db: runtime.database.db,
      business: runtime.config.business,
      publicUrl: runtime.config.publicUrl,
      wakeOutbox: () => runtime.outbox.wake(),
      logger: { info: () => {}, warn: () => {} },
      provider: (name) => runtime.payments.forWebhook(name),
    };
  }

  /** A client who bought and paid at Stripe; the webhook has not come. */
  async function paidAtStripe() {
    const client = await signedInClient(server.url, db());
    const page = await client.session.get("/client/purchase/email-migration");
    const res = await client.session.post("/client/purchase/email-migration", {
      checkoutToken: checkoutTokenIn(await page.text()),
      package: "basic",
      quantity: "20",
      currency: "USD",
    });
    expect(res.status).toBe(302);
    const [order] = await queryRows<{ id: string; provider_reference: string }>(
      db(),
      sql`select id, provider_reference from orders where client_id = ${client.id}`,
    );
    fake.pay(order!.provider_reference);
    return { ...client, orderId: order!.id, reference: order!.provider_reference };
  }

  async function state(orderId: string, clientId: string) {
    const [row] = await queryRows<{
      order_status: string;
      invoice_status: string;
      events: number;
      applied: number;
      receipts: number;
      received: number;
    }>(
      db(),
      sql`select o.status as order_status, i.status as invoice_status,
        (select count(*)::int from payment_events e where e.order_id = o.id) as events,
        (select count(*)::int from payment_events e where e.order_id = o.id and e.outcome = 'applied') as applied,
        (select count(*)::int from outbox_emails m where m.kind = 'payment-receipt' and m.to_address = c.email) as receipts,
        (select count(*)::int from notifications n where n.user_id = ${clientId} and n.title = 'Payment Received') as received
        from orders o join invoices i on i.order_id = o.id join clients c on c.id = o.client_id
        where o.id = ${orderId}`,
    );
    return row!;
  }

  const returnTo = (session: Session, orderId: string) =>
    session.get(`/payment-success?order_id=${orderId}&amount=80`);

  it("the return to /payment-success marks the order and invoice paid once when the webhook never came", async () => {
    const c = await paidAtStripe();
    expect((await state(c.orderId, c.id)).order_status).toBe("pending");
    const res = await returnTo(c.session, c.orderId);
    expect(res.status).toBe(302);
    expect(location(res)).toBe(`/thank-you?type=payment&order_id=${c.orderId}&amount=80`);
    expect(await state(c.orderId, c.id)).toEqual({
      order_status: "paid",
      invoice_status: "paid",
      events: 1,
      applied: 1,
      receipts: 1,
      received: 1,
    });
    // Back again, and the webhook arriving late: still paid once.
    await returnTo(c.session, c.orderId);
    const payload = JSON.stringify({
      id: "evt_late_reconcile",
      object: "event",
      type: "checkout.session.completed",
      api_version: "2025-01-01",
      created: Math.floor(Date.now() / 1000),
      data: { object: { ...fake.sessions.get(c.reference) } },
    });
    const hook = await fetch(`${server.url}/api/payments/stripe/webhook`, {
      method: "POST",
      body: payload,
      headers: {
        "content-type": "application/json",
        "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
    });
    expect((await hook.json()).outcome).toBe("ignored: already paid");
    expect(await state(c.orderId, c.id)).toMatchObject({ applied: 1, receipts: 1, received: 1 });
  });

  it("another client's order id, or a visitor's, on /payment-success changes nothing and asks nobody", async () => {
    const c = await paidAtStripe();
    const other = await signedInClient(server.url, db());
    const asked = fake.retrieved.length;
    const res = await returnTo(other.session, c.orderId);
    expect(location(res)).toBe(`/thank-you?type=payment&order_id=${c.orderId}&amount=80`);
    const visitor = await fetch(`${server.url}/payment-success?order_id=${c.orderId}&amount=80`, {
      redirect: "manual",
    });
    expect(visitor.status).toBe(302);
    expect(fake.retrieved.length).toBe(asked);
    expect(await state(c.orderId, c.id)).toMatchObject({
      order_status: "pending",
      invoice_status: "sent",
      events: 0,
    });
  });

  it("one sweep run, ten minutes on, pays a checkout whose webhook never came, once", async () => {
    const c = await paidAtStripe();
    const now = new Date(Date.now() + 11 * MINUTE);
    const run = await sweepPendingCheckouts(sweepDeps(), { now });
    expect(run.ran).toBe(true);
    expect(run.paid).toBeGreaterThanOrEqual(1);
    expect(await state(c.orderId, c.id)).toEqual({
      order_status: "paid",
      invoice_status: "paid",
      events: 1,
      applied: 1,
      receipts: 1,
      received: 1,
    });
    await sweepPendingCheckouts(sweepDeps(), { now: new Date(now.getTime() + 5 * MINUTE) });
    expect(await state(c.orderId, c.id)).toMatchObject({ applied: 1, receipts: 1, received: 1 });
  });

  it("the webhook and the sweep racing pay once: one applied payment event, one receipt, one notification", async () => {
    const c = await paidAtStripe();
    const payload = JSON.stringify({
      id: "evt_race_reconcile",
      object: "event",
      type: "checkout.session.completed",
      api_version: "2025-01-01",
      created: Math.floor(Date.now() / 1000),
      data: { object: { ...fake.sessions.get(c.reference) } },
    });
    const webhook = fetch(`${server.url}/api/payments/stripe/webhook`, {
      method: "POST",
      body: payload,
      headers: {
        "content-type": "application/json",
        "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
    });
    const sweep = sweepPendingCheckouts(sweepDeps(), { now: new Date(Date.now() + 11 * MINUTE) });
    const [hook] = await Promise.all([webhook, sweep]);
    expect(hook.status).toBe(200);
    expect(await state(c.orderId, c.id)).toMatchObject({
      order_status: "paid",
      invoice_status: "paid",
      applied: 1,
      receipts: 1,
      received: 1,
    });
  });

  it("the sweep forgets an expired checkout: the order stays pending with its invoice for Pay Now", async () => {
    const c = await paidAtStripe();
    fake.sessions.get(c.reference)!.payment_status = "unpaid";
    fake.expire(c.reference);
    await sweepPendingCheckouts(sweepDeps(), { now: new Date(Date.now() + 11 * MINUTE) });
    const [order] = await queryRows<{ status: string; provider_reference: string | null }>(
      db(),
      sql`select status, provider_reference from orders where id = ${c.orderId}`,
    );
    expect(order).toEqual({ status: "pending", provider_reference: null });
    expect((await state(c.orderId, c.id)).invoice_status).toBe("sent");
  });

  it("a checkout Stripe does not know and a payment of the wrong amount show on the back office's Needs attention card", async () => {
    const admin = (await signedIn({ email: "owner@example.com", name: "Owner", role: "admin" })).session;
    const before = text(await (await admin.get("/admin/dashboard")).text());
    expect(before).toContain("Needs attention");

    const lost = await paidAtStripe();
    await db().execute(sql`update orders set provider_reference = 'cs_test_lost' where id = ${lost.orderId}`);
    const wrong = await paidAtStripe();
    fake.sessions.get(wrong.reference)!.amount_total = 7900;
    await sweepPendingCheckouts(sweepDeps(), { now: new Date(Date.now() + 11 * MINUTE) });
    const issues = await queryRows<{ kind: string; order_id: string; reference: string }>(
      db(),
      sql`select kind, order_id, reference from payment_issues where order_id in (${lost.orderId}, ${wrong.orderId}) order by kind`,
    );
    expect(issues).toEqual([
      { kind: "unknown-checkout", order_id: lost.orderId, reference: "cs_test_lost" },
      { kind: "wrong-amount", order_id: wrong.orderId, reference: `pi_${wrong.reference}` },
    ]);
    expect((await state(wrong.orderId, wrong.id)).order_status).toBe("pending");

    const page = await (await admin.get("/admin/dashboard")).text();
    expect(page).toContain(`/admin/orders/${lost.orderId}`);
    expect(text(page)).toContain("Checkout unknown to the provider");
    expect(text(page)).toContain("Payment of the wrong amount");
  });
});

describe.each(testDatabases)("paid once without the webhook, sandbox on $name", (database) => {
  let server: TestServer;
  const db = () => server.portico.runtime.database.db;

  beforeAll(async () => {
    // The sandbox's webhooks go nowhere: a port nothing listens on.
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${await freePort()}/api/payments/sandbox/webhook`,
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("webhook black-holed: Pay is recorded at the sandbox, and one sweep run pays the order and invoice once", async () => {
    const client = await signedInClient(server.url, db());
    const page = await client.session.get("/client/purchase/email-migration");
    const bought = await client.session.post("/client/purchase/email-migration", {
      checkoutToken: checkoutTokenIn(await page.text()),
      package: "basic",
      quantity: "20",
      currency: "USD",
    });
    const token = new URL(location(bought), server.url).searchParams.get("session")!;
    // The page says what it always said when its webhook is not answered.
    const pay = await client.session.post("/payments/sandbox/checkout", { session: token, intent: "pay" });
    expect(pay.status).toBe(502);
    const [order] = await queryRows<{ id: string; status: string }>(
      db(),
      sql`select id, status from orders where client_id = ${client.id}`,
    );
    expect(order!.status).toBe("pending");

    const { runtime } = server.portico;
    const deps: ReconcileDeps = {
      db: runtime.database.db,
      business: runtime.config.business,
      publicUrl: runtime.config.publicUrl,
      wakeOutbox: () => runtime.outbox.wake(),
      logger: { info: () => {}, warn: () => {} },
      provider: (name) => runtime.payments.forWebhook(name),
    };
    const now = Date.now() + 11 * MINUTE;
    expect(await sweepPendingCheckouts(deps, { now: new Date(now) })).toMatchObject({ ran: true, paid: 1 });
    await sweepPendingCheckouts(deps, { now: new Date(now + 5 * MINUTE) });
    await client.session.get(`/payment-success?order_id=${order!.id}&amount=80`);
    const [after] = await queryRows<{
      order_status: string;
      invoice_status: string;
      applied: number;
      receipts: number;
    }>(
      db(),
      sql`select o.status as order_status, i.status as invoice_status,
        (select count(*)::int from payment_events e where e.order_id = o.id and e.outcome = 'applied') as applied,
        (select count(*)::int from outbox_emails m where m.kind = 'payment-receipt' and m.to_address = ${client.email}) as receipts
        from orders o join invoices i on i.order_id = o.id where o.id = ${order!.id}`,
    );
    expect(after).toEqual({ order_status: "paid", invoice_status: "paid", applied: 1, receipts: 1 });
  });
});
