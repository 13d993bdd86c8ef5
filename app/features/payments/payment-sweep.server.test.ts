/**
 * The payment sweep and the return check (ADR 0503), on the in-memory database with a fake provider
 * and a clock the test moves: which checkouts a run asks about, what each answer does, the lease, and
 * that paid means paid once whoever learns of it first.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/client.server";
import {
  clients,
  invoices,
  notifications,
  orders,
  outboxEmails,
  paymentEvents,
  paymentIssues,
  user,
} from "~/db/schema";
import { acquireLease, releaseLease } from "~/features/jobs/leases.server";
import { makeOrders } from "~/features/testing/fixtures.server";
import {
  openSeededMemoryDatabase,
  TEST_BUSINESS,
  TEST_PUBLIC_URL,
} from "~/features/testing/memory-database.server";
import { savedCardsNotUsed } from "../../../tests/support/saved-card-stubs";
import { listPaymentIssues } from "./payment-issues.server";
import { SWEEP_LEASE, selectSweepCandidates, sweepPendingCheckouts } from "./payment-sweep.server";
import type { CheckoutStatus, PaymentProvider } from "./provider";
import { applyPaidCheckout, checkOnReturn, decideCheckout, type ReconcileDeps } from "./reconcile.server";
import { createSandboxProvider, memorySandboxStore, SANDBOX_SESSION_TTL_MS } from "./sandbox.server";

const MINUTE = 60_000;

/** A provider whose answers the test sets per checkout reference. */
function fakeProvider() {
  const answers = new Map<string, CheckoutStatus | Error>();
  const asked: string[] = [];
  const provider: PaymentProvider = {
    ...savedCardsNotUsed,
    name: "stripe",
    async createCheckout() {
      throw new Error("not used here");
    },
    async retrieveCheckout(reference) {
      asked.push(reference);
      const answer = answers.get(reference) ?? { status: "open", amount: null, currency: null };
      if (answer instanceof Error) throw answer;
      return answer;
    },
    async expireCheckout() {
      throw new Error("not used here");
    },
    async refund() {
      throw new Error("not used here");
    },
    verifyWebhook() {
      throw new Error("not used here");
    },
  };
  return { provider, answers, asked };
}

describe("decideCheckout", () => {
  it("pays a paid checkout, forgets an expired one, reports an unknown one and waits for an open one", () => {
    expect(decideCheckout("paid")).toBe("pay");
    expect(decideCheckout("expired")).toBe("expire");
    expect(decideCheckout("unknown")).toBe("report-unknown");
    expect(decideCheckout("open")).toBe("wait");
  });
});

describe("the sandbox's answer about its checkouts", () => {
  it("knows none, then open, then paid once Pay was pressed (even if the webhook is lost)", async () => {
    let now = new Date("2026-01-01T00:00:00Z");
    const sandbox = createSandboxProvider({
      secret: "s",
      webhookUrl: "http://127.0.0.1:1/hook",
      store: memorySandboxStore(() => now),
      now: () => now,
      fetch: async () => {
        throw new Error("black hole");
      },
    });
    expect((await sandbox.retrieveCheckout("cs_sbx_nope")).status).toBe("unknown");
    const made = await sandbox.createCheckout({
      orderId: "o1",
      invoiceId: "i1",
      invoiceNumber: "INV-2026-0001",
      description: "x",
      amount: 80,
      currency: "USD",
      customerEmail: "a@example.com",
      successUrl: "http://x/s",
      cancelUrl: "http://x/c",
      idempotencyKey: "o1",
    });
    expect(await sandbox.retrieveCheckout(made.reference!)).toEqual({
      status: "open",
      amount: 80,
      currency: "USD",
    });
    const token = new URL(made.url!, "http://x").searchParams.get("session")!;
    await expect(sandbox.pay(sandbox.readSession(token)!)).rejects.toThrow(/could not be delivered/);
    expect(await sandbox.retrieveCheckout(made.reference!)).toMatchObject({ status: "paid", amount: 80 });

    const other = await sandbox.createCheckout({
      orderId: "o2",
      invoiceId: "i2",
      invoiceNumber: "INV-2026-0002",
      description: "x",
      amount: 10,
      currency: "EUR",
      customerEmail: "a@example.com",
      successUrl: "http://x/s",
      cancelUrl: "http://x/c",
      idempotencyKey: "o2",
    });
    now = new Date(now.getTime() + SANDBOX_SESSION_TTL_MS + 1);
    expect((await sandbox.retrieveCheckout(other.reference!)).status).toBe("expired");
  });
});

describe("sweepPendingCheckouts and checkOnReturn", () => {
  let handle: DatabaseHandle;
  let db: Database;
  let deps: ReconcileDeps;
  let fake: ReturnType<typeof fakeProvider>;
  let n = 0;
  const base = new Date();

  beforeAll(async () => {
    handle = await openSeededMemoryDatabase();
    db = handle.db;
    fake = fakeProvider();
    deps = {
      db,
      business: TEST_BUSINESS,
      publicUrl: TEST_PUBLIC_URL,
      wakeOutbox: () => {},
      logger: { info: () => {}, warn: () => {} },
      provider: (name) => (name === "stripe" ? fake.provider : null),
    };
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
  });

  /** A pending order with a Stripe checkout started `minutesAgo` before `base`. */
  async function checkoutOrder(minutesAgo: number, status: "pending" | "cancelled" = "pending") {
    const id = `sweep-${++n}`;
    await db.insert(user).values({ id, name: "Ada", email: `${id}@example.com` });
    await db.insert(clients).values({ id, name: "Ada", email: `${id}@example.com` });
    const [made] = await makeOrders(db, id, { amountUsd: 80, status });
    const reference = `cs_test_${id}`;
    await db.execute(
      sql`update orders set provider = 'stripe', provider_reference = ${reference},
        updated_at = ${new Date(base.getTime() - minutesAgo * MINUTE).toISOString()}::timestamptz
        where id = ${made!.orderId}`,
    );
    const read = async () => ({
      order: (await db.select().from(orders).where(eq(orders.id, made!.orderId)))[0]!,
      invoice: (await db.select().from(invoices).where(eq(invoices.id, made!.invoiceId)))[0]!,
      events: await db.select().from(paymentEvents).where(eq(paymentEvents.orderId, made!.orderId)),
      receipts: await db
        .select()
        .from(outboxEmails)
        .where(eq(outboxEmails.toAddress, `${id}@example.com`)),
      paidNotices: (await db.select().from(notifications).where(eq(notifications.userId, id))).filter((x) =>
        x.title.includes("Payment"),
      ),
      issues: await db.select().from(paymentIssues).where(eq(paymentIssues.orderId, made!.orderId)),
    });
    return { clientId: id, orderId: made!.orderId, reference, read };
  }

  const paid = (amount = 80): CheckoutStatus => ({
    status: "paid",
    amount,
    currency: "USD",
    paymentReference: "pi_1",
  });

  it("asks only about pending checkouts older than ten minutes, least recently asked first, in a bounded batch", async () => {
    const fresh = await checkoutOrder(5);
    const old = await checkoutOrder(30);
    const older = await checkoutOrder(60);
    const cancelled = await checkoutOrder(60, "cancelled");
    const picked = (await selectSweepCandidates(db, base, 50, 10 * MINUTE)).map((c) => c.id);
    expect(picked).toContain(old.orderId);
    expect(picked).toContain(older.orderId);
    expect(picked).not.toContain(fresh.orderId);
    expect(picked).not.toContain(cancelled.orderId);
    expect(picked.indexOf(older.orderId)).toBeLessThan(picked.indexOf(old.orderId));
    expect(await selectSweepCandidates(db, base, 1, 10 * MINUTE)).toHaveLength(1);
    // Clean up for the runs below: these stay open.
    for (const o of [fresh, old, older]) {
      await db.update(orders).set({ providerReference: null }).where(eq(orders.id, o.orderId));
    }
  });

  it("pays a paid checkout once, forgets an expired one, reports an unknown one and leaves an open one", async () => {
    const p = await checkoutOrder(15);
    const e = await checkoutOrder(15);
    const u = await checkoutOrder(15);
    const o = await checkoutOrder(15);
    fake.answers.set(p.reference, paid());
    fake.answers.set(e.reference, { status: "expired", amount: 80, currency: "USD" });
    fake.answers.set(u.reference, { status: "unknown", amount: null, currency: null });
    const result = await sweepPendingCheckouts(deps, { now: base });
    expect(result).toMatchObject({ ran: true, paid: 1, expired: 1, unknown: 1, failed: 0 });

    const pa = await p.read();
    expect(pa.order.status).toBe("paid");
    expect(pa.invoice.status).toBe("paid");
    expect(pa.events.map((x) => x.outcome)).toEqual(["applied"]);
    expect(pa.receipts).toHaveLength(1);

    const ex = await e.read();
    expect(ex.order).toMatchObject({ status: "pending", providerReference: null });
    expect(ex.invoice.status).toBe("sent");

    const un = await u.read();
    expect(un.order).toMatchObject({ status: "pending", providerReference: null });
    expect(un.issues.map((i) => [i.kind, i.reference])).toEqual([["unknown-checkout", u.reference]]);

    const op = await o.read();
    expect(op.order).toMatchObject({ status: "pending", providerReference: o.reference });
    expect(op.order.checkoutCheckedAt?.getTime()).toBe(base.getTime());

    // A second run: nothing paid twice, the open one asked again.
    fake.asked.length = 0;
    const again = await sweepPendingCheckouts(deps, { now: new Date(base.getTime() + 5 * MINUTE) });
    expect(again).toMatchObject({ ran: true, paid: 0 });
    expect(fake.asked).toEqual([o.reference]);
    expect((await p.read()).receipts).toHaveLength(1);
  });

  it("records a payment of the wrong amount for the back office and pays nothing", async () => {
    const w = await checkoutOrder(15);
    fake.answers.set(w.reference, paid(79));
    await sweepPendingCheckouts(deps, { now: base });
    const after = await w.read();
    expect(after.order.status).toBe("pending");
    expect(after.issues.map((i) => i.kind)).toEqual(["wrong-amount"]);
    await db.update(orders).set({ providerReference: null }).where(eq(orders.id, w.orderId));
  });

  it("runs in one process at a time: a held lease makes another run do nothing until it expires", async () => {
    const h = await checkoutOrder(15);
    fake.answers.set(h.reference, paid());
    expect(await acquireLease(db, SWEEP_LEASE, "other-process", base, 5 * MINUTE)).toBe(true);
    expect(await sweepPendingCheckouts(deps, { now: base })).toMatchObject({ ran: false, checked: 0 });
    expect((await h.read()).order.status).toBe("pending");
    const later = new Date(base.getTime() + 6 * MINUTE);
    expect(await sweepPendingCheckouts(deps, { now: later })).toMatchObject({ ran: true, paid: 1 });
    await releaseLease(db, SWEEP_LEASE, "other-process");
  });

  it("stops between checkouts when the process shuts down, and a provider error skips one checkout", async () => {
    const a = await checkoutOrder(15);
    const b = await checkoutOrder(15);
    fake.answers.set(a.reference, new Error("provider down"));
    fake.answers.set(b.reference, paid());
    expect(await sweepPendingCheckouts(deps, { now: base, stopping: () => true })).toMatchObject({
      ran: true,
      checked: 0,
    });
    const run = await sweepPendingCheckouts(deps, { now: base });
    expect(run).toMatchObject({ failed: 1, paid: 1 });
    expect((await a.read()).order.status).toBe("pending");
    await db.update(orders).set({ providerReference: null }).where(eq(orders.id, a.orderId));
  });

  it("the return pays the client's own pending order once, and nobody else's", async () => {
    const r = await checkoutOrder(1);
    fake.answers.set(r.reference, paid());
    const stranger = await checkoutOrder(1);
    expect(await checkOnReturn(deps, stranger.clientId, r.orderId)).toBe("nothing to check");
    expect((await r.read()).order.status).toBe("pending");
    expect(await checkOnReturn(deps, r.clientId, r.orderId)).toBe("applied");
    expect(await checkOnReturn(deps, r.clientId, r.orderId)).toBe("nothing to check");
    const after = await r.read();
    expect(after.order.status).toBe("paid");
    expect(after.invoice.status).toBe("paid");
    expect(after.receipts).toHaveLength(1);
    expect(after.paidNotices.filter((x) => x.title === "Payment Received")).toHaveLength(1);

    // An open checkout changes nothing.
    const open = await checkoutOrder(1);
    expect(await checkOnReturn(deps, open.clientId, open.orderId)).toBe("checkout open");
    expect((await open.read()).order.status).toBe("pending");
  });

  /**
   * A completed order whose first invoice is paid and whose balance invoice ($20) has a Stripe checkout
   * kept on it, made `minutesAgo` before `base` (as Pay Now on a quote's balance does).
   */
  async function balanceCheckout(minutesAgo: number) {
    const id = `sweep-${++n}`;
    await db.insert(user).values({ id, name: "Ada", email: `${id}@example.com` });
    await db.insert(clients).values({ id, name: "Ada", email: `${id}@example.com` });
    const [made] = await makeOrders(db, id, { amountUsd: 80, status: "completed" });
    const reference = `cs_test_${id}_balance`;
    const [balance] = await db
      .insert(invoices)
      .values({
        invoiceNumber: `INV-1999-${n}`,
        invoiceYear: 1999,
        invoiceSeq: n,
        clientId: id,
        orderId: made!.orderId,
        kind: "balance",
        status: "sent",
        subtotal: 20,
        totalAmount: 20,
        amountUsd: 20,
        exchangeRate: 1,
        dueDate: base,
        checkoutProvider: "stripe",
        checkoutReference: reference,
        checkoutStartedAt: new Date(base.getTime() - minutesAgo * MINUTE),
      })
      .returning();
    const invoice = async (invoiceId: string) =>
      (await db.select().from(invoices).where(eq(invoices.id, invoiceId)))[0]!;
    const read = async () => ({
      order: (await db.select().from(orders).where(eq(orders.id, made!.orderId)))[0]!,
      first: await invoice(made!.invoiceId),
      balance: await invoice(balance!.id),
      receipts: await db
        .select()
        .from(outboxEmails)
        .where(eq(outboxEmails.toAddress, `${id}@example.com`)),
    });
    return { clientId: id, orderId: made!.orderId, invoiceId: balance!.id, reference, read };
  }

  it("asks about a checkout kept on an open invoice of a completed order (a balance) and pays that invoice once", async () => {
    const b = await balanceCheckout(15);
    const fresh = await balanceCheckout(5);
    const picked = await selectSweepCandidates(db, base, 50, 10 * MINUTE);
    expect(picked).toContainEqual({
      id: b.orderId,
      invoiceId: b.invoiceId,
      provider: "stripe",
      providerReference: b.reference,
      keptOn: "invoice",
    });
    expect(picked.map((c) => c.invoiceId)).not.toContain(fresh.invoiceId);

    const e = await balanceCheckout(15);
    fake.answers.set(b.reference, paid(20));
    fake.answers.set(e.reference, { status: "expired", amount: 20, currency: "USD" });
    const run = await sweepPendingCheckouts(deps, { now: base });
    expect(run).toMatchObject({ paid: 1, expired: 1, failed: 0 });
    const after = await b.read();
    expect(after.order.status).toBe("completed");
    expect(after.balance).toMatchObject({ status: "paid", paymentReference: "pi_1" });
    expect(after.balance.checkoutCheckedAt?.getTime()).toBe(base.getTime());
    expect(after.first.status).toBe("paid");
    expect(after.receipts).toHaveLength(1);
    expect(after.receipts[0]!.text).toContain(after.balance.invoiceNumber);
    expect((await e.read()).balance).toMatchObject({ status: "sent", checkoutReference: null });

    // Next run: the paid and the forgotten checkouts are not asked about again.
    fake.asked.length = 0;
    await sweepPendingCheckouts(deps, { now: new Date(base.getTime() + 5 * MINUTE) });
    expect(fake.asked).not.toContain(b.reference);
    expect(fake.asked).not.toContain(e.reference);
    expect((await b.read()).receipts).toHaveLength(1);
    await db.update(invoices).set({ checkoutReference: null }).where(eq(invoices.id, fresh.invoiceId));
  });

  it("the return pays the client's own balance through the checkout kept on it", async () => {
    const r = await balanceCheckout(1);
    fake.answers.set(r.reference, paid(20));
    const stranger = await balanceCheckout(1);
    expect(await checkOnReturn(deps, stranger.clientId, r.orderId)).toBe("nothing to check");
    expect(await checkOnReturn(deps, r.clientId, r.orderId)).toBe("applied");
    expect(await checkOnReturn(deps, r.clientId, r.orderId)).toBe("nothing to check");
    const after = await r.read();
    expect([after.order.status, after.first.status, after.balance.status]).toEqual([
      "completed",
      "paid",
      "paid",
    ]);
    expect(after.receipts).toHaveLength(1);
    await db.update(invoices).set({ checkoutReference: null }).where(eq(invoices.id, stranger.invoiceId));
  });

  it("a payment for a cancelled order is recorded once for the back office and changes nothing", async () => {
    const c = await checkoutOrder(15, "cancelled");
    const order = { id: c.orderId, provider: "stripe" as const, providerReference: c.reference };
    expect(await applyPaidCheckout(deps, order, paid(), "sweep")).toBe("ignored: order cancelled");
    expect(await applyPaidCheckout(deps, order, paid(), "return")).toBe("duplicate");
    const after = await c.read();
    expect(after.order.status).toBe("cancelled");
    expect(after.issues.map((i) => [i.kind, i.reference])).toEqual([["order-cancelled", "pi_1"]]);
    const listed = await listPaymentIssues(db, 50);
    expect(listed.map((i) => i.kind)).toEqual(
      expect.arrayContaining(["order-cancelled", "wrong-amount", "unknown-checkout"]),
    );
    expect(listed.find((i) => i.orderId === c.orderId)).toMatchObject({
      clientId: c.clientId,
      provider: "stripe",
    });
  });
});
