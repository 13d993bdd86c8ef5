/** transitionOrder: the life cycle's rules, each change with its audit rows, notifications and email. */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/client.server";
import { auditLog, clients, invoices, notifications, orders, outboxEmails, user } from "~/db/schema";
import type { ChangeDeps } from "~/features/audit/audit.server";
import { voidInvoice } from "~/features/invoices/invoice-lifecycle.server";
import { makeOrders } from "~/features/testing/fixtures.server";
import {
  openSeededMemoryDatabase,
  TEST_BUSINESS,
  TEST_PUBLIC_URL,
} from "~/features/testing/memory-database.server";
import { transitionOrder } from "./order-lifecycle.server";

describe("transitionOrder", () => {
  let handle: DatabaseHandle;
  let db: Database;
  let deps: ChangeDeps;
  let n = 0;
  beforeAll(async () => {
    handle = await openSeededMemoryDatabase();
    db = handle.db;
    deps = {
      db,
      config: {
        publicUrl: TEST_PUBLIC_URL,
        business: TEST_BUSINESS,
      },
      actor: { id: null, email: "owner@portico.test" },
    };
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
  });

  async function anOrder() {
    const id = `life-${++n}`;
    await db.insert(user).values({ id, name: "Ada", email: `${id}@example.com` });
    await db.insert(clients).values({ id, name: "Ada", email: `${id}@example.com` });
    const [made] = await makeOrders(db, id, { amountUsd: 80 });
    return { clientId: id, ...made! };
  }
  const statusOf = async (orderId: string, invoiceId: string) => [
    (await db.select().from(orders).where(eq(orders.id, orderId)))[0]!.status,
    (await db.select().from(invoices).where(eq(invoices.id, invoiceId)))[0]!.status,
  ];
  const auditOf = async (entityId: string) =>
    (await db.select().from(auditLog).where(eq(auditLog.entityId, entityId)).orderBy(auditLog.at)).map(
      (a) => [a.action, a.after],
    );

  it("walks pending → paid → in progress → completed, refusing skips and moves back", async () => {
    const o = await anOrder();
    expect(await transitionOrder(deps, o.orderId, "completed", null)).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(await transitionOrder(deps, o.orderId, "paid", null)).toMatchObject({ ok: true });
    expect(await statusOf(o.orderId, o.invoiceId)).toEqual(["paid", "paid"]);
    expect(await auditOf(o.invoiceId)).toEqual([
      ["invoice.paid", { status: "paid", via: "order marked paid" }],
    ]);
    expect(await transitionOrder(deps, o.orderId, "pending", null)).toMatchObject({ ok: false, status: 409 });
    expect((await transitionOrder(deps, o.orderId, "in_progress", null)).ok).toBe(true);
    expect((await transitionOrder(deps, o.orderId, "completed", "Thanks!")).ok).toBe(true);
    expect(await statusOf(o.orderId, o.invoiceId)).toEqual(["completed", "paid"]);
    expect(
      (await auditOf(o.orderId)).map(([action, after]) => [action, (after as { status: string }).status]),
    ).toEqual([
      ["order.status", "paid"],
      ["order.status", "in_progress"],
      ["order.status", "completed"],
    ]);
    const mails = await db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.toAddress, `${o.clientId}@example.com`))
      .orderBy(outboxEmails.createdAt);
    expect(mails.map((m) => m.kind)).toEqual(["order-status", "order-status", "order-status"]);
    expect(mails.at(-1)!.text).toContain("Thanks!");
    // Each email and notice about the order opens the order's page.
    for (const mail of mails) expect(mail.text).toContain(`/client/orders/${o.orderId}`);
    const completedNote = (
      await db.select().from(notifications).where(eq(notifications.userId, o.clientId))
    ).find((n) => n.message === "Service completed successfully!");
    expect(completedNote?.href).toBe(`/client/orders/${o.orderId}`);
    expect(await transitionOrder(deps, "0b6c4c8e-7c43-4d51-9c55-0f6f1d9b0a11", "paid", null)).toMatchObject({
      status: 404,
    });
  });

  it("cancelling voids the unpaid invoice (keeping its number), the same way as voiding it by hand", async () => {
    const cancelled = await anOrder();
    expect((await transitionOrder(deps, cancelled.orderId, "cancelled", null)).ok).toBe(true);
    expect(await statusOf(cancelled.orderId, cancelled.invoiceId)).toEqual(["cancelled", "void"]);
    expect(await auditOf(cancelled.invoiceId)).toEqual([
      ["invoice.void", { status: "void", reason: "order cancelled" }],
    ]);
    const notes = await db.select().from(notifications).where(eq(notifications.userId, cancelled.clientId));
    expect(notes.map((x) => x.message)).toContain("Order has been cancelled.");
    expect(notes.find((x) => x.message === "Order has been cancelled.")?.href).toBe(
      `/client/orders/${cancelled.orderId}`,
    );

    const voided = await anOrder();
    // Voiding by hand emails the client: the outbox is woken once it committed, not after a refusal.
    let wakes = 0;
    const voiding = { ...deps, wakeOutbox: () => void wakes++ };
    expect((await voidInvoice(voiding, voided.invoiceId, "duplicate")).ok).toBe(true);
    expect(wakes).toBe(1);
    expect(await auditOf(voided.invoiceId)).toEqual([
      ["invoice.void", { status: "void", reason: "duplicate" }],
    ]);
    expect(await voidInvoice(voiding, voided.invoiceId, null)).toMatchObject({ ok: false, status: 409 });
    expect(wakes).toBe(1);
  });

  it("after the commit, wakes the outbox and expires an unpaid cancelled order's checkout only", async () => {
    const wakes: string[] = [];
    const expired: { orderId: string; provider: string | null; reference: string | null }[] = [];
    const withSteps = {
      ...deps,
      wakeOutbox: () => wakes.push("wake"),
      expireCheckout: (c: (typeof expired)[number]) => expired.push(c),
    };
    const unpaid = await anOrder();
    const [row] = await db.select().from(orders).where(eq(orders.id, unpaid.orderId));
    expect((await transitionOrder(withSteps, unpaid.orderId, "cancelled", null)).ok).toBe(true);
    expect(expired).toEqual([
      { orderId: unpaid.orderId, provider: row!.provider, reference: row!.providerReference },
    ]);
    expect(wakes).toEqual(["wake"]);

    const paid = await anOrder();
    expect((await transitionOrder(withSteps, paid.orderId, "paid", null)).ok).toBe(true);
    expect((await transitionOrder(withSteps, paid.orderId, "cancelled", null)).ok).toBe(true);
    expect(expired).toHaveLength(1);
    // A refused change commits nothing, so nothing follows it.
    expect((await transitionOrder(withSteps, paid.orderId, "paid", null)).ok).toBe(false);
    expect(wakes).toHaveLength(3);
  });
});
