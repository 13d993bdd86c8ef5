import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase, queryRows } from "~/db/client.server";
import { enqueueEmail } from "~/features/mail/outbox.server";
import type { MailTransport } from "~/features/mail/transport.server";
import { startOutboxWorker } from "~/features/mail/worker.server";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";
import { eventually, startTestSmtp, type TestSmtp, unusedPort } from "../support/smtp";

const OWNER = "owner@portico.example";
const visitor = (n: string) => ({
  type: "contact_form",
  name: "Ada Lovelace",
  email: `ada.${n}@example.com`,
  subject: `Migrating 20 mailboxes (${n})`,
  message: "Hello,\n\nWe need to move 20 mailboxes <b>soon</b>.",
  timestamp: new Date().toISOString(),
});

const postJson = (server: TestServer, body: unknown, headers: Record<string, string> = {}) =>
  server.get("/api/send-email", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

const postForm = (server: TestServer, fields: Record<string, string>) =>
  server.get("/?index", { method: "POST", body: new URLSearchParams(fields) });

type OutboxRow = {
  kind: string;
  status: string;
  attempts: number;
  last_error: string | null;
  to_address: string;
};
const outbox = (server: TestServer) =>
  queryRows<OutboxRow>(
    server.portico.runtime.database.db,
    sql`select kind, status, attempts, last_error, to_address from outbox_emails order by created_at, kind`,
  );
const count = async (server: TestServer, table: "contact_messages" | "newsletter_subscriptions") =>
  Number(
    (
      await queryRows<{ n: number }>(
        server.portico.runtime.database.db,
        sql`select count(*)::int as n from ${sql.identifier(table)}`,
      )
    )[0]!.n,
  );

describe.each(testDatabases)("contact form and mail on $name", (database) => {
  describe("with a working SMTP server", () => {
    let smtp: TestSmtp;
    let server: TestServer;
    beforeAll(async () => {
      smtp = await startTestSmtp();
      server = await startTestServer(database, {
        SMTP_URL: smtp.url,
        BUSINESS_EMAIL: OWNER,
        MAIL_FROM: "Portico Desk <desk@portico.example>",
        CONTACT_RATE_LIMIT_PER_HOUR: "3",
      });
    });
    afterAll(async () => {
      await server?.close();
      await smtp?.close();
    });

    it("stores the message and delivers the owner's notification and the visitor's confirmation", async () => {
      const body = visitor("one");
      const res = await postJson(server, body, { origin: server.url });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, message: "Message received" });

      const [stored] = await queryRows<{ name: string; email: string; source: string; message: string }>(
        server.portico.runtime.database.db,
        sql`select name, email, source, message from contact_messages where email = ${body.email}`,
      );
      expect(stored).toEqual({
        name: "Ada Lovelace",
        email: body.email,
        source: "api",
        message: body.message,
      });

      const toAddress = (m: (typeof smtp.received)[number]) =>
        m.to && "value" in m.to ? m.to.value.map((a) => a.address).join(", ") : "";
      const arrived = await eventually(() => {
        const mine = smtp.received.filter(
          (m) => m.text?.includes(body.subject) || toAddress(m) === body.email,
        );
        return mine.length === 2 && mine;
      });
      const notification = arrived.find((m) => toAddress(m) === OWNER)!;
      const confirmation = arrived.find((m) => toAddress(m) === body.email)!;
      expect(notification.subject).toBe(`New contact message: ${body.subject}`);
      expect(notification.replyTo?.value).toEqual([{ address: body.email, name: "Ada Lovelace" }]);
      expect(notification.from?.value).toEqual([{ address: "desk@portico.example", name: "Portico Desk" }]);
      expect(notification.text).toContain("We need to move 20 mailboxes <b>soon</b>.");
      // The visitor's text is escaped in the HTML version, never markup.
      expect(notification.html).toContain("&lt;b&gt;soon&lt;/b&gt;");
      expect(notification.html).not.toContain("<b>soon</b>");
      expect(confirmation.subject).toBe("We received your message");
      expect(confirmation.replyTo).toBeUndefined();
      // Each To: is a name in brackets (issue 37); the confirmation's name is the address's own local
      // part, not the name the visitor typed.
      expect(notification.to && "value" in notification.to && notification.to.value).toEqual([
        { address: OWNER, name: "Portico IT Services" },
      ]);
      expect(confirmation.to && "value" in confirmation.to && confirmation.to.value).toEqual([
        { address: body.email, name: "ada.one" },
      ]);
      expect(confirmation.text).toContain("Thank you for your message!");
      // Nothing the visitor typed goes back out: the form cannot carry a stranger's text to any address.
      for (const typed of [body.subject, "Ada", "Lovelace", "20 mailboxes", "<b>soon</b>", "&lt;b&gt;"]) {
        expect(confirmation.text).not.toContain(typed);
        expect(confirmation.html).not.toContain(typed);
        expect(confirmation.subject).not.toContain(typed);
      }
      expect(confirmation.html).toContain("Portico IT Services");
      expect(confirmation.html).toContain("https://wa.me/15550102030");

      await eventually(async () => {
        const rows = (await outbox(server)).filter(
          (r) => r.to_address === OWNER || r.to_address === body.email,
        );
        return rows.length === 2 && rows.every((r) => r.status === "sent" && r.attempts === 1) && rows;
      });
    });

    it("answers bad input with a clear 4xx and stores nothing", async () => {
      const before = await count(server, "contact_messages");
      const missing = await postJson(server, { ...visitor("x"), subject: "  " });
      expect(missing.status).toBe(400);
      expect(await missing.json()).toEqual({
        error: "Please fill in all required fields.",
        field: "subject",
      });
      const badEmail = await postJson(server, { ...visitor("x"), email: "ada@nowhere" });
      expect(badEmail.status).toBe(400);
      expect((await badEmail.json()).error).toBe("Please enter a valid email address.");
      const tooLong = await postJson(server, { ...visitor("x"), message: "x".repeat(5001) });
      expect(tooLong.status).toBe(400);
      expect((await tooLong.json()).error).toBe("Message must be at most 5000 characters.");
      const wrongType = await postJson(server, { ...visitor("x"), type: "spam" });
      expect(wrongType.status).toBe(400);
      const notJson = await server.get("/api/send-email", { method: "POST", body: "name=x" });
      expect(notJson.status).toBe(415);
      expect((await notJson.json()).error).toMatch(/JSON/);
      const broken = await server.get("/api/send-email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{",
      });
      expect(broken.status).toBe(400);
      const crossSite = await postJson(server, visitor("x"), { origin: "https://evil.example" });
      expect(crossSite.status).toBe(403);
      expect((await server.get("/api/send-email")).status).toBe(405);
      expect(await count(server, "contact_messages")).toBe(before);
    });

    it("pretends to accept a bot that fills the honeypot, and keeps nothing", async () => {
      const before = await count(server, "contact_messages");
      const res = await postJson(server, { ...visitor("bot"), website: "https://spam.example" });
      expect(res.status).toBe(200);
      expect(await count(server, "contact_messages")).toBe(before);
    });

    it("takes a plain form post (no JavaScript) and re-renders the page with the result", async () => {
      const ok = await postForm(server, { intent: "contact", ...visitor("form"), website: "" });
      expect(ok.status).toBe(200);
      const html = await ok.text();
      expect(html).toContain("Message Received!");
      expect(html).toContain("A confirmation email has been sent to <strong>ada.form@example.com</strong>");

      const missing = await postForm(server, { intent: "contact", ...visitor("form2"), message: "" });
      expect(missing.status).toBe(400);
      const page = await missing.text();
      expect(page).toContain("Please fill in all required fields.");
      expect(page).toContain('value="Migrating 20 mailboxes (form2)"');
      const [stored] = await queryRows<{ source: string }>(
        server.portico.runtime.database.db,
        sql`select source from contact_messages where email = 'ada.form@example.com'`,
      );
      expect(stored?.source).toBe("site");
    });

    it("limits messages per sender address and per recipient, across the shared database", async () => {
      // Three a hour per IP here; earlier tests of this server already used some from 127.0.0.1.
      let last: Response | undefined;
      for (let i = 0; i < 4; i++) last = await postJson(server, visitor(`rate${i}`));
      expect(last!.status).toBe(429);
      expect(await last!.json()).toEqual({
        error: "Too many messages in a short time. Please try again later.",
      });
      expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
      const [row] = await queryRows<{ hits: number }>(
        server.portico.runtime.database.db,
        sql`select hits from rate_limits where key = 'contact:ip:127.0.0.1'`,
      );
      expect(row!.hits).toBeGreaterThan(3);

      // The form's answer: the same refusal, as the spec's failure alert built on the server, with the
      // message kept in the form.
      const form = await postForm(server, { intent: "contact", ...visitor("rateform"), website: "" });
      expect(form.status).toBe(429);
      const html = await form.text();
      expect(html).toContain(
        `There was an error sending your message. Too many messages in a short time. Please try again later. Please try again or contact us directly at ${OWNER}.`,
      );
      expect(html).toContain('value="Migrating 20 mailboxes (rateform)"');
    });

    it("stores newsletter subscriptions once per address", async () => {
      const sub = (email: string) => postForm(server, { intent: "newsletter", email });
      const first = await sub("Reader@Example.com");
      expect(first.status).toBe(200);
      expect(await first.text()).toContain(
        "Thanks for subscribing! New articles will reach you at Reader@Example.com.",
      );
      const again = await sub("reader@example.com");
      expect(await again.text()).toContain("reader@example.com is already subscribed. Thank you!");
      const bad = await sub("not-an-email");
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain("Please enter a valid email address.");
      expect(await count(server, "newsletter_subscriptions")).toBe(1);
    });
  });

  it("keeps a message while SMTP is down, retries it, and delivers it once SMTP is back", async () => {
    const port = await unusedPort();
    const server = await startTestServer(database, {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      BUSINESS_EMAIL: OWNER,
      MAIL_RETRY_BASE_MS: "100",
      MAIL_POLL_INTERVAL_MS: "100",
      MAIL_MAX_ATTEMPTS: "30",
    });
    let smtp: TestSmtp | undefined;
    try {
      const res = await postJson(server, visitor("down"));
      expect(res.status).toBe(200);
      const failing = await eventually(async () => {
        const rows = await outbox(server);
        return (
          rows.length === 2 &&
          rows.every((r) => r.status === "pending" && r.attempts >= 1 && r.last_error) &&
          rows
        );
      });
      expect(failing[0]!.last_error).toMatch(/ECONNREFUSED|connect/i);
      expect(await count(server, "contact_messages")).toBe(1);

      smtp = await startTestSmtp(port);
      const rows = await eventually(async () => {
        const r = await outbox(server);
        return r.every((x) => x.status === "sent") && r;
      });
      expect(rows.every((r) => r.attempts >= 2)).toBe(true);
      // Each queued email arrives exactly once.
      const ids = smtp.received.map((m) => m.headers.get("x-portico-outbox-id"));
      expect(ids).toHaveLength(2);
      expect(new Set(ids).size).toBe(2);
    } finally {
      await server.close();
      await smtp?.close();
    }
  });

  it("marks an email failed after the last attempt, with the error", async () => {
    const server = await startTestServer(database, {
      SMTP_URL: `smtp://127.0.0.1:${await unusedPort()}`,
      MAIL_RETRY_BASE_MS: "50",
      MAIL_POLL_INTERVAL_MS: "50",
      MAIL_MAX_ATTEMPTS: "2",
    });
    try {
      expect((await postJson(server, visitor("fail"))).status).toBe(200);
      const rows = await eventually(async () => {
        const r = await outbox(server);
        return r.length === 2 && r.every((x) => x.status === "failed") && r;
      });
      for (const r of rows) {
        expect(r.attempts).toBe(2);
        expect(r.last_error).toBeTruthy();
      }
    } finally {
      await server.close();
    }
  });

  it("never sends one email twice when several workers race for the outbox", async () => {
    // The server's own worker only polls hourly here; three test workers (each with its own connection
    // pool on PostgreSQL) race for the same rows.
    const server = await startTestServer(database, { MAIL_POLL_INTERVAL_MS: "3600000" });
    const handles: DatabaseHandle[] = [];
    try {
      // Let the server's worker finish its start-up pass first, or it could claim (and send elsewhere)
      // the first emails queued below.
      await server.portico.runtime.outbox.drain();
      const dbConfig = server.portico.runtime.config.database;
      const shared = server.portico.runtime.database;
      for (let i = 0; i < 3; i++)
        handles.push(dbConfig.kind === "postgres" ? await openDatabase(dbConfig) : shared);
      const queued: string[] = [];
      for (let i = 0; i < 40; i++) {
        queued.push(
          await enqueueEmail(shared.db, {
            kind: "test",
            to: { name: `Reader ${i}`, address: `r${i}@example.com` },
            subject: `n${i}`,
            html: "<p>x</p>",
            text: "x",
          }),
        );
      }
      const sent: string[] = [];
      const transport: MailTransport = {
        kind: "smtp",
        send: async (email) => {
          sent.push(email.id);
          await sleep(2);
          return { messageId: `<${email.id}@test>` };
        },
        close: () => {},
      };
      const workers = handles.map((h) =>
        startOutboxWorker({
          db: h.db,
          transport,
          logger: pino({ level: "silent" }),
          maxAttempts: 3,
          retryBaseMs: 1000,
          pollIntervalMs: 3_600_000,
          batchSize: 3,
        }),
      );
      await Promise.all(workers.map((w) => w.drain()));
      await Promise.all(workers.map((w) => w.stop()));
      expect(sent.length).toBe(40);
      expect(new Set(sent)).toEqual(new Set(queued));
      const statuses = await queryRows<{ status: string; n: number }>(
        shared.db,
        sql`select status, count(*)::int as n from outbox_emails group by status`,
      );
      expect(statuses).toEqual([{ status: "sent", n: 40 }]);
    } finally {
      for (const h of handles) if (h !== server.portico.runtime.database) await h.close();
      await server.close();
    }
  });

  it("shows captured emails at /dev/mail when enabled, and hides it otherwise", async () => {
    const server = await startTestServer(database, { DEV_MAIL_ENABLED: "true" });
    const hidden = await startTestServer(database, { DEV_MAIL_ENABLED: "false" });
    try {
      expect((await postJson(server, visitor("inbox"))).status).toBe(200);
      const rows = await eventually(async () => {
        const r = await queryRows<{ id: string; status: string; kind: string }>(
          server.portico.runtime.database.db,
          sql`select id, status, kind from outbox_emails`,
        );
        return r.length === 2 && r.every((x) => x.status === "captured") && r;
      });
      const list = await (await server.get("/dev/mail")).text();
      expect(list).toContain("New contact message: Migrating 20 mailboxes (inbox)");
      expect(list).toContain("We received your message");
      const confirmation = rows.find((r) => r.kind === "contact-confirmation")!;
      const page = await server.get(`/dev/mail/${confirmation.id}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toMatch(/<iframe[^>]*sandbox="allow-popups allow-popups-to-escape-sandbox"/);
      expect(html).toMatch(/<iframe[^>]*srcdoc="&lt;!DOCTYPE html&gt;/i);
      expect(html).toContain("&lt;base target=&quot;_blank&quot;&gt;");
      expect((await server.get("/dev/mail/not-a-uuid")).status).toBe(404);
      expect((await hidden.get("/dev/mail")).status).toBe(404);
    } finally {
      await server.close();
      await hidden.close();
    }
  });
});
