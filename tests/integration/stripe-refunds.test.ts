/**
 * Refunds through Stripe (ADR 0505), through the real built server with the Stripe provider against
 * the fake Stripe on 127.0.0.1 and webhooks signed with the stripe package's test-header helper. A
 * client pays at Stripe (the signed checkout.session.completed pays the order), then the owner refunds
 * from the back office: a refund Stripe answers `pending` is recorded by its webhook, once, whatever
 * repeats or arrives out of order; a webhook arriving before Stripe's answer records it once; a refund
 * Stripe refuses is put on the Needs attention card and its amount is refundable again; a refund made
 * in Stripe's dashboard is recorded (or flagged when it does not fit); what is sent to Stripe, in a
 * zero-decimal currency too.
 */
import { sql } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { formatMoney } from "~/features/money/format";
import { accountsOn } from "../support/accounts";
import { type Session, text } from "../support/browserless";
import { checkoutTokenIn, signedInClient } from "../support/clients";
import { testDatabases } from "../support/databases";
import { type FakeStripe, type FakeStripeRefund, startFakeStripe } from "../support/fake-stripe";
import { refundThroughForm } from "../support/refunds";
import { startTestServer, type TestServer } from "../support/server";

const WEBHOOK_SECRET = "whsec_test_portico_refunds";
const stripe = new Stripe("sk_test_fake");
const PENDING_MESSAGE =
  "The provider is making the refund; it is recorded, with its credit note, once it confirms it.";

describe.each(testDatabases)("refunds through Stripe on $name", (database) => {
  let server: TestServer;
  let fake: FakeStripe;
  let admin: Session;
  let events = 0;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.103.${n}`,
  );
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);

  beforeAll(async () => {
    fake = await startFakeStripe();
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_portico",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
      // Tax on the invoice, so credit notes split refunds into tax and the rest.
      TAX_RATE_PERCENT: "18",
    });
    ({ session: admin } = await signedIn({
      email: "owner.stripe-refunds@example.com",
      name: "Owner",
      role: "admin",
    }));
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.refundStatus = "succeeded";
    fake.beforeRefundAnswer = null;
    fake.dropRefundAnswers = false;
    fake.failNext = null;
  });

  function event(type: string, object: unknown, id = `evt_refunds_${++events}`) {
    return {
      id,
      object: "event",
      type,
      api_version: "2025-01-01",
      created: Math.floor(Date.now() / 1000),
      data: { object },
    };
  }

  /** Posts a signed Stripe webhook; its JSON answer. */
  async function sendWebhook(body: unknown): Promise<{
    received: boolean;
    duplicate: boolean;
    outcome: string | null;
  }> {
    const payload = JSON.stringify(body);
    const res = await fetch(`${server.url}/api/payments/stripe/webhook`, {
      method: "POST",
      body: payload,
      headers: {
        "content-type": "application/json",
        "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
    });
    expect(res.status).toBe(200);
    return res.json();
  }

  /** A client who bought 20 mailboxes in `currency` and paid at Stripe; the signed webhook paid the order. */
  async function paidThroughStripe(currency = "USD") {
    const client = await signedInClient(server.url, db());
    const page = await client.session.get(`/client/purchase/email-migration?currency=${currency}`);
    const bought = await client.session.post("/client/purchase/email-migration", {
      checkoutToken: checkoutTokenIn(await page.text()),
      package: "basic",
      quantity: "20",
      currency,
    });
    expect(bought.status).toBe(302);
    const [order] = await rows<{ id: string; provider_reference: string }>(
      sql`select id, provider_reference from orders where client_id = ${client.id}`,
    );
    fake.pay(order!.provider_reference);
    const session = fake.sessions.get(order!.provider_reference)!;
    const paid = await sendWebhook(event("checkout.session.completed", { ...session }));
    expect(paid.outcome).toBe("applied");
    const [invoice] = await rows<{
      id: string;
      invoice_number: string;
      status: string;
      total_amount: string;
      currency: string;
      payment_reference: string;
    }>(
      sql`select id, invoice_number, status, total_amount::text, currency, payment_reference
          from invoices where order_id = ${order!.id}`,
    );
    expect(invoice).toMatchObject({ status: "paid", currency, payment_reference: session.payment_intent });
    return { ...client, orderId: order!.id, paymentIntent: session.payment_intent!, invoice: invoice! };
  }

  const refund = (invoiceId: string, fields: Record<string, string>, token?: string) =>
    refundThroughForm(admin, invoiceId, fields, token);

  async function books(invoiceId: string) {
    const [row] = await rows<{
      refunded_amount: string;
      refunded_usd: string;
      order_status: string;
      credit_notes: number;
      credited: string;
      refunds: string | null;
      told: number;
    }>(
      sql`select i.refunded_amount::text, i.refunded_usd::text, o.status as order_status,
            (select count(*)::int from credit_notes n where n.invoice_id = i.id) as credit_notes,
            (select coalesce(sum(n.total_amount), 0)::text from credit_notes n where n.invoice_id = i.id) as credited,
            (select string_agg(r.status || ':' || r.amount::text, ',' order by r.created_at) from refunds r where r.invoice_id = i.id) as refunds,
            (select count(*)::int from notifications x where x.user_id = i.client_id and x.title = 'Refund Issued') as told
          from invoices i join orders o on o.id = i.order_id where i.id = ${invoiceId}`,
    );
    return row!;
  }

  async function refundRows(invoiceId: string) {
    return rows<{
      id: string;
      status: string;
      amount: string;
      provider: string;
      provider_refund_id: string | null;
      failure_reason: string | null;
      requested_by_id: string | null;
      requested_by_email: string;
      reason: string;
      credit_note: string | null;
      form_token: string | null;
    }>(
      sql`select r.id, r.status, r.amount::text, r.provider, r.provider_refund_id, r.failure_reason, r.form_token,
            r.requested_by_id, r.requested_by_email, r.reason, n.credit_note_number as credit_note
          from refunds r left join credit_notes n on n.refund_id = r.id
          where r.invoice_id = ${invoiceId} order by r.created_at`,
    );
  }

  it("a refund Stripe answers pending is recorded by its webhook, once, whatever repeats or comes late", async () => {
    const c = await paidThroughStripe();
    expect(c.invoice.total_amount).toBe("94.40");
    fake.refundStatus = "pending";
    const res = await refund(c.invoice.id, { amount: "30", reason: "Two mailboxes fewer than ordered" });
    expect(res.status).toBe(200);
    expect(text(await res.text())).toContain(PENDING_MESSAGE);
    const [pending] = await refundRows(c.invoice.id);
    const atStripe = fake.refunds.get(pending!.provider_refund_id!)!;
    expect(atStripe).toMatchObject({ status: "pending", metadata: { refund_id: pending!.id } });
    expect(pending).toMatchObject({ status: "pending", amount: "30.00", credit_note: null });
    expect(await books(c.invoice.id)).toMatchObject({ refunded_amount: "0.00", credit_notes: 0, told: 0 });
    // Reserved while pending: only the rest can be asked for.
    const tooMuch = await refund(c.invoice.id, { amount: "64.41", reason: "More than is left" });
    expect(tooMuch.status).toBe(409);
    expect(text(await tooMuch.text())).toContain(
      `At most $64.40 can be refunded on invoice ${c.invoice.invoice_number}.`,
    );

    const succeeded: FakeStripeRefund = { ...atStripe, status: "succeeded" };
    const updated = event("refund.updated", succeeded);
    expect(await sendWebhook(updated)).toEqual({
      received: true,
      duplicate: false,
      outcome: "applied: refund recorded",
    });
    const [recorded] = await refundRows(c.invoice.id);
    expect(recorded).toMatchObject({ status: "succeeded", provider_refund_id: atStripe.id });
    expect(recorded!.credit_note).toMatch(/^CN-\d{4}-\d{4}$/);
    const once = {
      refunded_amount: "30.00",
      refunded_usd: "30.00",
      order_status: "paid",
      credit_notes: 1,
      credited: "30.00",
      refunds: "succeeded:30.00",
      told: 1,
    };
    expect(await books(c.invoice.id)).toEqual(once);
    // 30.00 of 94.40 with 14.40 tax: 4.58 of it is tax (14.40 × 30 / 94.40 = 4.576…).
    const [note] = await rows<{ subtotal: string; tax_amount: string; amount_usd: string }>(
      sql`select subtotal::text, tax_amount::text, amount_usd::text from credit_notes where refund_id = ${pending!.id}`,
    );
    expect(note).toEqual({ subtotal: "25.42", tax_amount: "4.58", amount_usd: "30.00" });

    // The same event again: a duplicate.
    expect(await sendWebhook(updated)).toEqual({ received: true, duplicate: true, outcome: null });
    // Another event carrying the same refund (charge.refunded with its refunds): nothing more.
    const charged = await sendWebhook(
      event("charge.refunded", {
        id: atStripe.charge,
        object: "charge",
        amount: 9440,
        amount_refunded: 3000,
        currency: "usd",
        payment_intent: c.paymentIntent,
        metadata: {},
        refunds: { object: "list", has_more: false, data: [succeeded] },
      }),
    );
    expect(charged.outcome).toBe("refund already recorded");
    // Out of order: an older refund.updated saying pending changes nothing.
    const late = await sendWebhook(event("refund.updated", { ...atStripe, status: "pending" }));
    expect(late.outcome).toBe("refund pending");
    expect(await books(c.invoice.id)).toEqual(once);
    expect((await refundRows(c.invoice.id))[0]).toMatchObject({ status: "succeeded" });
    const [emails] = await rows<{ n: number }>(
      sql`select count(*)::int as n from outbox_emails where to_address = ${c.email} and kind = 'refund-issued'`,
    );
    expect(emails!.n).toBe(1);
  });

  it("the webhook arriving before Stripe's answer records the refund once, and the answer names its credit note", async () => {
    const c = await paidThroughStripe();
    const early: Array<{ outcome: string | null }> = [];
    fake.beforeRefundAnswer = async (made) => {
      early.push(await sendWebhook(event("refund.updated", made)));
    };
    const res = await refund(c.invoice.id, { amount: "10", reason: "Goodwill" });
    expect(res.status).toBe(200);
    expect(early).toEqual([{ received: true, duplicate: false, outcome: "applied: refund recorded" }]);
    const [made] = await refundRows(c.invoice.id);
    expect(made).toMatchObject({ status: "succeeded", amount: "10.00" });
    expect(text(await res.text())).toContain(
      `Refunded $10.00 of invoice ${c.invoice.invoice_number}: credit note ${made!.credit_note}.`,
    );
    expect(await books(c.invoice.id)).toMatchObject({
      refunded_amount: "10.00",
      credit_notes: 1,
      refunds: "succeeded:10.00",
      told: 1,
    });
  });

  it("Stripe's answer lost on the way back after its webhook recorded the refund: the owner is told it is recorded, and nothing is flagged", async () => {
    const c = await paidThroughStripe();
    fake.beforeRefundAnswer = async (made) => {
      await sendWebhook(event("refund.updated", made));
    };
    fake.dropRefundAnswers = true;
    const res = await refund(c.invoice.id, { amount: "10", reason: "Goodwill" });
    expect(res.status).toBe(200);
    const [made] = await refundRows(c.invoice.id);
    expect(made).toMatchObject({ status: "succeeded", amount: "10.00" });
    expect(text(await res.text())).toContain(
      `Refunded $10.00 of invoice ${c.invoice.invoice_number}: credit note ${made!.credit_note}.`,
    );
    const issues = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from payment_issues where order_id = ${c.orderId}`,
    );
    expect(issues[0]!.n).toBe(0);
    expect(await books(c.invoice.id)).toMatchObject({ credit_notes: 1, refunds: "succeeded:10.00" });
  });

  it("a refund Stripe refuses: 502 with its reason, on the Needs attention card, and the amount refundable again", async () => {
    const c = await paidThroughStripe();
    const reason = "Charge ch_disputed has been disputed and cannot be refunded.";
    fake.failNext = reason;
    const res = await refund(c.invoice.id, { amount: "94.40", reason: "Project called off" });
    expect(res.status).toBe(502);
    expect(text(await res.text())).toContain(`The provider refused the refund: ${reason}`);
    const [failed] = await refundRows(c.invoice.id);
    expect(failed).toMatchObject({
      status: "failed",
      amount: "94.40",
      failure_reason: reason,
      provider_refund_id: null,
      credit_note: null,
    });
    const issues = await rows<{ kind: string; reference: string; detail: string }>(
      sql`select kind, reference, detail from payment_issues where order_id = ${c.orderId}`,
    );
    expect(issues).toEqual([
      { kind: "refund-refused", reference: failed!.id, detail: `refund of 94.4 USD refused: ${reason}` },
    ]);
    const dashboard = await (await admin.get("/admin/dashboard")).text();
    expect(dashboard).toContain(`/admin/orders/${c.orderId}`);
    expect(text(dashboard)).toContain("Refund refused by the provider");
    expect(text(dashboard)).toContain(`refund of 94.4 USD refused: ${reason}`);
    expect(await books(c.invoice.id)).toMatchObject({ refunded_amount: "0.00", credit_notes: 0 });

    const again = await refund(c.invoice.id, { amount: "94.40", reason: "Project called off" });
    expect(again.status).toBe(200);
    expect(text(await again.text())).toMatch(
      new RegExp(
        `Refunded \\$94\\.40 of invoice ${c.invoice.invoice_number}: credit note CN-\\d{4}-\\d{4}\\.`,
      ),
    );
    expect(await books(c.invoice.id)).toMatchObject({
      refunded_amount: "94.40",
      refunded_usd: "94.40",
      order_status: "cancelled",
      credit_notes: 1,
      credited: "94.40",
      refunds: "failed:94.40,succeeded:94.40",
    });
  });

  it("a refund made in Stripe's dashboard is recorded with its credit note; one that does not fit is flagged", async () => {
    const c = await paidThroughStripe();
    const atDashboard = {
      id: `re_dashboard_${c.orderId.slice(0, 8)}`,
      object: "refund",
      amount: 2000,
      currency: "usd",
      status: "pending",
      payment_intent: c.paymentIntent,
      charge: `ch_${c.paymentIntent}`,
      metadata: {},
      failure_reason: null,
    };
    // Created pending: not ours, not made yet.
    expect((await sendWebhook(event("refund.created", atDashboard))).outcome).toBe(
      "ignored: unknown refund pending",
    );
    expect(await refundRows(c.invoice.id)).toEqual([]);
    const done = { ...atDashboard, status: "succeeded" };
    expect((await sendWebhook(event("refund.updated", done))).outcome).toBe("applied: refund recorded");
    const [made] = await refundRows(c.invoice.id);
    expect(made).toMatchObject({
      status: "succeeded",
      amount: "20.00",
      provider: "stripe",
      provider_refund_id: atDashboard.id,
      requested_by_id: null,
      requested_by_email: "stripe",
      reason: "Refunded at stripe",
    });
    expect(made!.credit_note).toMatch(/^CN-\d{4}-\d{4}$/);
    // The same refund reported again by another event: known by its Stripe id, not recorded twice.
    const charged = await sendWebhook(
      event("charge.refunded", {
        id: atDashboard.charge,
        object: "charge",
        payment_intent: c.paymentIntent,
        metadata: {},
        refunds: { object: "list", has_more: false, data: [done] },
      }),
    );
    expect(charged.outcome).toBe("refund already recorded");
    const recorded = {
      refunded_amount: "20.00",
      credit_notes: 1,
      credited: "20.00",
      refunds: "succeeded:20.00",
      told: 1,
    };
    expect(await books(c.invoice.id)).toMatchObject(recorded);

    // 74.40 is left; a refund of 74.41 at Stripe does not fit: flagged, nothing recorded.
    const tooBig = { ...done, id: `re_toobig_${c.orderId.slice(0, 8)}`, amount: 7441 };
    expect((await sendWebhook(event("refund.updated", tooBig))).outcome).toBe(
      "ignored: refund does not fit the invoice",
    );
    const issues = await rows<{ kind: string; reference: string; detail: string }>(
      sql`select kind, reference, detail from payment_issues where order_id = ${c.orderId}`,
    );
    expect(issues).toEqual([
      {
        kind: "refund-unmatched",
        reference: tooBig.id,
        detail: `refund of 74.41 USD at the provider does not fit invoice ${c.invoice.invoice_number}`,
      },
    ]);
    expect(await books(c.invoice.id)).toMatchObject(recorded);
    expect(await refundRows(c.invoice.id)).toHaveLength(1);
    const dashboard = text(await (await admin.get("/admin/dashboard")).text());
    expect(dashboard).toContain("Refund at the provider that does not fit");

    // The rest, at Stripe: recorded, the invoice credited in full, the order over.
    const rest = { ...done, id: `re_rest_${c.orderId.slice(0, 8)}`, amount: 7440 };
    expect((await sendWebhook(event("refund.updated", rest))).outcome).toBe("applied: refund recorded");
    expect(await books(c.invoice.id)).toEqual({
      refunded_amount: "94.40",
      refunded_usd: "94.40",
      order_status: "cancelled",
      credit_notes: 2,
      credited: "94.40",
      refunds: "succeeded:20.00,succeeded:74.40",
      told: 2,
    });
  });

  it("two events for the same refund made in Stripe's dashboard, at once, record it once", async () => {
    const c = await paidThroughStripe();
    const atDashboard = {
      id: `re_twice_${c.orderId.slice(0, 8)}`,
      object: "refund",
      amount: 2500,
      currency: "usd",
      status: "succeeded",
      payment_intent: c.paymentIntent,
      charge: `ch_${c.paymentIntent}`,
      metadata: {},
      failure_reason: null,
    };
    // Stripe sends refund.created and refund.updated together. Both are held on the order's lock,
    // having both looked for the refund and not found it, then let go.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = db().transaction(async (tx) => {
      await tx.execute(sql`select id from orders where id = ${c.orderId} for update`);
      locked();
      await gate;
    });
    await holding;
    const post = (body: unknown) => {
      const payload = JSON.stringify(body);
      return fetch(`${server.url}/api/payments/stripe/webhook`, {
        method: "POST",
        body: payload,
        headers: {
          "content-type": "application/json",
          "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
        },
      });
    };
    const both = Promise.all([
      post(event("refund.created", atDashboard)),
      post(event("refund.updated", atDashboard)),
    ]);
    try {
      if (database.name === "postgres") {
        // Both really wait on the lock (PGlite has one connection: they simply run after, in turn).
        await expect
          .poll(
            async () => {
              const [row] = await rows<{ n: number }>(
                sql`select count(*)::int as n from pg_stat_activity
                    where datname = current_database() and wait_event_type = 'Lock'`,
              );
              return row!.n;
            },
            { timeout: 10_000 },
          )
          .toBe(2);
      }
    } finally {
      release();
    }
    await holder;
    const answers = await both;
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const outcomes = (await Promise.all(answers.map((r) => r.json()))).map((a) => a.outcome).sort();
    expect(outcomes).toEqual(["applied: refund recorded", "refund already recorded"]);
    expect(await books(c.invoice.id)).toMatchObject({
      refunded_amount: "25.00",
      credit_notes: 1,
      refunds: "succeeded:25.00",
      told: 1,
    });
  });

  it("a pending refund Stripe later fails is released and shown on the Needs attention card", async () => {
    const c = await paidThroughStripe();
    fake.refundStatus = "pending";
    const res = await refund(c.invoice.id, { amount: "50", reason: "Half of it" });
    expect(text(await res.text())).toContain(PENDING_MESSAGE);
    const [pending] = await refundRows(c.invoice.id);
    const atStripe = fake.refunds.get(pending!.provider_refund_id!)!;
    // It fails at Stripe (the card was closed), and Stripe says so.
    Object.assign(atStripe, { status: "failed", failure_reason: "expired_or_canceled_card" });
    const failed = await sendWebhook(event("refund.failed", { ...atStripe }));
    expect(failed.outcome).toBe("refund failed");
    expect((await refundRows(c.invoice.id))[0]).toMatchObject({
      status: "failed",
      failure_reason: "expired_or_canceled_card",
      credit_note: null,
    });
    const issues = await rows<{ kind: string; reference: string }>(
      sql`select kind, reference from payment_issues where order_id = ${c.orderId}`,
    );
    expect(issues).toEqual([{ kind: "refund-refused", reference: atStripe.id }]);
    const dashboard = text(await (await admin.get("/admin/dashboard")).text());
    expect(dashboard).toContain(`refund of 50 USD refused: expired_or_canceled_card (stripe ${atStripe.id})`);
    // Released: the whole total may be refunded again.
    fake.refundStatus = "succeeded";
    const again = await refund(c.invoice.id, { amount: "94.40", reason: "All of it" });
    expect(again.status).toBe(200);
    expect(await books(c.invoice.id)).toMatchObject({
      refunded_amount: "94.40",
      credit_notes: 1,
      refunds: "failed:50.00,succeeded:94.40",
    });
  });

  it("asks Stripe for the refund of the PaymentIntent in minor units, with its id in metadata and its idempotency key", async () => {
    const c = await paidThroughStripe();
    const asked = fake.refundRequests.length;
    const res = await refund(c.invoice.id, { amount: "12.34", reason: "One mailbox short" });
    expect(res.status).toBe(200);
    const [made] = await refundRows(c.invoice.id);
    expect(fake.refundRequests).toHaveLength(asked + 1);
    const sent = fake.refundRequests.at(-1)!;
    expect(sent.idempotencyKey).toBe(`refund:${made!.form_token}`);
    expect(Object.fromEntries(sent.fields)).toEqual({
      payment_intent: c.paymentIntent,
      amount: "1234",
      "metadata[refund_id]": made!.id,
      "metadata[invoice_id]": c.invoice.id,
      "metadata[order_id]": c.orderId,
    });
    expect(made!.status).toBe("succeeded");
    expect(fake.refunds.get(made!.provider_refund_id!)).toMatchObject({
      amount: 1234,
      payment_intent: c.paymentIntent,
      metadata: { refund_id: made!.id },
    });
  });

  it("a zero-decimal currency: 1200 JPY is sent as 1200, and 12.5 JPY is refused before asking Stripe", async () => {
    const c = await paidThroughStripe("JPY");
    const total = Number(c.invoice.total_amount);
    expect(Number.isInteger(total) && total > 1200).toBe(true);
    const asked = fake.refundRequests.length;
    const half = await refund(c.invoice.id, { amount: "12.5", reason: "Half a yen" });
    expect(half.status).toBe(400);
    expect(text(await half.text())).toContain("JPY has no decimals: enter a whole amount.");
    expect(fake.refundRequests).toHaveLength(asked);
    expect(await refundRows(c.invoice.id)).toEqual([]);

    const res = await refund(c.invoice.id, { amount: "1,200", reason: "Two mailboxes fewer" });
    expect(res.status).toBe(200);
    const [made] = await refundRows(c.invoice.id);
    expect(made).toMatchObject({ status: "succeeded", amount: "1200.00" });
    expect(text(await res.text())).toContain(
      `Refunded ${formatMoney(1200, "JPY")} of invoice ${c.invoice.invoice_number}: credit note ${made!.credit_note}.`,
    );
    const sent = fake.refundRequests.at(-1)!;
    expect(sent.fields.get("amount")).toBe("1200");
    expect(sent.fields.get("payment_intent")).toBe(c.paymentIntent);
    expect(sent.idempotencyKey).toBe(`refund:${made!.form_token}`);
    expect(fake.refunds.get(made!.provider_refund_id!)).toMatchObject({ amount: 1200, currency: "jpy" });
    expect(await books(c.invoice.id)).toMatchObject({ refunded_amount: "1200.00", credit_notes: 1 });
  });
});
