/** recordPayment: the one place an order and its invoice become paid (webhooks and the back office). */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/client.server";
import { clients, invoices, liveEvents, notifications, orders, user } from "~/db/schema";
import { makeOrders } from "~/features/testing/fixtures.server";
import { openSeededMemoryDatabase } from "~/features/testing/memory-database.server";
import { recordPayment } from "./payment.server";

describe("recordPayment", () => {
  let handle: DatabaseHandle;
  let db: Database;
  let n = 0;
  beforeAll(async () => {
    handle = await openSeededMemoryDatabase();
    db = handle.db;
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
  });

  /** A new client with one pending order and its sent invoice. */
  async function pendingOrder(options: { dueInDays?: number } = {}) {
    const id = `payer-${++n}`;
    await db.insert(user).values({ id, name: "Ada", email: `${id}@example.com` });
    await db.insert(clients).values({ id, name: "Ada", email: `${id}@example.com` });
    const [made] = await makeOrders(db, id, { amountUsd: 80, ...options });
    const read = async () => {
      const [order] = await db.select().from(orders).where(eq(orders.id, made!.orderId));
      const [invoice] = await db.select().from(invoices).where(eq(invoices.id, made!.invoiceId));
      return { order: order!, invoice: invoice! };
    };
    return { clientId: id, ...(await read()), read };
  }
  const notesOf = (clientId: string) =>
    db.select().from(notifications).where(eq(notifications.userId, clientId)).orderBy(notifications.title);
  const eventsOf = async (clientId: string) =>
    (await db.select().from(liveEvents).where(eq(liveEvents.userId, clientId)))
      .filter((e) => e.kind !== "notification")
      .map((e) => [e.kind, e.entityId, e.status]);

  it("pays a pending order and its sent invoice together, with one notice and the live events", async () => {
    const { clientId, order, invoice, read } = await pendingOrder();
    const paidAt = new Date("2026-05-01T10:00:00Z");
    const result = await db.transaction((tx) =>
      recordPayment(tx, order, invoice, { provider: "stripe", reference: "pi_123", paidAt }),
    );
    const after = await read();
    expect(result.order).toMatchObject({ status: "paid", provider: "stripe", providerReference: "pi_123" });
    expect(after.order).toMatchObject({
      status: "paid",
      paidAt,
      provider: "stripe",
      providerReference: "pi_123",
    });
    expect(after.invoice).toMatchObject({ status: "paid", paidAt, paymentReference: "pi_123" });
    // One payment, one notice (ADR 0515), leading to the order's page.
    expect((await notesOf(clientId)).map((x) => [x.title, x.message, x.href])).toEqual([
      [
        "Payment Received",
        `Payment Confirmed: Invoice ${invoice.invoiceNumber} has been paid. Your order is being processed.`,
        `/client/orders/${order.id}`,
      ],
    ]);
    expect(await eventsOf(clientId)).toEqual(
      expect.arrayContaining([
        ["order", order.id, "paid"],
        ["invoice", invoice.id, "paid"],
      ]),
    );
  });

  it("keeps the order's provider for a payment by hand, and changes nothing the second time", async () => {
    const { clientId, order, invoice, read } = await pendingOrder();
    await db.transaction((tx) =>
      recordPayment(tx, order, invoice, { provider: "manual", reference: "Bank transfer: R1" }),
    );
    const paid = await read();
    expect(paid.order).toMatchObject({ status: "paid", provider: "sandbox" });
    expect(paid.invoice).toMatchObject({ status: "paid", paymentReference: "Bank transfer: R1" });
    const notes = (await notesOf(clientId)).length;

    const again = await db.transaction((tx) =>
      recordPayment(tx, paid.order, paid.invoice, { provider: "stripe", reference: "pi_late" }),
    );
    expect(again).toEqual({ order: paid.order, invoice: paid.invoice });
    expect(await read()).toEqual(paid);
    expect(await notesOf(clientId)).toHaveLength(notes);
  });

  it("pays an overdue invoice, never a void one", async () => {
    const overdue = await pendingOrder({ dueInDays: -3 });
    await db.update(invoices).set({ status: "overdue" }).where(eq(invoices.id, overdue.invoice.id));
    const { order, invoice } = await overdue.read();
    await db.transaction((tx) =>
      recordPayment(tx, order, invoice, { provider: "sandbox", reference: "cs_1" }),
    );
    expect((await overdue.read()).invoice.status).toBe("paid");

    const voided = await pendingOrder();
    await db.update(invoices).set({ status: "void" }).where(eq(invoices.id, voided.invoice.id));
    const v = await voided.read();
    await db.transaction((tx) =>
      recordPayment(tx, v.order, v.invoice, { provider: "sandbox", reference: "cs_2" }),
    );
    expect((await voided.read()).invoice).toMatchObject({
      status: "void",
      paidAt: null,
      paymentReference: null,
    });
  });
});
