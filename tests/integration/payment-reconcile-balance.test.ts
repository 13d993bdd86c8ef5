/**
 * A quote's balance is paid once without its webhook too, and a payment pays the invoice its checkout
 * was made for (ADR 0503 amended 2026-11-25, ADR 0513), through the real server with Stripe against the
 * fake Stripe, and with the sandbox whose webhooks go nowhere: a quote with a deposit, the deposit paid,
 * the order completed, the balance invoiced, the client's Pay Now paid at the provider and the webhook
 * lost; one sweep run (called with `now` ten minutes on) or the return to /payment-success pays the
 * balance once (one receipt, one notification) and a second run does nothing; an expired balance
 * checkout is forgotten and the invoice stays open with Pay Now; a late or stray payment of the deposit
 * after the balance is issued never touches the balance (a second payment of it goes to Needs
 * attention), even when deposit and balance are the same amount.
 */
import { sql } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { sweepPendingCheckouts } from "~/features/payments/payment-sweep.server";
import type { ReconcileDeps } from "~/features/payments/reconcile.server";
import type { QuoteDeps } from "~/features/quotes/quote-deps.server";
import { type DraftInput, saveDraft } from "~/features/quotes/quote-drafts.server";
import { sendQuote } from "~/features/quotes/quote-sending.server";
import { accountsOn } from "../support/accounts";
import { location, type Session } from "../support/browserless";
import { signedInClient } from "../support/clients";
import { testDatabases } from "../support/databases";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe";
import { freePort, startTestServer, type TestServer } from "../support/server";

const WEBHOOK_SECRET = "whsec_test_portico_balance";
const stripe = new Stripe("sk_test_fake");
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface InvoiceRow {
  id: string;
  invoice_number: string;
  kind: string;
  status: string;
  total_amount: string;
  payment_reference: string | null;
  checkout_reference: string | null;
}

/** What a test needs of a running server: its database, the owner's quote functions, the sweep. */
function harness(server: () => TestServer) {
  const db = () => server().portico.runtime.database.db;
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);
  const owner = (): QuoteDeps => ({
    db: db(),
    config: server().portico.runtime.config,
    actor: { id: null, email: "owner@example.com" },
  });
  const sweepDeps = (): ReconcileDeps => {
    const { runtime } = server().portico;
    return {
      db: runtime.database.db,
      business: runtime.config.business,
      publicUrl: runtime.config.publicUrl,
      wakeOutbox: () => runtime.outbox.wake(),
      logger: { info: () => {}, warn: () => {} },
      provider: (name) => runtime.payments.forWebhook(name),
    };
  };

  /** A sent quote for the client: one free line at `unitPrice`, with a deposit of `depositPercent`. */
  async function sentQuote(to: { email: string }, unitPrice: string, depositPercent: number) {
    const draft = await saveDraft(owner(), null, {
      name: "Ada Lovelace",
      email: to.email,
      lines: [{ kind: "free", description: "SSL rollout over 30 domains", quantity: 1, unitPrice }],
      depositPercent,
      validUntil: new Date(Date.now() + 14 * DAY).toISOString().slice(0, 10),
      terms: "Work starts once the deposit is paid.",
    } satisfies DraftInput);
    expect(draft.ok).toBe(true);
    const id = (draft as { id: string }).id;
    expect(await sendQuote(owner(), id)).toMatchObject({ ok: true });
    return id;
  }

  async function invoicesOf(orderId: string) {
    return rows<InvoiceRow>(
      sql`select id, invoice_number, kind, status, total_amount::text, payment_reference, checkout_reference
          from invoices where order_id = ${orderId} order by created_at, invoice_seq`,
    );
  }

  /** What the client was told and sent, and what the back office sees, about one order. */
  async function books(orderId: string, client: { id: string; email: string }) {
    const [order] = await rows<{ status: string }>(sql`select status from orders where id = ${orderId}`);
    const receipts = await rows<{ text: string }>(
      sql`select text from outbox_emails where kind = 'payment-receipt' and to_address = ${client.email}
          order by created_at`,
    );
    const confirmed = await rows<{ href: string }>(
      sql`select href from notifications where user_id = ${client.id} and title = 'Payment Received'
          order by created_at`,
    );
    const issues = await rows<{ kind: string; reference: string }>(
      sql`select kind, reference from payment_issues where order_id = ${orderId} order by created_at`,
    );
    const [events] = await rows<{ applied: number }>(
      sql`select count(*)::int as applied from payment_events where order_id = ${orderId} and outcome = 'applied'`,
    );
    return {
      order: order!.status,
      invoices: await invoicesOf(orderId),
      receipts: receipts.map((r) => r.text),
      confirmed: confirmed.map((n) => n.href),
      issues,
      applied: events!.applied,
    };
  }

  return { db, rows, sweepDeps, sentQuote, invoicesOf, books };
}

describe.each(testDatabases)("a quote's balance paid without its webhook, Stripe on $name", (database) => {
  let server: TestServer;
  let fake: FakeStripe;
  let admin: Session;
  const h = harness(() => server);
  const { signedIn } = accountsOn(
    () => server,
    (n) => `198.51.100.${n + 150}`,
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
    admin = (await signedIn({ email: "owner.balance@example.com", name: "Owner", role: "admin" })).session;
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  /** A signed Stripe event about a Checkout Session, posted to the webhook; its outcome. */
  async function sendEvent(id: string, type: string, session: object): Promise<string> {
    const payload = JSON.stringify({
      id,
      object: "event",
      type,
      api_version: "2025-01-01",
      created: Math.floor(Date.now() / 1000),
      data: { object: session },
    });
    const res = await fetch(`${server.url}/api/payments/stripe/webhook`, {
      method: "POST",
      body: payload,
      headers: {
        "content-type": "application/json",
        "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
    });
    expect(res.status).toBe(200);
    return (await res.json()).outcome;
  }

  /**
   * A client accepts a quote with a deposit and pays it at Stripe (its webhook arrives); the owner
   * starts and completes the work, which issues the balance invoice. Defaults: $1,000.00, 30%.
   */
  async function balanceIssued(unitPrice = "1000.00", depositPercent = 30) {
    const client = await signedInClient(server.url, h.db());
    const quoteId = await h.sentQuote(client, unitPrice, depositPercent);
    const accepted = await client.session.post(`/client/quotes/${quoteId}`, {
      intent: "accept",
      terms: "on",
      signature: "Ada Lovelace",
    });
    expect(accepted.headers.get("location")).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const [order] = await h.rows<{ id: string }>(sql`select id from orders where quote_id = ${quoteId}`);
    const orderId = order!.id;
    const [deposit] = await h.invoicesOf(orderId);
    // The checkout is kept on the invoice it was made for, and Stripe's session names that invoice.
    const depositCheckout = deposit!.checkout_reference!;
    expect(fake.sessions.get(depositCheckout)!.metadata).toMatchObject({
      order_id: orderId,
      invoice_id: deposit!.id,
    });
    fake.pay(depositCheckout);
    expect(
      await sendEvent(
        `evt_deposit_${orderId}`,
        "checkout.session.completed",
        fake.sessions.get(depositCheckout)!,
      ),
    ).toBe("applied");

    const path = `/admin/orders/${orderId}`;
    expect((await admin.post(path, { intent: "transition", to: "in_progress", note: "" })).status).toBe(200);
    expect((await admin.post(path, { intent: "transition", to: "completed", note: "" })).status).toBe(200);
    const [paidDeposit, balance] = await h.invoicesOf(orderId);
    expect(paidDeposit).toMatchObject({ kind: "deposit", status: "paid" });
    expect(balance).toMatchObject({ kind: "balance", status: "sent", checkout_reference: null });
    return { client, orderId, deposit: paidDeposit!, balance: balance!, depositCheckout };
  }

  /** The client's Pay Now on the balance: a new Stripe checkout, kept on the balance invoice. */
  async function payNow(client: { session: Session }, balance: InvoiceRow): Promise<string> {
    const pay = await client.session.post(`/client/invoices/${balance.id}/pay`, {});
    expect(pay.status).toBe(302);
    const [row] = await h.rows<{ checkout_reference: string | null }>(
      sql`select checkout_reference from invoices where id = ${balance.id}`,
    );
    const reference = row!.checkout_reference!;
    expect(pay.headers.get("location")).toBe(fake.sessions.get(reference)!.url);
    expect(fake.sessions.get(reference)!.metadata).toMatchObject({ invoice_id: balance.id });
    return reference;
  }

  const asked = (reference: string) => fake.retrieved.filter((id) => id === reference).length;

  it("one sweep run, ten minutes on, pays the balance whose webhook was lost, once; a second run asks nothing", async () => {
    const q = await balanceIssued();
    const checkout = await payNow(q.client, q.balance);
    fake.pay(checkout); // The client paid; the webhook never comes.
    const before = await h.books(q.orderId, q.client);
    expect(before.invoices.map((i) => i.status)).toEqual(["paid", "sent"]);

    const now = Date.now() + 11 * MINUTE;
    const run = await sweepPendingCheckouts(h.sweepDeps(), { now: new Date(now) });
    expect(run.ran).toBe(true);
    expect(asked(checkout)).toBe(1);
    const after = await h.books(q.orderId, q.client);
    expect(after.order).toBe("completed");
    expect(after.invoices).toMatchObject([
      { kind: "deposit", status: "paid", payment_reference: `pi_${q.depositCheckout}` },
      { kind: "balance", status: "paid", payment_reference: `pi_${checkout}` },
    ]);
    expect(after.applied).toBe(2);
    expect(after.receipts).toHaveLength(2);
    expect(after.receipts[1]).toContain(q.balance.invoice_number);
    // One notice per payment: the deposit's leads to the order it started, the balance's to its invoice.
    expect(after.confirmed).toEqual([`/client/orders/${q.orderId}`, `/client/invoice/${q.balance.id}`]);
    expect(after.issues).toEqual([]);

    // A second run: the balance is paid, so nobody asks about its checkout again; nothing changes.
    await sweepPendingCheckouts(h.sweepDeps(), { now: new Date(now + 5 * MINUTE) });
    expect(asked(checkout)).toBe(1);
    expect(await h.books(q.orderId, q.client)).toEqual(after);
  });

  it("the return to /payment-success pays the balance once when its webhook was lost; the late webhook changes nothing", async () => {
    const q = await balanceIssued();
    const checkout = await payNow(q.client, q.balance);
    fake.pay(checkout);
    const back = `/payment-success?order_id=${q.orderId}&amount=${q.balance.total_amount}`;
    const res = await q.client.session.get(back);
    expect(location(res)).toBe(
      `/thank-you?type=payment&order_id=${q.orderId}&amount=${q.balance.total_amount}`,
    );
    const after = await h.books(q.orderId, q.client);
    expect(after.invoices.map((i) => [i.kind, i.status])).toEqual([
      ["deposit", "paid"],
      ["balance", "paid"],
    ]);
    expect(after.receipts).toHaveLength(2);
    // One notice per payment: the deposit's leads to the order it started, the balance's to its invoice.
    expect(after.confirmed).toEqual([`/client/orders/${q.orderId}`, `/client/invoice/${q.balance.id}`]);

    // Back again: nothing open, nobody asked. The webhook, late: the same payment, already recorded.
    await q.client.session.get(back);
    expect(asked(checkout)).toBe(1);
    expect(
      await sendEvent(`evt_late_${checkout}`, "checkout.session.completed", fake.sessions.get(checkout)!),
    ).toBe("ignored: already paid");
    expect(await h.books(q.orderId, q.client)).toEqual(after);
  });

  it("a late or stray payment of the deposit after the balance is issued never pays the balance, even of the same amount", async () => {
    // A 50% deposit of $1,000.00: deposit and balance are both $500.00, so only the invoice each
    // checkout names tells them apart (the order's open invoice would have been the balance).
    const q = await balanceIssued("1000.00", 50);
    expect([q.deposit.total_amount, q.balance.total_amount]).toEqual(["500.00", "500.00"]);
    const deposit = fake.sessions.get(q.depositCheckout)!;

    // News of the deposit's own payment again (another event id): already paid, nothing else.
    expect(
      await sendEvent(`evt_async_${q.orderId}`, "checkout.session.async_payment_succeeded", deposit),
    ).toBe("ignored: already paid");
    // The same from a checkout made before sessions named their invoice: found by its payment.
    const unnamed = { ...deposit, metadata: { order_id: q.orderId } };
    expect(await sendEvent(`evt_unnamed_${q.orderId}`, "checkout.session.completed", unnamed)).toBe(
      "ignored: already paid",
    );
    let books = await h.books(q.orderId, q.client);
    expect(books.invoices.map((i) => i.status)).toEqual(["paid", "sent"]);
    expect(books.issues).toEqual([]);

    // A second payment of the deposit (another checkout of it, paid late): recorded for the owner to
    // give back, never applied to the balance.
    const stray = { ...deposit, id: `cs_stray_${q.orderId}`, payment_intent: `pi_stray_${q.orderId}` };
    expect(await sendEvent(`evt_stray_${q.orderId}`, "checkout.session.completed", stray)).toBe(
      "ignored: already paid",
    );
    books = await h.books(q.orderId, q.client);
    expect(books.invoices).toMatchObject([
      { kind: "deposit", status: "paid", payment_reference: `pi_${q.depositCheckout}` },
      { kind: "balance", status: "sent", payment_reference: null },
    ]);
    expect(books.issues).toEqual([{ kind: "already-paid", reference: `pi_stray_${q.orderId}` }]);
    expect(books.receipts).toHaveLength(1);
    expect(books.applied).toBe(1);
    const dashboard = await (await admin.get("/admin/dashboard")).text();
    expect(dashboard).toContain("Payment for an invoice already paid");

    // The balance is still paid by its own checkout.
    const checkout = await payNow(q.client, q.balance);
    fake.pay(checkout);
    expect(
      await sendEvent(`evt_balance_${q.orderId}`, "checkout.session.completed", fake.sessions.get(checkout)!),
    ).toBe("applied");
    expect((await h.invoicesOf(q.orderId)).map((i) => i.status)).toEqual(["paid", "paid"]);
  });

  it("an expired balance checkout is forgotten: the invoice stays open with Pay Now, and is not asked about again", async () => {
    const q = await balanceIssued();
    const checkout = await payNow(q.client, q.balance);
    fake.expire(checkout);
    const now = Date.now() + 11 * MINUTE;
    await sweepPendingCheckouts(h.sweepDeps(), { now: new Date(now) });
    expect(asked(checkout)).toBe(1);
    const [, balance] = await h.invoicesOf(q.orderId);
    expect(balance).toMatchObject({ status: "sent", checkout_reference: null, payment_reference: null });
    const page = await (await q.client.session.get(`/client/invoice/${q.balance.id}`)).text();
    expect(page).toContain(`action="/client/invoices/${q.balance.id}/pay"`);
    await sweepPendingCheckouts(h.sweepDeps(), { now: new Date(now + 5 * MINUTE) });
    expect(asked(checkout)).toBe(1);
    const books = await h.books(q.orderId, q.client);
    expect([books.order, books.receipts.length, books.issues]).toEqual(["completed", 1, []]);
  });
});

describe.each(testDatabases)("a quote's balance paid without its webhook, sandbox on $name", (database) => {
  let server: TestServer;
  let admin: Session;
  const h = harness(() => server);
  const { signedIn } = accountsOn(
    () => server,
    (n) => `198.51.100.${n + 200}`,
  );

  beforeAll(async () => {
    // The sandbox's webhooks go nowhere: a port nothing listens on.
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${await freePort()}/api/payments/sandbox/webhook`,
    });
    admin = (await signedIn({ email: "owner.balance@example.com", name: "Owner", role: "admin" })).session;
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Presses Pay on a sandbox checkout page: recorded at the sandbox, its webhook lost (502). */
  async function payLost(session: Session, checkout: string) {
    const token = new URL(checkout, server.url).searchParams.get("session")!;
    const res = await session.post("/payments/sandbox/checkout", { session: token, intent: "pay" });
    expect(res.status).toBe(502);
  }

  it("the deposit is paid by the return, the balance by one sweep run, each once", async () => {
    const client = await signedInClient(server.url, h.db());
    const quoteId = await h.sentQuote(client, "1000.00", 30);
    const accepted = await client.session.post(`/client/quotes/${quoteId}`, {
      intent: "accept",
      terms: "on",
      signature: "Ada Lovelace",
    });
    await payLost(client.session, location(accepted));
    const [order] = await h.rows<{ id: string }>(sql`select id from orders where quote_id = ${quoteId}`);
    const orderId = order!.id;
    await client.session.get(`/payment-success?order_id=${orderId}&amount=300.00`);
    expect((await h.invoicesOf(orderId)).map((i) => [i.kind, i.status])).toEqual([["deposit", "paid"]]);

    const path = `/admin/orders/${orderId}`;
    expect((await admin.post(path, { intent: "transition", to: "in_progress", note: "" })).status).toBe(200);
    expect((await admin.post(path, { intent: "transition", to: "completed", note: "" })).status).toBe(200);
    const [, balance] = await h.invoicesOf(orderId);
    const pay = await client.session.post(`/client/invoices/${balance!.id}/pay`, {});
    expect(pay.status).toBe(302);
    await payLost(client.session, location(pay));

    const now = Date.now() + 11 * MINUTE;
    const run = await sweepPendingCheckouts(h.sweepDeps(), { now: new Date(now) });
    expect(run).toMatchObject({ ran: true, paid: 1 });
    expect(await sweepPendingCheckouts(h.sweepDeps(), { now: new Date(now + 5 * MINUTE) })).toMatchObject({
      ran: true,
      checked: 0,
    });
    const books = await h.books(orderId, client);
    expect(books.order).toBe("completed");
    expect(books.invoices.map((i) => [i.kind, i.status])).toEqual([
      ["deposit", "paid"],
      ["balance", "paid"],
    ]);
    expect(books.applied).toBe(2);
    expect(books.receipts).toHaveLength(2);
    expect(books.receipts[1]).toContain(balance!.invoice_number);
    expect(books.confirmed).toEqual([`/client/orders/${orderId}`, `/client/invoice/${balance!.id}`]);
    expect(books.issues).toEqual([]);
  });
});
