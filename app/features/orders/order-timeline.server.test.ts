/**
 * The timeline's timestamps on the database: the life cycle writes them, and migration 0007 back-filled
 * the orders made before it from the audit log (its hand-written statements, run again here).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/client.server";
import { MIGRATIONS_FOLDER } from "~/db/migrate.server";
import { auditLog, clients, type OrderStatus, orders, user } from "~/db/schema";
import type { ChangeDeps } from "~/features/audit/audit.server";
import { makeOrders } from "~/features/testing/fixtures.server";
import {
  openSeededMemoryDatabase,
  TEST_BUSINESS,
  TEST_PUBLIC_URL,
} from "~/features/testing/memory-database.server";
import { transitionOrder } from "./order-lifecycle.server";
import { orderTimeline } from "./order-timeline";

describe("order timeline timestamps", () => {
  let handle: DatabaseHandle;
  let db: Database;
  let deps: ChangeDeps;
  let n = 0;
  beforeAll(async () => {
    handle = await openSeededMemoryDatabase();
    db = handle.db;
    deps = {
      db,
      config: { publicUrl: TEST_PUBLIC_URL, business: TEST_BUSINESS },
      actor: { id: null, email: "owner@portico.test" },
    };
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
  });

  async function anOrder(status: OrderStatus) {
    const id = `timeline-${++n}`;
    await db.insert(user).values({ id, name: "Ada", email: `${id}@example.com` });
    await db.insert(clients).values({ id, name: "Ada", email: `${id}@example.com` });
    const [made] = await makeOrders(db, id, { status });
    return made!.orderId;
  }
  const read = async (id: string) => (await db.select().from(orders).where(eq(orders.id, id)))[0]!;

  it("the life cycle stamps each step as it is reached", async () => {
    const id = await anOrder("pending");
    for (const to of ["paid", "in_progress", "completed"] as const) {
      expect((await transitionOrder(deps, id, to, null)).ok).toBe(true);
    }
    const order = await read(id);
    expect(order.paidAt).toBeInstanceOf(Date);
    expect(order.startedAt).toBeInstanceOf(Date);
    expect(order.completedAt).toBeInstanceOf(Date);
    expect(order.cancelledAt).toBeNull();
    expect(orderTimeline(order).every((s) => s.state === "done" && s.at)).toBe(true);
    const cancelled = await anOrder("paid");
    expect((await transitionOrder(deps, cancelled, "cancelled", null)).ok).toBe(true);
    expect((await read(cancelled)).cancelledAt).toBeInstanceOf(Date);
  });

  it("the migration back-filled older orders from the audit log, else from their last update", async () => {
    const audited = await anOrder("completed");
    const unaudited = await anOrder("in_progress");
    const cancelled = await anOrder("cancelled");
    const open = await anOrder("paid");
    const ids = [audited, unaudited, cancelled, open];
    // As they were before the migration: no step timestamps.
    for (const id of ids) {
      await db
        .update(orders)
        .set({ startedAt: null, completedAt: null, cancelledAt: null })
        .where(eq(orders.id, id));
    }
    const started = new Date("2026-01-02T10:00:00Z");
    const completed = new Date("2026-01-05T16:00:00Z");
    await db.insert(auditLog).values([
      {
        action: "order.status",
        entity: "order",
        entityId: audited,
        after: { status: "in_progress" },
        at: started,
      },
      {
        action: "order.status",
        entity: "order",
        entityId: audited,
        after: { status: "completed" },
        at: completed,
      },
    ]);
    const lastUpdate = new Date("2026-02-01T08:00:00Z");
    await db.execute(
      sql`update orders set updated_at = ${lastUpdate.toISOString()} where id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );

    const file = readFileSync(path.join(MIGRATIONS_FOLDER, "0007_order_brief_conversation.sql"), "utf8");
    const handWritten = file.slice(file.indexOf("-- Hand-written below"));
    for (const statement of handWritten.split("--> statement-breakpoint")) {
      if (statement.trim()) await db.execute(sql.raw(statement));
    }

    expect(await read(audited)).toMatchObject({
      startedAt: started,
      completedAt: completed,
      cancelledAt: null,
    });
    expect(await read(unaudited)).toMatchObject({
      startedAt: lastUpdate,
      completedAt: null,
      cancelledAt: null,
    });
    expect(await read(cancelled)).toMatchObject({
      startedAt: null,
      completedAt: null,
      cancelledAt: lastUpdate,
    });
    expect(await read(open)).toMatchObject({ startedAt: null, completedAt: null, cancelledAt: null });
  });
});
