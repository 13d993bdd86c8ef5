/**
 * Live events across processes on one PostgreSQL (LISTEN/NOTIFY): an event raised by one server
 * process reaches a stream held by another, and a listener whose connection drops reconnects and
 * catches up. (PGlite is one process by design, so this is the PostgreSQL matrix only.)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { makeOrders } from "~/features/testing/fixtures.server";
import type { Session } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { EventReader, openEvents, signedInClient } from "../support/portal";
import { startTestServer, type TestServer } from "../support/server";

const postgres = testDatabases.find((d) => d.name === "postgres");

/** Starts `node server.js` (the production launcher) as a second process on the same database. */
function startSecondProcess(databaseUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "test",
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      DATABASE_URL: databaseUrl,
      TEST_HOOKS: "true",
      EXCHANGE_RATES_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`second process did not start:\n${output}`)), 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of output.split("\n")) {
        if (!line.includes('"Portico listening"')) continue;
        clearTimeout(timer);
        child.stdout!.removeAllListeners("data");
        child.stdout!.resume();
        resolve({ child, url: `http://127.0.0.1:${JSON.parse(line).port}` });
        return;
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`second process exited with ${code}:\n${output}`));
    });
  });
}

describe.runIf(postgres)("live events across processes on PostgreSQL", () => {
  let server: TestServer;
  let db: Database;
  let second: { child: ChildProcess; url: string } | null = null;
  let ada: { session: Session; userId: string; email: string };
  const readers: EventReader[] = [];

  beforeAll(async () => {
    server = await startTestServer(postgres!, { TRUST_PROXY: "loopback" });
    db = server.portico.runtime.database.db;
    await server.portico.runtime.live.ready;
    ada = await signedInClient(server.url, db, "Ada Across");
    const config = server.portico.runtime.config.database;
    if (config.kind !== "postgres") throw new Error("expected PostgreSQL");
    second = await startSecondProcess(config.url);
  });
  afterAll(async () => {
    for (const r of readers) await r.close();
    if (second) {
      const exited = new Promise((resolve) => second!.child.once("exit", resolve));
      second.child.kill("SIGTERM");
      await exited;
    }
    await server?.close();
  });

  const stream = async () => {
    const res = await openEvents(server.url, ada.session);
    expect(res.status).toBe(200);
    const reader = new EventReader(res);
    readers.push(reader);
    await reader.until(() => reader.comments.includes("connected"), "the connected comment");
    return reader;
  };

  it("delivers an event raised by one process to a stream held by the other", async () => {
    const [order] = await makeOrders(db, ada.userId, { status: "pending" });
    const s = await stream();
    // The payment happens on the second process (its own pool, its own NOTIFY).
    const res = await fetch(new URL("/api/test-hooks/order-status", second!.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: ada.email, orderId: order!.orderId, status: "paid" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    await s.until(
      () => s.data().some((d) => d.kind === "order" && d.entityId === order!.orderId && d.status === "paid"),
      "the order event from the other process",
    );
    await s.until(
      () =>
        s
          .data()
          .some(
            (d) =>
              (d.notification as { title?: string } | null)?.title === "Payment Received" &&
              d.status === "unread",
          ),
      "the notification from the other process",
    );
    await s.close();
  });

  it("reconnects a dropped listener and catches its streams up", async () => {
    const s = await stream();
    const pool = server.portico.runtime.database.pool!;
    // Cut every listening connection of this database (the listener's, and the other process's).
    const { rowCount } = await pool.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%' and pid <> pg_backend_pid()",
    );
    expect(rowCount).toBeGreaterThan(0);
    const id = await publishLiveEvent(db, {
      userId: ada.userId,
      kind: "invoice",
      entityId: "dropped",
      status: "paid",
    });
    await s.until(
      () => s.events.some((e) => e.id === String(id)),
      "the event published while the listener was away",
      20_000,
    );
    // And it listens again: a later event arrives too.
    await expect
      .poll(
        async () => {
          const rows = await pool.query(
            "select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'",
          );
          return rows.rows[0].n;
        },
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    const later = await publishLiveEvent(db, {
      userId: ada.userId,
      kind: "order",
      entityId: "later",
      status: "paid",
    });
    await s.until(() => s.events.some((e) => e.id === String(later)), "an event after reconnecting", 20_000);
    await s.close();
  });
});
