/** processPaymentEvent: verified events are stored once and applied only when they pay what is owed. */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/client.server";
import { clients, invoices, orders, outboxEmails, paymentEvents, user } from "~/db/schema";
import { makeOrders } from "~/features/testing/fixtures.server";
import {
  openSeededMemoryDatabase,
  TEST_BUSINESS,
  TEST_PUBLIC_URL,
} from "~/features/testing/memory-database.server";
import type { VerifiedPaymentEvent } from "./provider";
import { processPaymentEvent, type WebhookDeps } from "./webhooks.server";

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
});
