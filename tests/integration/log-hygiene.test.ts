/**
 * What the production server writes to its log while a client registers, verifies, signs in, resets a
 * password and, on PostgreSQL, while the database drops its connections (idle and in use): no line
 * carries a password, a session cookie, a verification or reset token, the database's password, or
 * the dump of a `pg` client (its cancel key `secretKey`, `processID`, connection parameters, event
 * listeners); every line is short. Reads the real process's standard output (server/log-serializers.ts).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { location, Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { launchServer, type ServerProcess } from "../support/server-process";
import { eventually } from "../support/smtp";

const PASSWORD = "Str0ng!Passw0rd-log";
const NEW_PASSWORD = "An0ther!Passw0rd-log";
const AUTH_SECRET = "log-hygiene-secret-log-hygiene-secret-0000";
const DB_PASSWORD = "db-pass-log-hygiene-7731";
const SLOW = 240_000;
const MAX_LINE = 2048;

/** The link of the newest captured email to `to` with this subject, read through /dev/mail. */
async function linkFromInbox(session: Session, to: string, subject: string): Promise<string> {
  const id = await eventually(async () => {
    const list = await (await session.get("/dev/mail")).text();
    const row = list.split("<tr").find((r) => r.includes(to) && r.includes(subject));
    return row?.match(/href="\/dev\/mail\/([0-9a-f-]{36})"/)?.[1];
  });
  const page = await (await session.get(`/dev/mail/${id}`)).text();
  // The text version, shown in a <pre>.
  const plain = text(page.match(/<pre[^>]*>([\s\S]*?)<\/pre>/)![1]!);
  const url = plain.match(/https?:\/\/\S+/g)!.find((u) => u.includes("/api/auth/"))!;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

describe.each(testDatabases)("the log of a signed-in visit ($name)", (database) => {
  let server: ServerProcess;
  let fresh: Awaited<ReturnType<typeof database.create>>;
  let dbName = "";
  let databaseUrl = "";

  beforeAll(async () => {
    fresh = await database.create();
    const env: Record<string, string> = { ...fresh.env };
    if (env.DATABASE_URL) {
      const url = new URL(env.DATABASE_URL);
      dbName = url.pathname.slice(1);
      // A password that must never be logged (the test server trusts local connections, so any works).
      if (!url.password) url.password = DB_PASSWORD;
      env.DATABASE_URL = url.toString();
      databaseUrl = env.DATABASE_URL;
    }
    server = await launchServer(
      {
        ...env,
        AUTH_SECRET,
        DEV_MAIL_ENABLED: "true",
        TRUST_PROXY: "loopback",
        // Connections dropped mid-request fail fast.
        DATABASE_QUERY_TIMEOUT_MS: "2000",
      },
      `log-hygiene (${database.name})`,
    );
  }, SLOW);

  afterAll(async () => {
    await server?.stop();
    await fresh?.drop();
  }, SLOW);

  /** Ends every connection the server holds to its database, as a restart or failover does. */
  async function dropConnections(): Promise<number> {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [dbName],
      );
      return rows.length;
    } finally {
      await admin.end();
    }
  }

  it(
    "carries no password, cookie, token, key or client object, and no line is long",
    async () => {
      const email = `log.${Date.now()}@example.com`;
      const visitor = new Session(server.url, "198.51.100.7");
      const registered = await visitor.post("/client/register", {
        name: "Lena Logs",
        email,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      expect(location(registered)).toBe("/client/verify-email");
      const verifyLink = await linkFromInbox(visitor, email, "Confirm your email address");
      const verifyToken = new URL(verifyLink, "http://x").searchParams.get("token")!;
      expect(verifyToken.length).toBeGreaterThan(10);
      await visitor.get(verifyLink);

      const client = new Session(server.url, "198.51.100.8");
      const login = await client.post("/client/login", { email, password: PASSWORD });
      expect(location(login)).toBe("/client/dashboard");
      const cookie = client.cookie("session_token")!;
      expect(cookie).toBeTruthy();
      expect((await client.get("/client/dashboard")).status).toBe(200);

      if (database.name === "postgres") {
        // Idle connections ended: pg-pool emits the error with the whole client attached.
        expect(await dropConnections()).toBeGreaterThan(0);
        await eventually(() =>
          server.logs().some((l) => String(l.msg).startsWith("database connection lost")),
        );
        // The pool replaces them on demand; a request that meets one not yet replaced answers 503.
        await eventually(async () => (await client.get("/client/dashboard")).status === 200);
        // Connections ended while requests use them (each looks the session up by its token).
        const during = Array.from({ length: 6 }, () => client.get("/client/dashboard"));
        await dropConnections();
        for (const res of await Promise.all(during)) expect([200, 503]).toContain(res.status);
        await eventually(async () => (await client.get("/client/dashboard")).status === 200);
      }

      // A password reset: its token travels in the link's path and then in the page's address.
      const forgetful = new Session(server.url, "198.51.100.9");
      await eventually(
        async () => (await forgetful.post("/client/forgot-password", { email })).status === 200,
      );
      const resetLink = await linkFromInbox(forgetful, email, "Reset your");
      const landing = location(await forgetful.get(resetLink));
      const resetToken = new URL(landing, "http://x").searchParams.get("token")!;
      expect(resetToken.length).toBeGreaterThan(10);
      expect(landing).toMatch(/^\/client\/reset-password\?token=/);
      expect((await forgetful.get(landing)).status).toBe(200);
      const reset = await forgetful.post("/client/reset-password", {
        token: resetToken,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(reset.status).toBe(302);

      await server.stop();

      const lines = server.logs().map((l) => JSON.stringify(l));
      // The visit is in the log: the requests, with their ids and (masked) addresses.
      const urls = server.logs().flatMap((l) => {
        const req = l.req as { url?: string; id?: string } | undefined;
        return req?.url && req.id ? [req.url] : [];
      });
      expect(urls.some((u) => u.startsWith("/api/auth/verify-email?token=[redacted]"))).toBe(true);
      expect(urls.some((u) => u.startsWith("/api/auth/reset-password/[redacted]"))).toBe(true);
      expect(urls).toContain("/client/dashboard");

      const forbidden = [
        PASSWORD,
        NEW_PASSWORD,
        AUTH_SECRET,
        cookie,
        decodeURIComponent(cookie).split(".")[0]!,
        verifyToken,
        resetToken,
        DB_PASSWORD,
        "secretKey",
        "processID",
        "_events",
        "connectionParameters",
        "_types",
        '"headers"',
        "set-cookie",
        ...(databaseUrl ? [databaseUrl, new URL(databaseUrl).password] : []),
      ];
      for (const line of lines) {
        expect(line.length, line.slice(0, 300)).toBeLessThan(MAX_LINE);
        for (const secret of forbidden) expect(line, `a log line contains "${secret}"`).not.toContain(secret);
      }
    },
    SLOW,
  );
});
