/**
 * Live updates through the real server: /api/events streams only the signed-in client's own events
 * (and catalogue events), with heartbeats, Last-Event-ID resume and an end at sign-out.
 */

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { queryRows } from "~/db/client.server";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { pruneLiveEvents } from "~/features/live/live-hub.server";
import { changeOrderStatus, makeOrders } from "~/features/testing/fixtures.server";
import type { Session } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { EventReader, openEvents, signedInClient } from "../support/portal";
import { startTestServer, type TestServer } from "../support/server";

describe.each(testDatabases)("live events on $name", (database) => {
  let server: TestServer;
  let db: Database;
  let ada: { session: Session; userId: string };
  let bo: { session: Session; userId: string };
  const readers: EventReader[] = [];

  const stream = async (who: { session: Session } | null, lastEventId?: number) => {
    const res = await openEvents(server.url, who?.session ?? null, lastEventId);
    expect(res.status).toBe(200);
    const reader = new EventReader(res);
    readers.push(reader);
    await reader.until(() => reader.comments.includes("connected"), "the connected comment");
    return reader;
  };

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback", LIVE_HEARTBEAT_MS: "100" });
    db = server.portico.runtime.database.db;
    await server.portico.runtime.live.ready;
    ada = await signedInClient(server.url, db, "Ada Live");
    bo = await signedInClient(server.url, db, "Bo Live");
  });
  afterAll(async () => {
    for (const r of readers) await r.close();
    await server?.close();
  });

  it("refuses visitors with 401", async () => {
    const res = await openEvents(server.url, null);
    expect(res.status).toBe(401);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("streams SSE uncompressed and uncached, with heartbeats", async () => {
    const res = await fetch(new URL("/api/events", server.url), {
      headers: { cookie: ada.session.cookieHeader, "accept-encoding": "gzip, br" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-encoding")).toBeNull();
    const reader = new EventReader(res);
    readers.push(reader);
    await reader.until(() => reader.comments.some((c) => c.startsWith("heartbeat")), "a heartbeat");
    await reader.close();
  });

  it("answers a router data request for the stream with 404 at once, for any method", async () => {
    for (const method of ["GET", "OPTIONS", "POST"]) {
      for (const path of ["/api/events.data", "/api/events/.data", "/api/session.data"]) {
        const res = await fetch(new URL(path, server.url), {
          method,
          headers: { cookie: ada.session.cookieHeader, origin: server.url },
          signal: AbortSignal.timeout(10_000),
        });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(await res.text()).toBe("Not found.");
      }
    }
  });

  it("delivers a client's events only to that client, and catalogue events to everyone", async () => {
    const adaStream = await stream(ada);
    const boStream = await stream(bo);
    const [boOrder] = await makeOrders(db, bo.userId, { status: "pending" });
    await changeOrderStatus(db, bo.userId, boOrder!.orderId, "paid");
    await boStream.until(
      () =>
        boStream.data().some(
          (d) =>
            d.kind === "notification" &&
            // The payment's one notice (ADR 0515).
            (d.notification as { title?: string })?.title === "Payment Received",
        ),
      "Bo's payment notification",
    );
    const boKinds = boStream.data().map((d) => `${d.kind}:${d.status}`);
    expect(boKinds).toEqual(expect.arrayContaining(["order:paid", "invoice:paid", "notification:unread"]));
    // Then an event for Ada and one for everyone: Ada's stream has exactly those, never Bo's.
    const adaId = await publishLiveEvent(db, {
      userId: ada.userId,
      kind: "order",
      entityId: "x",
      status: "paid",
    });
    const everyone = await publishLiveEvent(db, { userId: null, kind: "catalogue", status: "changed" });
    await adaStream.until(
      () => adaStream.events.some((e) => e.id === String(everyone)),
      "the catalogue event",
    );
    expect(adaStream.events.map((e) => Number(e.id))).toEqual([adaId, everyone]);
    await boStream.until(
      () => boStream.events.some((e) => e.id === String(everyone)),
      "the catalogue event for Bo",
    );
    expect(boStream.events.some((e) => e.id === String(adaId))).toBe(false);
    // Every event names itself with its log id.
    for (const e of boStream.events) expect(Number(e.id)).toBeGreaterThan(0);
    await adaStream.close();
    await boStream.close();
  });

  it("resumes after Last-Event-ID with what was missed, the client's own only", async () => {
    const before = await publishLiveEvent(db, {
      userId: ada.userId,
      kind: "order",
      entityId: "a0",
      status: "pending",
    });
    const missed1 = await publishLiveEvent(db, {
      userId: ada.userId,
      kind: "order",
      entityId: "a1",
      status: "paid",
    });
    await publishLiveEvent(db, { userId: bo.userId, kind: "order", entityId: "b1", status: "paid" });
    const missed2 = await publishLiveEvent(db, {
      userId: ada.userId,
      kind: "invoice",
      entityId: "a2",
      status: "paid",
    });
    const resumed = await stream(ada, before);
    await resumed.until(() => resumed.events.length >= 2, "the missed events");
    const live = await publishLiveEvent(db, {
      userId: ada.userId,
      kind: "order",
      entityId: "a3",
      status: "completed",
    });
    await resumed.until(() => resumed.events.some((e) => e.id === String(live)), "the next live event");
    expect(resumed.events.map((e) => Number(e.id))).toEqual([missed1, missed2, live]);
    await resumed.close();
  });

  it("ends the stream when the client signs out", async () => {
    const carol = await signedInClient(server.url, db, "Carol Leaving");
    const s = await stream(carol);
    const res = await carol.session.post("/client/sign-out", {});
    expect(res.status).toBe(302);
    await s.until(() => s.ended, "the end of the stream");
    expect(s.events.at(-1)?.event).toBe("signed-out");
    // And the signed-out session cannot open another.
    expect((await openEvents(server.url, carol.session)).status).toBe(401);
  });

  it("prunes live events older than a day (housekeeping), keeping recent ones", async () => {
    const old = await publishLiveEvent(db, {
      userId: ada.userId,
      kind: "order",
      entityId: "old",
      status: "paid",
    });
    const recent = await publishLiveEvent(db, {
      userId: ada.userId,
      kind: "order",
      entityId: "new",
      status: "paid",
    });
    await db.execute(sql`update live_events set created_at = now() - interval '2 days' where id = ${old}`);
    await pruneLiveEvents(db);
    const ids = (
      await queryRows<{ id: string }>(db, sql`select id from live_events where id in (${old}, ${recent})`)
    ).map((r) => Number(r.id));
    expect(ids).toEqual([recent]);
  });

  it("stops delivering to a closed stream", async () => {
    const s = await stream(ada);
    const hub = server.portico.runtime.live;
    const count = hub.subscriberCount;
    await s.close();
    await expect.poll(() => hub.subscriberCount).toBe(count - 1);
  });
});
