/** processPaymentEvent: verified events are stored once and applied only when they pay what is owed. */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/client.server";
import { clients, invoices, orders, outboxEmails, paymentEvents, paymentIssues, user } from "~/db/schema";
import { makeOrders } from "~/features/testing/fixtures.server";
import {
  openSeededMemoryDatabase,
  TEST_BUSINESS,
  TEST_PUBLIC_URL,
} from "~/features/testing/memory-database.server";
import type { VerifiedPaymentEvent } from "./provider";
import { invoicePaidBy, processPaymentEvent, type WebhookDeps } from "./webhooks.server";

describe("invoicePaidBy", () => {
  const deposit = { id: "d", status: "paid" as const, paymentReference: "pi_deposit" };
  const balance = { id: "b", status: "sent" as const, paymentReference: null as string | null };
  const invoices = [deposit, balance];
  it("a checkout that names its invoice pays that one, never another of the order's", () => {
    expect(invoicePaidBy({ invoiceId: "d", reference: "pi_other" }, invoices)).toBe(deposit);
    expect(invoicePaidBy({ invoiceId: "B", reference: null }, [{ ...balance, id: "b" }])).toEqual(balance);
    expect(invoicePaidBy({ invoiceId: "x", reference: null }, invoices)).toBe("unknown");
  });
  it("a checkout made before checkouts named their invoice: the one its payment paid, else the open one, else the first", () => {
    expect(invoicePaidBy({ reference: "pi_deposit" }, invoices)).toBe(deposit);
    expect(invoicePaidBy({ invoiceId: null, reference: "pi_new" }, invoices)).toBe(balance);
    expect(invoicePaidBy({ reference: null }, [deposit])).toBe(deposit);
    expect(invoicePaidBy({ reference: null }, [])).toBeUndefined();
  });
});

describe("processPaymentEvent", () => {
  let handle: DatabaseHandle;
  let db: Database;
  let deps: WebhookDeps;
  const woken: number[] = [];
  const warnings: string[] = [];
  let n = 0;
  beforeAll(async () => {
    handle = await openSeededMemoryDatabase();
    db = handle.db;
    deps = {
      db,
      business: TEST_BUSINESS,
      publicUrl: TEST_PUBLIC_URL,
      wakeOutbox: () => woken.push(Date.now()),
      logger: { info: () => {}, warn: (_obj: unknown, message?: string) => warnings.push(String(message)) },
    };
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
  });

  async function pendingOrder(status: "pending" | "cancelled" = "pending") {
    const id = `hook-${++n}`;
    await db.insert(user).values({ id, name: "Ada", email: `${id}@example.com` });
    await db.insert(clients).values({ id, name: "Ada", email: `${id}@example.com` });
    const [made] = await makeOrders(db, id, { amountUsd: 80, status });
    const read = async () => ({
      order: (await db.select().from(orders).where(eq(orders.id, made!.orderId)))[0]!,
      invoice: (await db.select().from(invoices).where(eq(invoices.id, made!.invoiceId)))[0]!,
      receipts: await db
        .select()
        .from(outboxEmails)
        .where(eq(outboxEmails.toAddress, `${id}@example.com`)),
    });
    return { ...made!, read };
  }
  const event = (over: Partial<VerifiedPaymentEvent> & { orderId: string | null }): VerifiedPaymentEvent => ({
    provider: "sandbox",
    eventId: `evt_${++n}`,
    type: "checkout.completed",
    kind: "paid",
    amount: 80,
    currency: "USD",
    reference: `cs_${n}`,
    payload: {},
    ...over,
  });

  it("applies a payment of the invoice's amount once: order and invoice paid, one receipt queued", async () => {
    const o = await pendingOrder();
    const paid = event({ orderId: o.orderId });
    expect(await processPaymentEvent(deps, paid)).toEqual({ duplicate: false, outcome: "applied" });
    const after = await o.read();
    expect(after.order).toMatchObject({
      status: "paid",
      provider: "sandbox",
      providerReference: paid.reference,
    });
    expect(after.invoice).toMatchObject({ status: "paid", paymentReference: paid.reference });
    expect(after.receipts.map((r) => r.kind)).toEqual(["payment-receipt"]);
    expect(after.receipts[0]!.text).toContain(o.invoiceNumber);
    expect(woken).toHaveLength(1);

    // The same event again (a provider's retry): recorded once, applied once.
    expect(await processPaymentEvent(deps, paid)).toEqual({ duplicate: true });
    expect((await o.read()).receipts).toHaveLength(1);
    expect(woken).toHaveLength(1);
    const stored = await db.select().from(paymentEvents).where(eq(paymentEvents.eventId, paid.eventId));
    expect(stored.map((e) => e.outcome)).toEqual(["applied"]);
    // A second, different payment for the paid order changes nothing.
    expect(await processPaymentEvent(deps, event({ orderId: o.orderId }))).toEqual({
      duplicate: false,
      outcome: "ignored: already paid",
    });
  });

  it("a second payment of a paid invoice goes to Needs attention; news of the payment it was paid with does not", async () => {
    const o = await pendingOrder();
    const paid = event({ orderId: o.orderId, invoiceId: o.invoiceId });
    expect(await processPaymentEvent(deps, paid)).toMatchObject({ outcome: "applied" });
    const again = { ...paid, eventId: `checkout:${paid.reference}:paid` };
    expect(await processPaymentEvent(deps, again)).toMatchObject({ outcome: "ignored: already paid" });
    const issues = () => db.select().from(paymentIssues).where(eq(paymentIssues.orderId, o.orderId));
    expect(await issues()).toEqual([]);
    const second = event({ orderId: o.orderId, invoiceId: o.invoiceId, reference: "pi_second" });
    expect(await processPaymentEvent(deps, second)).toMatchObject({ outcome: "ignored: already paid" });
    expect((await issues()).map((i) => [i.kind, i.reference])).toEqual([["already-paid", "pi_second"]]);
    // An invoice that is not the order's is never paid in its place.
    const other = await pendingOrder();
    expect(
      await processPaymentEvent(deps, event({ orderId: other.orderId, invoiceId: o.invoiceId })),
    ).toMatchObject({ outcome: "ignored: unknown invoice" });
    expect((await other.read()).invoice.status).toBe("sent");
  });

  it("records and ignores a wrong amount or currency, an expiry, an unknown or a cancelled order", async () => {
    const o = await pendingOrder();
    const outcome = async (e: VerifiedPaymentEvent) => {
      const r = await processPaymentEvent(deps, e);
      return r.duplicate ? "duplicate" : r.outcome;
    };
    expect(await outcome(event({ orderId: o.orderId, amount: 79.99 }))).toBe(
      "ignored: amount does not match the invoice",
    );
    expect(warnings).toContain("payment webhook: amount does not match the invoice");
    expect(await outcome(event({ orderId: o.orderId, currency: "EUR" }))).toBe(
      "ignored: amount does not match the invoice",
    );
    expect(await outcome(event({ orderId: o.orderId, kind: "expired", type: "checkout.expired" }))).toBe(
      "noted: checkout expired, order stays pending",
    );
    expect(await outcome(event({ orderId: o.orderId, kind: "other", type: "charge.updated" }))).toBe(
      "ignored: not a payment outcome",
    );
    expect(await outcome(event({ orderId: "0b6c4c8e-7c43-4d51-9c55-0f6f1d9b0a11" }))).toBe(
      "ignored: unknown order",
    );
    expect(await outcome(event({ orderId: "not-a-uuid" }))).toBe("ignored: unknown order");
    const after = await o.read();
    expect([after.order.status, after.invoice.status, after.receipts.length]).toEqual(["pending", "sent", 0]);

    const cancelled = await pendingOrder("cancelled");
    expect(await outcome(event({ orderId: cancelled.orderId }))).toBe("ignored: order cancelled");
    expect((await cancelled.read()).invoice.status).toBe("void");
  });

  it("hands each refund an event reports to the deps' refundUpdates, and refuses a refund event without one", async () => {
    const refund = {
      status: "succeeded" as const,
      providerRefundId: "re_1",
      refundId: null,
      paymentReference: "pi_1",
      amount: 10,
      currency: "USD",
    };
    const seen: string[] = [];
    const refundEvent = () =>
      event({ orderId: null, kind: "refund", refunds: [refund, { ...refund, providerRefundId: "re_2" }] });
    const handled = await processPaymentEvent(
      {
        ...deps,
        refundUpdates: async (_tx, ctx, provider, update) => {
          seen.push(`${provider} ${update.providerRefundId} ${ctx.publicUrl === TEST_PUBLIC_URL}`);
          return `handled ${update.providerRefundId}`;
        },
      },
      refundEvent(),
    );
    expect(handled).toEqual({ duplicate: false, outcome: "handled re_1; handled re_2" });
    expect(seen).toEqual(["sandbox re_1 true", "sandbox re_2 true"]);
    // A wiring mistake is loud and records nothing: the provider sends the event again.
    const unwired = refundEvent();
    await expect(processPaymentEvent(deps, unwired)).rejects.toThrow(/refundUpdates/);
    expect(await db.select().from(paymentEvents).where(eq(paymentEvents.eventId, unwired.eventId))).toEqual(
      [],
    );
  });
});
