/**
 * `client_totals` (drizzle/0005_client_totals.sql, ADR 0801) against the truth: after every kind of
 * write the triggers must leave it equal to counting and summing orders and invoices directly. Inserts
 * (one row and set-based), status changes through the real payment, back-office and overdue code, amount
 * and owner changes, refunds (partial and full, through the real refund code, and set-based), deletes,
 * rolled-back and concurrent transactions, the migration's backfill, truncate. The sums are net of
 * refunds: each row counts `amount_usd - refunded_usd` (drizzle/0011_refunds.sql).
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, queryRows } from "~/db/client.server";
import { invoices, orders } from "~/db/schema";
import { voidInvoice } from "~/features/invoices/invoice-lifecycle.server";
import { markOverdueInvoices } from "~/features/invoices/overdue.server";
import { loadClientTotals } from "~/features/lists/client-totals.server";
import { transitionOrder } from "~/features/orders/order-lifecycle.server";
import { markInvoicePaid } from "~/features/orders/payment.server";
import { requestRefund } from "~/features/refunds/refund-requests.server";
import { changeOrderStatus, makeOrders } from "~/features/testing/fixtures.server";
import { createAccount } from "../support/admin-fixtures";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

interface TotalRow {
  client_id: string;
  kind: string;
  status: string;
  count: number;
  amount: string;
}

/** What client_totals says, without rows that net to nothing (a status a client no longer has). */
const kept = (db: Database) =>
  queryRows<TotalRow>(
    db,
    sql`select client_id, kind, status, count, amount_usd::text as amount from client_totals
        where count <> 0 or amount_usd <> 0 order by 1, 2, 3`,
  );

/** The same, counted and summed from orders and invoices themselves, net of what was refunded. */
const truth = (db: Database) =>
  queryRows<TotalRow>(
    db,
    sql`select * from (
          select client_id, 'order' as kind, status, count(*)::int as count,
            sum(amount_usd - refunded_usd)::numeric(18, 2)::text as amount
          from orders group by client_id, status
          union all
          select client_id, 'invoice', status, count(*)::int, sum(amount_usd - refunded_usd)::numeric(18, 2)::text
          from invoices group by client_id, status
        ) t order by 1, 2, 3`,
  );

describe.each(testDatabases)("client totals on $name", (database) => {
  let server: TestServer;
  let db: Database;
  let ada: string;
  let bo: string;
  const deps = () => ({
    db,
    config: server.portico.runtime.config,
    actor: { id: null, email: "owner@example.com" },
    wakeOutbox() {},
  });
  const expectRight = async () => expect(await kept(db)).toEqual(await truth(db));
  /** A refund by hand (fixture invoices have no provider payment): the back office's own code. */
  const refund = async (invoiceId: string, amount: string) => {
    const result = await requestRefund(
      { ...deps(), provider: () => null, logger: { info() {}, warn() {} }, wakeOutbox() {} },
      invoiceId,
      { amount, reason: "Totals test", reference: `BT-BACK-${amount}`, formToken: randomUUID() },
    );
    expect(result, amount).toMatchObject({ ok: true });
  };

  beforeAll(async () => {
    server = await startTestServer(database);
    db = server.portico.runtime.database.db;
    ada = await createAccount(db, { email: "ada.totals@example.com", name: "Ada Totals" });
    bo = await createAccount(db, { email: "bo.totals@example.com", name: "Bo Totals" });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it("counts and sums inserts, one row or many, per client and status", async () => {
    await makeOrders(db, ada, { count: 3, status: "paid", amountUsd: 10.25 });
    await makeOrders(db, ada, {
      count: 2,
      status: "pending",
      amountUsd: 99.99,
      currency: "INR",
      rate: 83.25,
    });
    await makeOrders(db, ada, { status: "completed", amountUsd: 0.01 });
    await makeOrders(db, bo, { count: 250, status: "pending", amountUsd: 12 });
    await expectRight();
    const totals = await loadClientTotals(db, ada);
    expect(totals.orders.count("paid")).toBe(3);
    expect(totals.orders.amount("paid", "completed")).toBe(30.76);
    expect(totals.orders.all()).toBe(6);
    expect(totals.invoices.count("sent")).toBe(2);
    expect(totals.invoices.amount("sent")).toBe(199.98);
    expect(totals.invoices.amountExcept("void")).toBe(230.74);
    expect((await loadClientTotals(db, bo)).orders.count("pending")).toBe(250);
    // A client without orders reads zeros.
    const none = await createAccount(db, { email: "none.totals@example.com", name: "None" });
    const empty = await loadClientTotals(db, none);
    expect([empty.orders.all(), empty.invoices.amount("paid"), empty.orders.countExcept("paid")]).toEqual([
      0, 0, 0,
    ]);
  });

  it("follows status changes through payment, the back office and the overdue job", async () => {
    const [first, second, third] = await makeOrders(db, ada, { count: 3, status: "pending", dueInDays: -1 });
    await changeOrderStatus(db, ada, first!.orderId, "paid");
    await expectRight();
    await changeOrderStatus(db, ada, first!.orderId, "completed");
    await expectRight();
    // Cancelling voids the unpaid invoice (the refund of an unpaid order): both move.
    expect((await transitionOrder(deps(), second!.orderId, "cancelled", null)).ok).toBe(true);
    await expectRight();
    expect((await markOverdueInvoices(db)) >= 1).toBe(true);
    await expectRight();
    expect((await markInvoicePaid(deps(), third!.invoiceId, "BANK-REF-1")).ok).toBe(true);
    await expectRight();
    const [fourth] = await makeOrders(db, ada, { status: "pending" });
    expect((await voidInvoice(deps(), fourth!.invoiceId, "duplicate")).ok).toBe(true);
    await expectRight();
    // An update that changes neither status nor amount leaves the totals as they were.
    const before = await kept(db);
    await db.update(orders).set({ provider: "manual" }).where(eq(orders.clientId, ada));
    expect(await kept(db)).toEqual(before);
  });

  it("follows refunds, partial and full: paid and completed orders and their invoices count net", async () => {
    const cy = await createAccount(db, { email: "cy.totals@example.com", name: "Cy Totals" });
    const [paid] = await makeOrders(db, cy, { status: "paid", amountUsd: 80 });
    const [completed] = await makeOrders(db, cy, { status: "completed", amountUsd: 40 });
    const [rupees] = await makeOrders(db, cy, {
      status: "paid",
      amountUsd: 99.99,
      currency: "INR",
      rate: 83.25,
    });
    await makeOrders(db, cy, { status: "pending", amountUsd: 12 });
    await expectRight();
    const read = () => loadClientTotals(db, cy);
    expect((await read()).orders.amount("paid", "completed")).toBe(219.99);

    await refund(paid!.invoiceId, "30");
    await expectRight();
    let t = await read();
    expect(t.orders.amount("paid", "completed")).toBe(189.99);
    expect([t.invoices.amount("paid"), t.invoices.amountExcept("void")]).toEqual([189.99, 201.99]);

    await refund(completed!.invoiceId, "10.50");
    await expectRight();
    t = await read();
    expect(t.orders.amount("completed")).toBe(29.5);
    expect(t.orders.amount("paid", "completed")).toBe(179.49);

    // In the invoice's currency: its USD share is what the invoice and the order record.
    await refund(rupees!.invoiceId, "1000");
    await expectRight();
    const [rupeeRow] = await queryRows<{ invoice: string; order: string }>(
      db,
      sql`select i.refunded_usd::text as invoice, o.refunded_usd::text as order
          from invoices i join orders o on o.id = i.order_id where i.id = ${rupees!.invoiceId}`,
    );
    expect(Number(rupeeRow!.invoice)).toBeGreaterThan(0);
    expect(rupeeRow!.order).toBe(rupeeRow!.invoice);
    const rupeeNet = Math.round((99.99 - Number(rupeeRow!.invoice)) * 100) / 100;
    expect((await read()).orders.amount("paid")).toBe(Math.round((50 + rupeeNet) * 100) / 100);

    // The rest of the first: the order is cancelled and counts nothing; its invoice stays paid at 0.
    await refund(paid!.invoiceId, "50");
    await expectRight();
    t = await read();
    expect([t.orders.count("paid"), t.orders.count("cancelled"), t.orders.amount("cancelled")]).toEqual([
      1, 1, 0,
    ]);
    expect(t.orders.amount("paid", "completed")).toBe(Math.round((29.5 + rupeeNet) * 100) / 100);
    expect([t.invoices.count("paid"), t.invoices.amount("paid")]).toEqual([
      3,
      Math.round((29.5 + rupeeNet) * 100) / 100,
    ]);
    // Unpaid invoices have no refunds: the outstanding sum is as it was.
    expect(t.invoices.amount("sent")).toBe(12);
  });

  it("follows amount and owner changes, and deletes", async () => {
    const made = await makeOrders(db, bo, { count: 4, status: "paid", amountUsd: 40 });
    await db.update(invoices).set({ amountUsd: 38.5 }).where(eq(invoices.id, made[0]!.invoiceId));
    await expectRight();
    // Several rows, several statuses and both clients in one statement.
    await db.execute(sql`
      update orders set status = case when status = 'pending' then 'cancelled' else 'completed' end,
        amount_usd = amount_usd + 1
      where client_id in (${ada}, ${bo})`);
    await expectRight();
    // Refunds written set-based, then a refunded row moved to another client.
    await db.execute(sql`update invoices set refunded_usd = least(amount_usd, 5.25)
      where client_id in (${ada}, ${bo}) and status = 'paid'`);
    await expectRight();
    await db.execute(sql`update orders set refunded_usd = least(amount_usd, 5.25)
      where client_id in (${ada}, ${bo}) and status in ('paid', 'completed')`);
    await expectRight();
    await db.update(orders).set({ clientId: ada }).where(eq(orders.id, made[1]!.orderId));
    await expectRight();
    // Deleting (an order refunded and removed): the invoice first, then its order.
    for (const m of made.slice(2)) {
      await db.delete(invoices).where(eq(invoices.id, m.invoiceId));
      await expectRight();
      await db.delete(orders).where(eq(orders.id, m.orderId));
      await expectRight();
    }
  });

  it("ignores rolled-back transactions and adds up concurrent ones", async () => {
    const before = await kept(db);
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`update orders set status = 'paid' where client_id = ${bo}`);
        await tx.execute(sql`update invoices set refunded_usd = amount_usd where client_id = ${bo}`);
        await makeOrders(tx, bo, { count: 5 });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await kept(db)).toEqual(before);

    // Many writers at once on the same clients' rows: inserts, status changes and deletes interleave.
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 12; i++) {
      const who = i % 2 ? ada : bo;
      writes.push(
        makeOrders(db, who, { count: 1 + (i % 4), status: i % 3 ? "pending" : "paid", amountUsd: i + 1 }),
      );
      writes.push(
        db.execute(sql`update orders set status = 'completed'
          where id = (select id from orders where client_id = ${who} and status = 'paid' order by created_at limit 1)`),
      );
      // A cent refunded of an invoice with at least a dollar left (12 cents at most on one: always fits).
      writes.push(
        db.execute(sql`update invoices set refunded_usd = refunded_usd + 0.01
          where id = (select id from invoices where client_id = ${who} and status = 'paid'
                      and amount_usd - refunded_usd >= 1 order by created_at limit 1)`),
      );
    }
    writes.push(markOverdueInvoices(db));
    await Promise.all(writes);
    await expectRight();
  });

  it("two open transactions on the same totals row: the second waits, then adds to the first's commit", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let firstWrote!: () => void;
    const wrote = new Promise<void>((resolve) => {
      firstWrote = resolve;
    });
    // The first holds (ada, order, pending) locked until released.
    const first = db.transaction(async (tx) => {
      await makeOrders(tx, ada, { count: 7, status: "pending", amountUsd: 3 });
      firstWrote();
      await gate;
    });
    await wrote;
    // The second adds to the same row (an order without invoice, so no other lock is in its way);
    // `.then` sends it now (a Drizzle query runs when awaited).
    const second = db
      .execute(sql`
      insert into orders (client_id, service_id, service_name, service_category, package, package_name,
        unit_price_usd, amount_usd, currency, amount_in_currency, exchange_rate, status)
      select ${ada}, id, name, category, 'basic', 'Basic', 2, 2, 'USD', 2, 1, 'pending'
      from services order by sort_order limit 1`)
      .then(() => {});
    try {
      if (database.name === "postgres") {
        // It is really waiting on the first's lock (PGlite has one connection: it simply runs after).
        await expect
          .poll(
            async () => {
              const [row] = await queryRows<{ n: number }>(
                db,
                sql`select count(*)::int as n from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'`,
              );
              return row!.n;
            },
            { timeout: 10_000 },
          )
          .toBe(1);
      }
    } finally {
      release();
    }
    await Promise.all([first, second]);
    await expectRight();
  });

  it("the migration's backfill computes the same totals, on rows as they were before refunds", async () => {
    const file = readFileSync("drizzle/0005_client_totals.sql", "utf8");
    const backfill = file
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter((s) => s.includes("INSERT INTO client_totals") && s.includes("GROUP BY client_id, status"))
      .map((s) => s.replace(/^(--.*\n)+/, ""));
    expect(backfill).toHaveLength(2);
    const before = await kept(db);
    const [refunded] = await queryRows<{ n: number }>(
      db,
      sql`select (select count(*) from invoices where refunded_usd > 0)::int
               + (select count(*) from orders where refunded_usd > 0)::int as n`,
    );
    expect(refunded!.n).toBeGreaterThan(0);
    // 0005 ran before refunds existed (0011 added refunded_usd, 0 on every row, and needed no rebuild):
    // its backfill is checked on the rows with their refunds taken off, in a transaction rolled back.
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`update invoices set refunded_usd = 0 where refunded_usd <> 0`);
        await tx.execute(sql`update orders set refunded_usd = 0 where refunded_usd <> 0`);
        const byTriggers = await kept(tx);
        expect(byTriggers).not.toEqual(before);
        await tx.execute(sql`delete from client_totals`);
        for (const statement of backfill) await tx.execute(sql.raw(statement));
        expect(await kept(tx)).toEqual(byTriggers);
        expect(await kept(tx)).toEqual(await truth(tx));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await kept(db)).toEqual(before);
    await expectRight();
  });

  it("truncating orders and invoices empties their totals", async () => {
    await db.execute(sql`truncate invoices, payment_events, orders cascade`);
    expect(await kept(db)).toEqual([]);
    await makeOrders(db, ada, { count: 2, status: "paid" });
    await expectRight();
  });
});
