/**
 * Outages (issue 15, item 4), against the production server (`node server.js`):
 * - SMTP down for a while: mail queued while the relay does not answer waits in the outbox, is retried
 *   with a growing delay, and goes out once the relay is back, each email exactly once.
 * - The database unreachable for 20 s (PostgreSQL, through a TCP proxy the test black-holes; PGlite is
 *   inside the process and has no connection to cut): the server keeps running, `/healthz` says 503,
 *   pages answer the clear "unavailable" page with 503 (never a 500), the API a 503 with its message,
 *   and once traffic flows again the same process recovers by itself.
 */
import { describe, expect, it } from "vitest";
import { faultRig } from "../support/fault-rig";
import {
  type ContactSent,
  faultDatabases,
  postContact,
  registerClient,
  report,
  serverEnv,
} from "../support/faults";
import { eventually, unusedPort } from "../support/smtp";

const MESSAGES = 3;

describe.each(faultDatabases)("SMTP down for a while on %s", (kind) => {
  const rig = faultRig();

  it("keeps the mail queued, retries it, and sends each email once when SMTP is back", async () => {
    const db = await rig.database(kind);
    const port = await unusedPort();
    const running = await rig.server({ ...db.env, ...serverEnv(`smtp://127.0.0.1:${port}`) }, "server");

    const sent: ContactSent[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      const { sent: one, response } = postContact(running.url, `${kind}.smtp.${i}`);
      const res = await response;
      expect(res.status).toBe(200);
      sent.push(one);
    }

    // Each of the emails (a notification and a confirmation per message) fails at least twice: the
    // worker keeps retrying while the relay is down.
    const failures = () =>
      running.logs().filter((l) => l.msg === "email attempt failed; will retry") as Array<{
        outboxId: string;
        attempts: number;
      }>;
    const failedIds = () => new Set(failures().map((f) => f.outboxId));
    await eventually(() => {
      const ids = failedIds();
      return (
        ids.size === MESSAGES * 2 &&
        [...ids].every((id) => failures().some((f) => f.outboxId === id && f.attempts >= 2))
      );
    }, 60_000);
    expect(running.logs().filter((l) => l.msg === "email delivered")).toEqual([]);

    // The relay comes back on the same port.
    const relay = await rig.smtp(port);
    await eventually(() => relay.received.length >= MESSAGES * 2, 60_000);
    // A graceful stop waits for a send in progress; after it nothing more can arrive.
    expect(await running.stop()).toBe(0);

    const ids = relay.received.map((m) => String(m.headers.get("x-portico-outbox-id")));
    expect(ids).toHaveLength(MESSAGES * 2);
    expect(new Set(ids).size).toBe(MESSAGES * 2);
    expect([...new Set(ids)].sort()).toEqual([...failedIds()].sort());
    for (const one of sent) {
      const confirmations = relay.received.filter((m) => m.to && JSON.stringify(m.to).includes(one.email));
      expect(confirmations, one.email).toHaveLength(1);
      const notifications = relay.received.filter((m) => JSON.stringify(m.replyTo ?? "").includes(one.email));
      expect(notifications, one.email).toHaveLength(1);
    }

    const rows = await db.query<{ id: string; status: string; attempts: number }>(
      "select id, status, attempts from outbox_emails",
    );
    expect(rows).toHaveLength(MESSAGES * 2);
    for (const row of rows) {
      expect(row.status).toBe("sent");
      // Every failed attempt, then the one that went through.
      const failed = failures().filter((f) => f.outboxId === row.id).length;
      expect(row.attempts).toBe(failed + 1);
    }
  });
});

const OUTAGE_MS = 20_000;
const UNAVAILABLE_PAGE = "We could not complete this request. Please try again in a moment.";
const UNAVAILABLE_API = "The service is temporarily unavailable. Please try again in a moment.";

/** PostgreSQL only: the list is empty without TEST_DATABASE_URL, so the case is not there at all. */
const postgres = faultDatabases.filter((kind) => kind === "postgres");

describe.each(postgres)("%s unreachable for 20 s", () => {
  const rig = faultRig();

  it("answers 503 while it lasts, never crashes, and recovers without a restart", async () => {
    const db = await rig.database("postgres");
    const smtp = await rig.smtp();
    const { proxy, env: throughProxy } = await rig.databaseProxy(db);
    const running = await rig.server({
      ...serverEnv(smtp.url),
      ...throughProxy,
      DATABASE_QUERY_TIMEOUT_MS: "1000",
      DATABASE_CONNECT_TIMEOUT_MS: "1000",
    });
    const { session } = await registerClient(running.url, smtp, "outage");
    expect((await session.get("/client/dashboard")).status).toBe(200);

    proxy.pause();
    const started = Date.now();
    let rounds = 0;
    const statuses = new Map<string, Set<number>>();
    const seen = (what: string, status: number) =>
      statuses.set(what, (statuses.get(what) ?? new Set()).add(status));
    while (Date.now() - started < OUTAGE_MS) {
      rounds++;
      const health = await fetch(new URL("/healthz", running.url));
      seen("/healthz", health.status);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ status: "error", database: "down" });

      const page = await session.get("/client/dashboard");
      seen("dashboard", page.status);
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toBe("5");
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await page.text()).toContain(UNAVAILABLE_PAGE);

      const { response } = postContact(running.url, `outage.${rounds}`);
      const api = await response;
      seen("contact", api.status);
      expect(api.status).toBe(503);
      expect(await api.json()).toEqual({ error: UNAVAILABLE_API });

      // Public pages answer from what they have (the page cache) or with the same clear 503.
      const home = await fetch(new URL("/", running.url));
      seen("home", home.status);
      expect([200, 503]).toContain(home.status);
      await home.arrayBuffer();
      expect(running.alive()).toBe(true);
    }
    proxy.resume();

    // The same process, by itself.
    await eventually(async () => (await fetch(new URL("/healthz", running.url))).status === 200, 30_000);
    await eventually(async () => (await session.get("/client/dashboard")).status === 200, 30_000);
    const { response } = postContact(running.url, "outage.after");
    expect((await response).status).toBe(200);
    expect(running.alive()).toBe(true);
    expect(running.logs().filter((l) => l.msg === "Portico listening")).toHaveLength(1);
    report(
      `database unreachable ${OUTAGE_MS / 1000} s: ${rounds} rounds, statuses ${JSON.stringify(
        Object.fromEntries([...statuses].map(([k, v]) => [k, [...v]])),
      )}, recovered in ${((Date.now() - started - OUTAGE_MS) / 1000).toFixed(1)} s after the proxy resumed`,
    );
  });
});
