/**
 * The process outlives its database: connections ended by the server, a database that stops answering,
 * a database that is gone. Requests then fail fast with a 503 (never hang, never crash the process),
 * /healthz says 503, and the server recovers by itself when the database is back.
 */
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";
import { eventually } from "../support/smtp";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

const UNAVAILABLE = "The service is temporarily unavailable. Please try again in a moment.";

let ipCounter = 0;
const contact = (server: TestServer) =>
  server.get("/api/send-email", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `192.0.2.${++ipCounter % 250}` },
    body: JSON.stringify({
      name: "Ada Lovelace",
      email: `ada.${ipCounter}@example.com`,
      subject: "Hello",
      message: "Are you there?",
    }),
  });

const forgotPassword = (server: TestServer) =>
  server.get("/client/forgot-password", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    body: new URLSearchParams({ email: "someone@example.com" }),
  });

/** The answers a client sees while the database is unavailable: fast, 503, with a clear message. */
async function expectUnavailable(server: TestServer) {
  const started = Date.now();
  const health = await server.get("/healthz");
  expect(health.status).toBe(503);
  expect(await health.json()).toEqual({ status: "error", database: "down" });

  const api = await contact(server);
  expect(api.status).toBe(503);
  expect(api.headers.get("retry-after")).toBe("5");
  expect(await api.json()).toEqual({ error: UNAVAILABLE });

  const page = await forgotPassword(server);
  expect(page.status).toBe(503);
  expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  expect(await page.text()).toContain("We could not complete this request. Please try again in a moment.");
  // Seconds, not the length of the outage.
  expect(Date.now() - started).toBeLessThan(15_000);
}

describe("the embedded database (PGlite) gone", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(testDatabases[0]!, { TRUST_PROXY: "loopback" });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("answers 503 with a clear message, on pages, the API and /healthz, and keeps serving", async () => {
    expect((await contact(server)).status).toBe(200);
    await server.portico.runtime.database.close();
    await expectUnavailable(server);
    // Pages that need no database still render.
    expect((await server.get("/privacy")).status).toBe(200);
  });
});

const postgres = testDatabases.filter((d) => d.name === "postgres");

describe.each(postgres)("PostgreSQL connections lost ($name)", (database) => {
  let server: TestServer;
  let dbName = "";
  const admin = () => new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });

  beforeAll(async () => {
    server = await startTestServer(database, (env) => {
      dbName = new URL(env.DATABASE_URL!).pathname.slice(1);
      return { TRUST_PROXY: "loopback" };
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("survives PostgreSQL ending its connections (pg_terminate_backend) and keeps answering", async () => {
    // Several requests at once leave several idle connections in the pool.
    const warm = await Promise.all(Array.from({ length: 5 }, () => contact(server)));
    expect(warm.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);

    const c = admin();
    await c.connect();
    try {
      const { rows } = await c.query(
        "select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [dbName],
      );
      expect(rows.length).toBeGreaterThan(0);
    } finally {
      await c.end();
    }

    // The process is alive (an unhandled pool error would have ended it) and replaces the connections.
    await eventually(async () => (await server.get("/healthz")).status === 200);
    const after = await Promise.all(Array.from({ length: 5 }, () => contact(server)));
    expect(after.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await server.get("/")).status).toBe(200);
  });
});

describe.each(postgres)("PostgreSQL that stops answering ($name)", (database) => {
  let server: TestServer;
  let proxy: TcpProxy;

  beforeAll(async () => {
    const target = new URL(process.env.TEST_DATABASE_URL!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    server = await startTestServer(database, (env) => {
      const url = new URL(env.DATABASE_URL!);
      url.hostname = "127.0.0.1";
      url.port = String(proxy.port);
      return {
        DATABASE_URL: url.toString(),
        DATABASE_QUERY_TIMEOUT_MS: "1000",
        DATABASE_CONNECT_TIMEOUT_MS: "1000",
        TRUST_PROXY: "loopback",
      };
    });
  });
  afterEach(() => proxy?.resume());
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
  });

  it("fails requests within seconds with 503 while black-holed, then recovers by itself", async () => {
    const warm = await Promise.all(Array.from({ length: 3 }, () => contact(server)));
    expect(warm.map((r) => r.status)).toEqual([200, 200, 200]);

    proxy.pause();
    await expectUnavailable(server);
    // Still unavailable, still fast, on a second round (connections held by the black hole are dropped).
    await expectUnavailable(server);

    proxy.resume();
    await eventually(async () => (await server.get("/healthz")).status === 200);
    await eventually(async () => (await contact(server)).status === 200);
    expect((await forgotPassword(server)).status).toBe(200);
  });
});
