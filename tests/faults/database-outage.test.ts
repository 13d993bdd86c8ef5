/**
 * The database unreachable for 20 s (issue 15, item 4; PostgreSQL, through a TCP proxy the test
 * black-holes): the production server keeps running, `/healthz` says 503, pages answer the clear
 * "unavailable" page with 503 (never a 500), the API a 503 with its message, and once traffic flows
 * again the same process recovers by itself.
 */
import { afterAll, describe, expect, it } from "vitest";
import {
  type DurableDatabase,
  durableDatabase,
  postContact,
  registerClient,
  report,
  serverEnv,
} from "../support/faults";
import { launchServer, type ServerProcess } from "../support/server-process";
import { eventually, startTestSmtp, type TestSmtp } from "../support/smtp";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

const OUTAGE_MS = 20_000;
const UNAVAILABLE_PAGE = "We could not complete this request. Please try again in a moment.";
const UNAVAILABLE_API = "The service is temporarily unavailable. Please try again in a moment.";

describe.runIf(process.env.TEST_DATABASE_URL)("PostgreSQL unreachable for 20 s", () => {
  let db: DurableDatabase | null = null;
  let smtp: TestSmtp | null = null;
  let proxy: TcpProxy | null = null;
  let server: ServerProcess | null = null;
  afterAll(async () => {
    proxy?.resume();
    await server?.stop();
    await proxy?.close();
    await smtp?.close();
    await db?.drop();
  });

  it("answers 503 while it lasts, never crashes, and recovers without a restart", async () => {
    db = await durableDatabase("postgres");
    smtp = await startTestSmtp();
    const target = new URL(process.env.TEST_DATABASE_URL!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const throughProxy = new URL(db.env.DATABASE_URL!);
    throughProxy.hostname = "127.0.0.1";
    throughProxy.port = String(proxy.port);
    server = await launchServer({
      ...serverEnv(smtp.url),
      DATABASE_URL: throughProxy.toString(),
      DATABASE_QUERY_TIMEOUT_MS: "1000",
      DATABASE_CONNECT_TIMEOUT_MS: "1000",
    });
    const running = server;
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
