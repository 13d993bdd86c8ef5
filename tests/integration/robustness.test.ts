/**
 * Bad input and unlucky deployments, through the real built server: every answer is a clear 4xx, never
 * a 500 or a hang (issue 10). Database outages are in database-outage.test.ts.
 */
import { request as httpRequest } from "node:http";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { outboxMessageId } from "~/features/mail/email";
import { enqueueEmail } from "~/features/mail/outbox.server";
import { smtpTransport } from "~/features/mail/transport.server";
import { OUTBOX_LEASE_MS, startOutboxWorker } from "~/features/mail/worker.server";
import { location, Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";
import { eventually, startTestSmtp, type TestSmtp } from "../support/smtp";

const PASSWORD = "Str0ng!Passw0rd";
const OWNER = "owner@portico.example";
const TOO_LARGE = "The request is too large: at most 64 KB can be sent here.";
const BAD_ADDRESS = "Bad request: the address is not valid.";

describe.each(testDatabases)("robustness on $name", (database) => {
  let server: TestServer;
  let smtp: TestSmtp;
  let ipCounter = 0;
  const newSession = () => new Session(server.url, `198.51.100.${++ipCounter}`);
  const db = () => server.portico.runtime.database.db;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      SMTP_URL: smtp.url,
      BUSINESS_EMAIL: OWNER,
      MAIL_FROM: "Portico Desk <desk@portico.example>",
      CONTACT_RATE_LIMIT_PER_HOUR: "1000",
    });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    server.get(path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-forwarded-for": `203.0.113.${++ipCounter}`,
        ...headers,
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  const count = async (table: string, where = sql`true`) =>
    (
      await queryRows<{ n: number }>(
        db(),
        sql`select count(*)::int as n from ${sql.identifier(table)} where ${where}`,
      )
    )[0]!.n;

  async function verifiedClient(email: string, name = "Ada Lovelace"): Promise<Session> {
    const s = newSession();
    await s.post("/client/register", { name, email, password: PASSWORD, confirmPassword: PASSWORD });
    const [mail] = await queryRows<{ text: string }>(
      db(),
      sql`select text from outbox_emails where to_address = ${email} and kind = 'account-verification'`,
    );
    const link = new URL(mail!.text.match(/https?:\/\/\S+\/api\/auth\/verify-email\S+/)![0]);
    await s.get(`${link.pathname}${link.search}`);
    const signedIn = newSession();
    expect(location(await signedIn.post("/client/login", { email, password: PASSWORD }))).toBe(
      "/client/dashboard",
    );
    return signedIn;
  }

  describe("bad input never gives a 500", () => {
    it("answers 400 to malformed percent-encoding or a NUL anywhere in the address", async () => {
      for (const path of ["/%", "/services/%ZZ", "/blog/%E0%A4%A", "/client/%E0", "/client/%00", "/?q=%00"]) {
        const res = await server.get(path);
        expect(res.status, path).toBe(400);
        expect(await res.text()).toBe(BAD_ADDRESS);
      }
    });

    it("refuses page actions whose body is not a form with 415", async () => {
      for (const path of ["/", "/client/login", "/client/register", "/client/forgot-password", "/privacy"]) {
        const json = await postJson(path, { email: "a@example.com" }, { origin: server.url });
        expect(json.status, path).toBe(415);
        expect(await json.text()).toMatch(/^Pages accept form submissions only/);
        const empty = await server.get(path, { method: "POST", headers: { origin: server.url } });
        expect(empty.status, path).toBe(415);
      }
    });

    it("answers 400 to a form body that cannot be read", async () => {
      const res = await server.get("/client/login", {
        method: "POST",
        headers: { "content-type": "multipart/form-data; boundary=nope", origin: server.url },
        body: "this is not multipart",
      });
      expect(res.status).toBe(400);
    });

    it("answers 405 with a clean JSON body to POST /api/exchange-rates", async () => {
      const res = await postJson("/api/exchange-rates", {});
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD");
      expect(await res.json()).toEqual({ error: "Method not allowed: use GET." });
    });

    it("gives a NUL character a field error on the API and on the forms, and stores nothing", async () => {
      const before = await count("contact_messages");
      const api = await postJson("/api/send-email", {
        name: "Ada",
        email: "ada.nul@example.com",
        subject: "Hi",
        message: "Hel\u0000lo",
      });
      expect(api.status).toBe(400);
      expect(await api.json()).toEqual({
        error: "Message contains a character that is not allowed.",
        field: "message",
      });
      expect(await count("contact_messages")).toBe(before);

      const register = await newSession().post("/client/register", {
        name: "A\u0000da",
        email: "nul@example.com",
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      expect(register.status).toBe(400);
      expect(text(await register.text())).toContain("Name contains a character that is not allowed");

      const client = await verifiedClient("nul.profile@example.com");
      const profile = await client.post("/client/profile", {
        intent: "profile",
        name: "Ada",
        phone: "",
        company: "Acme\u0000",
      });
      expect(profile.status).toBe(400);
      expect(text(await profile.text())).toContain("Company name contains a character that is not allowed");
    });
  });

  describe("body size limits", () => {
    const big = "x".repeat(70 * 1024);

    it("answers 413 to a form over 64 KB, before any action runs", async () => {
      const before = await count("contact_messages");
      const res = await newSession().post("/?index", {
        name: "Ada",
        email: "ada.big@example.com",
        subject: "Big",
        message: big,
      });
      expect(res.status).toBe(413);
      expect(await res.text()).toBe(TOO_LARGE);
      expect(await count("contact_messages")).toBe(before);
    });

    it("answers 413 in JSON to the API and to better-auth's endpoints", async () => {
      for (const path of ["/api/send-email", "/api/auth/sign-in/email", "/api/auth/sign-up/email"]) {
        const res = await postJson(path, { name: big, email: "a@example.com", password: PASSWORD });
        expect(res.status, path).toBe(413);
        expect(await res.json()).toEqual({ error: TOO_LARGE });
      }
    });

    it("counts a body sent without a length (chunked) and stops it at 64 KB", async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${server.url}/client/login`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        });
        req.on("response", (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        for (let i = 0; i < 20; i++) req.write(`email=${"a".repeat(8 * 1024)}&`);
        req.end();
      });
      expect(status).toBe(413);
    });

    it("caps every contact field with the spec's style of message", async () => {
      const valid = { name: "Ada", email: "ada.caps@example.com", subject: "Hi", message: "Hello" };
      const cases: Array<[string, string, string]> = [
        ["name", "n".repeat(101), "Name must be at most 100 characters."],
        ["subject", "s".repeat(201), "Subject must be at most 200 characters."],
        ["message", "m".repeat(5001), "Message must be at most 5000 characters."],
      ];
      for (const [field, value, error] of cases) {
        const res = await postJson("/api/send-email", { ...valid, [field]: value });
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ error, field });
      }
    });
  });

  describe("one set of rules for every door", () => {
    it("keeps better-auth's sign-up and other endpoints closed; nothing is stored", async () => {
      const signUp = await postJson(
        "/api/auth/sign-up/email",
        {
          name: "n".repeat(1000),
          email: "door@example.com",
          password: PASSWORD,
          image: "javascript:alert(1)",
        },
        { origin: server.url },
      );
      expect(signUp.status).toBe(404);
      expect(await count("user", sql`email = 'door@example.com'`)).toBe(0);
      for (const [method, path] of [
        ["POST", "/api/auth/sign-in/email"],
        ["POST", "/api/auth/update-user"],
        ["POST", "/api/auth/change-email"],
        ["POST", "/api/auth/request-password-reset"],
        ["GET", "/api/auth/get-session"],
        ["GET", "/api/auth/list-sessions"],
        ["GET", "/api/auth/ok"],
      ] as const) {
        const res =
          method === "GET" ? await server.get(path) : await postJson(path, {}, { origin: server.url });
        expect(res.status, path).toBe(404);
      }
      // The links in the emails still work (a forged token lands on the login page with an error).
      const link = await server.get("/api/auth/verify-email?token=forged&callbackURL=%2Fclient%2Flogin");
      expect(link.status).toBe(302);
    });

    it("does not let the contact API caller choose the source", async () => {
      const res = await postJson("/api/send-email", {
        name: "Ada",
        email: "ada.source@example.com",
        subject: "Hi",
        message: "Hello",
        source: "portal",
      });
      expect(res.status).toBe(200);
      const [row] = await queryRows<{ source: string }>(
        db(),
        sql`select source from contact_messages where email = 'ada.source@example.com'`,
      );
      expect(row?.source).toBe("api");
    });
  });

  describe("redirects after login", () => {
    it("follows only same-site paths and never fails on control characters", async () => {
      await verifiedClient("redirect@example.com");
      const login = (redirectTo: string) =>
        newSession().post(`/client/login?redirectTo=${encodeURIComponent(redirectTo)}`, {
          email: "redirect@example.com",
          password: PASSWORD,
        });
      expect(location(await login("/client/orders"))).toBe("/client/orders");
      for (const bad of [
        "/\t/evil.example",
        "//evil.example",
        "/\\evil.example",
        "\n",
        "/client\r\nSet-Cookie: x=1",
        "/client\n/x",
        "https://evil.example/",
      ]) {
        const res = await login(bad);
        expect(res.status, JSON.stringify(bad)).toBe(302);
        expect(location(res)).toBe("/client/dashboard");
      }
      // Raw %0A / %0D in the query string, as an attacker's link would carry them.
      const raw = await newSession().post("/client/login?redirectTo=%0D%0A/x", {
        email: "redirect@example.com",
        password: PASSWORD,
      });
      expect(location(raw)).toBe("/client/dashboard");
    });
  });

  describe("caching of signed-in pages", () => {
    it("sends Cache-Control: private, no-store to anything personal", async () => {
      const client = await verifiedClient("cache@example.com");
      for (const path of ["/client/dashboard", "/client/profile", "/thank-you", "/api/session"]) {
        const res = await client.get(path);
        expect(res.status, path).toBe(200);
        expect(res.headers.get("cache-control"), path).toBe("private, no-store");
      }
      // A shared public page is nobody's, signed in or not (ADR 0822): the visitor's page, cacheable.
      const home = await client.get("/");
      expect(home.headers.get("cache-control") ?? "").not.toContain("private");
      expect(await home.text()).not.toContain("cache@example.com");
      expect((await newSession().get("/client/login")).headers.get("cache-control")).toBe(
        "private, no-store",
      );
      expect((await newSession().get("/")).headers.get("cache-control") ?? "").not.toContain("private");
    });
  });

  describe("mail", () => {
    it("builds Reply-To from the name and address, so a name cannot add recipients", async () => {
      const name = "Alice, boss@victim.example,";
      const res = await postJson("/api/send-email", {
        name,
        email: "alice.reply@example.com",
        subject: "Reply-To check",
        message: "Hello",
      });
      expect(res.status).toBe(200);
      const notification = await eventually(() =>
        smtp.received.find((m) => m.subject === "New contact message: Reply-To check"),
      );
      expect(notification.replyTo?.value).toEqual([{ address: "alice.reply@example.com", name }]);
      // To: names the owner, in brackets (issue 37: a bare To: scores as spam).
      expect(notification.to && "value" in notification.to && notification.to.value).toEqual([
        { address: OWNER, name: "Portico IT Services" },
      ]);
      expect(notification.headerLines.find((h) => h.key === "to")?.line).toBe(
        `To: Portico IT Services <${OWNER}>`,
      );
      expect(JSON.stringify(notification.headers.get("reply-to"))).not.toContain('"address":"boss@');
    });

    it("gives an email the same Message-ID on every attempt, so a resend after a crash folds", async () => {
      const id = await enqueueEmail(db(), {
        kind: "test",
        to: { name: "Fold", address: "fold@example.com" },
        subject: "Fold me",
        html: "<p>x</p>",
        text: "x",
      });
      const smtpOut = smtpTransport(smtp.url, "Portico Desk <desk@portico.example>");
      let attempts = 0;
      // The relay accepts the first attempt, then the worker "dies" before recording it.
      const worker = startOutboxWorker({
        db: db(),
        logger: pino({ level: "silent" }),
        maxAttempts: 3,
        retryBaseMs: 10,
        pollIntervalMs: 50,
        transport: {
          kind: "smtp",
          send: async (email) => {
            const sent = await smtpOut.send(email);
            if (email.id === id && ++attempts === 1) throw new Error("crashed after the relay accepted");
            return sent;
          },
          close: () => smtpOut.close(),
        },
      });
      try {
        const copies = await eventually(() => {
          const mine = smtp.received.filter((m) => m.subject === "Fold me");
          return mine.length === 2 && mine;
        });
        const expected = outboxMessageId(id, "desk@portico.example");
        expect(copies.map((m) => m.messageId)).toEqual([expected, expected]);
      } finally {
        await worker.stop();
      }
    });

    it("leases a claimed email for a minute, not five", async () => {
      expect(OUTBOX_LEASE_MS).toBe(60_000);
      const id = await enqueueEmail(db(), {
        kind: "test",
        to: { name: "Lease", address: "lease@example.com" },
        subject: "Lease",
        html: "<p>x</p>",
        text: "x",
      });
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const worker = startOutboxWorker({
        db: db(),
        logger: pino({ level: "silent" }),
        maxAttempts: 3,
        retryBaseMs: 10,
        pollIntervalMs: 50,
        transport: {
          kind: "smtp",
          send: async (email) => {
            if (email.id === id) await gate;
            return { messageId: "<x@test>" };
          },
          close: () => {},
        },
      });
      try {
        const seconds = await eventually(async () => {
          const [row] = await queryRows<{ status: string; seconds: number }>(
            db(),
            sql`select status, extract(epoch from locked_until - now())::float as seconds from outbox_emails where id = ${id}`,
          );
          return row?.status === "sending" && row.seconds;
        });
        expect(seconds).toBeGreaterThan(50);
        expect(seconds).toBeLessThanOrEqual(60);
      } finally {
        release();
        await worker.stop();
      }
    });
  });

  describe("forgot password", () => {
    it("answers without waiting for the account's email, so existing and unknown addresses look alike", async () => {
      await verifiedClient("timing@example.com");
      const emails = server.portico.runtime.accountEmails;
      const original = emails.passwordReset;
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let started = false;
      emails.passwordReset = async (...args) => {
        started = true;
        await gate;
        return original.apply(emails, args);
      };
      try {
        const message = "If an account exists for that email, we have sent a link to reset your password.";
        const known = await newSession().post("/client/forgot-password", { email: "timing@example.com" });
        expect(text(await known.text())).toContain(message);
        const unknown = await newSession().post("/client/forgot-password", { email: "nobody@example.com" });
        expect(text(await unknown.text())).toContain(message);
        // The account's email was being prepared while the answer went out.
        await eventually(() => started);
      } finally {
        release();
        emails.passwordReset = original;
      }
      await eventually(
        async () =>
          (await count(
            "outbox_emails",
            sql`to_address = 'timing@example.com' and kind = 'password-reset'`,
          )) === 1,
      );
    });
  });

  describe("the client address behind a proxy", () => {
    it("takes the address the trusted proxy saw, not one the client wrote into X-Forwarded-For", async () => {
      const res = await postJson(
        "/api/send-email",
        { name: "Ada", email: "ada.xff@example.com", subject: "Hi", message: "Hello" },
        { "x-forwarded-for": "6.6.6.6, 203.0.113.250" },
      );
      expect(res.status).toBe(200);
      const [row] = await queryRows<{ ip_address: string }>(
        db(),
        sql`select ip_address from contact_messages where email = 'ada.xff@example.com'`,
      );
      expect(row?.ip_address).toBe("203.0.113.250");
    });

    it("takes the scheme from X-Forwarded-Proto for the same-origin check of form posts", async () => {
      const port = new URL(server.url).port;
      const post = (headers: Record<string, string>) =>
        server.get("/client/forgot-password", {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            origin: `https://127.0.0.1:${port}`,
            "x-forwarded-for": `203.0.113.${++ipCounter}`,
            ...headers,
          },
          body: new URLSearchParams({ email: "proto@example.com" }),
        });
      expect((await post({})).status).toBe(403);
      expect((await post({ "x-forwarded-proto": "https" })).status).toBe(200);
    });
  });
});

describe("TRUST_PROXY as a hop count", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(testDatabases[0]!, { TRUST_PROXY: "1" });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("trusts exactly one proxy: the rightmost X-Forwarded-For entry is the client", async () => {
    const res = await server.get("/api/send-email", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "6.6.6.6, 198.51.100.99" },
      body: JSON.stringify({ name: "Ada", email: "ada.hops@example.com", subject: "Hi", message: "Hello" }),
    });
    expect(res.status).toBe(200);
    const [row] = await queryRows<{ ip_address: string }>(
      server.portico.runtime.database.db,
      sql`select ip_address from contact_messages where email = 'ada.hops@example.com'`,
    );
    expect(row?.ip_address).toBe("198.51.100.99");
  });
});
