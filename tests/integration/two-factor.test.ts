/**
 * Two-factor sign-in (issue 15, item 6; docs/decisions/0702) through the real HTTP handler: turning it on
 * from the profile (password, key, a wrong then a right first code, backup codes shown once), the code
 * step after the password (wrong code message, remember-me and redirects, backup codes once, a code not
 * twice, trusted devices), turning it off and new backup codes (password), the limits on wrong codes
 * (per challenge, per address, per account), ADMIN_REQUIRE_2FA on every back-office loader and action
 * and on every surface outside /admin that carries the owner's data (issue 35, item 7),
 * and the idle and absolute session lifetimes. Codes are computed here from the key the page shows.
 */
import { request } from "node:http";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { contactMessages, services, user } from "~/db/schema";
import { ACCOUNT_LIMITS, ACCOUNT_SIGN_IN_SLOWDOWN } from "~/features/accounts/limits";
import { ADMIN_TWO_FACTOR_REQUIRED } from "~/features/accounts/session.server";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { accountsOn, backOfficePages, backOfficeRecords } from "../support/accounts";
import { createAccount, FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { location, Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { openEvents } from "../support/portal";
import { startTestServer, type TestServer } from "../support/server";
import { backupCodesIn, secretIn, totp, wrongCode } from "../support/totp";

const INVALID_CODE =
  "That code is not valid. Check your authenticator app (or your backup codes) and try again.";
const INVALID_SETUP_CODE =
  "That code is not valid. Check that your authenticator app shows this account and try again.";
const WRONG_PASSWORD = "Current password is incorrect.";
const TOO_MANY = "Too many attempts. Please wait a few minutes and try again.";

describe.each(testDatabases)("two-factor sign-in on $name", (database) => {
  let server: TestServer;
  // Every session its own address, so the per-address limits never interfere unless a test wants them.
  const { db, newSession, signIn, signedIn } = accountsOn(
    () => server,
    (n) => `192.0.${Math.floor((n - 1) / 250) + 2}.${((n - 1) % 250) + 1}`,
  );
  let emailCounter = 0;
  const freshEmail = (prefix: string) => `${prefix}-${++emailCounter}@example.com`;

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function twoFactorEnabled(email: string): Promise<boolean> {
    const [row] = await db().select({ on: user.twoFactorEnabled }).from(user).where(eq(user.email, email));
    return row!.on;
  }

  /** Turns two-factor on from the profile; returns the key and the backup codes shown. */
  async function enable(s: Session): Promise<{ secret: string; backupCodes: string[] }> {
    const started = await s.post("/client/profile", { intent: "twoFactorStart", password: FIXTURE_PASSWORD });
    expect(started.status).toBe(200);
    const secret = secretIn(await started.text());
    const confirmed = await s.post("/client/profile", { intent: "twoFactorConfirm", code: totp(secret) });
    expect(confirmed.status).toBe(200);
    const backupCodes = backupCodesIn(await confirmed.text());
    expect(backupCodes).toHaveLength(10);
    return { secret, backupCodes };
  }

  /** A verified client with two-factor on. */
  async function clientWithTwoFactor(prefix: string) {
    const email = freshEmail(prefix);
    const { id, session } = await signedIn({ email, name: "Grace Hopper" });
    return { id, email, ...(await enable(session)) };
  }

  async function failures(userId: string): Promise<number> {
    const [row] = await queryRows<{ hits: number }>(
      db(),
      sql`select hits from rate_limits where key = ${`account:twoFactorFailures:${userId}`}`,
    );
    return row ? Number(row.hits) : 0;
  }

  describe("turning it on from the profile", () => {
    it("needs the password, refuses a wrong first code, enables on the right one and shows backup codes once", async () => {
      const email = freshEmail("enable");
      await createAccount(db(), { email, name: "Ada Lovelace" });
      const { s } = await signIn(email);
      const other = (await signIn(email)).s;

      const tab = await s.get("/client/profile?tab=security");
      expect(tab.status).toBe(200);
      expect(text(await tab.text())).toContain("Set Up Two-Factor Authentication");

      const wrongPassword = await s.post("/client/profile", {
        intent: "twoFactorStart",
        password: "Wrong!Passw0rd",
      });
      expect(wrongPassword.status).toBe(400);
      expect(text(await wrongPassword.text())).toContain(WRONG_PASSWORD);

      const started = await s.post("/client/profile", {
        intent: "twoFactorStart",
        password: FIXTURE_PASSWORD,
      });
      expect(started.status).toBe(200);
      const startedHtml = await started.text();
      const secret = secretIn(startedHtml);
      expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
      expect(startedHtml).toContain('aria-label="QR code to add this account to an authenticator app"');
      expect(await twoFactorEnabled(email)).toBe(false);

      // A reload of the unfinished setup shows the same key again.
      expect(secretIn(await (await s.get("/client/profile?tab=security")).text())).toBe(secret);

      const wrong = await s.post("/client/profile", { intent: "twoFactorConfirm", code: wrongCode(secret) });
      expect(wrong.status).toBe(400);
      expect(text(await wrong.text())).toContain(INVALID_SETUP_CODE);
      expect(await twoFactorEnabled(email)).toBe(false);

      const right = await s.post("/client/profile", { intent: "twoFactorConfirm", code: totp(secret) });
      expect(right.status).toBe(200);
      const codes = backupCodesIn(await right.text());
      expect(codes).toHaveLength(10);
      for (const code of codes) expect(code).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);
      expect(await twoFactorEnabled(email)).toBe(true);

      // The session goes on (a new cookie); the codes are not shown again; other sessions ended.
      const again = await s.get("/client/profile?tab=security");
      expect(again.status).toBe(200);
      const againHtml = await again.text();
      expect(backupCodesIn(againHtml)).toEqual([]);
      for (const code of codes) expect(againHtml).not.toContain(code);
      expect(text(againHtml)).toContain("Turn Off Two-Factor Authentication");
      expect(location(await other.get("/client/dashboard"))).toBe(
        "/client/login?redirectTo=%2Fclient%2Fdashboard",
      );
    });

    it("can cancel an unfinished setup", async () => {
      const email = freshEmail("cancel");
      await createAccount(db(), { email, name: "Cancel" });
      const { s } = await signIn(email);
      await s.post("/client/profile", { intent: "twoFactorStart", password: FIXTURE_PASSWORD });
      const cancelled = await s.post("/client/profile", { intent: "twoFactorCancel" });
      expect(text(await cancelled.text())).toContain("Two-factor setup cancelled.");
      const rows = await queryRows(
        db(),
        sql`select id from two_factor where user_id = (select id from "user" where email = ${email})`,
      );
      expect(rows).toHaveLength(0);
      // Sign-in is unchanged.
      expect(location((await signIn(email)).res)).toBe("/client/dashboard");
    });
  });

  describe("signing in", () => {
    it("asks for a code after the password, with no session until it is right", async () => {
      const { email, secret } = await clientWithTwoFactor("step");
      const { s, res } = await signIn(email);
      expect(location(res)).toBe("/client/two-factor");
      expect(
        res.headers
          .getSetCookie()
          .some((c) => /^portico\.session_token=[^;]+;/.test(c) && !/Max-Age=0/i.test(c)),
      ).toBe(false);
      expect(location(await s.get("/client/dashboard"))).toBe(
        "/client/login?redirectTo=%2Fclient%2Fdashboard",
      );

      const page = await s.get("/client/two-factor");
      expect(page.status).toBe(200);
      expect(text(await page.text())).toContain("Authentication code");

      const wrong = await s.post("/client/two-factor", { code: wrongCode(secret) });
      expect(wrong.status).toBe(401);
      expect(text(await wrong.text())).toContain(INVALID_CODE);
      expect(location(await s.get("/client/dashboard"))).toBe(
        "/client/login?redirectTo=%2Fclient%2Fdashboard",
      );

      const malformed = await s.post("/client/two-factor", { code: "<script>" });
      expect(malformed.status).toBe(400);

      const right = await s.post("/client/two-factor", { code: totp(secret) });
      expect(location(right)).toBe("/client/dashboard");
      const cookie = right.headers.getSetCookie().find((c) => c.startsWith("portico.session_token="));
      expect(cookie).toMatch(/HttpOnly/i);
      // Without remember-me: a browser-session cookie, as after a one-step sign-in.
      expect(cookie).not.toMatch(/Max-Age|Expires/i);
      expect((await s.get("/client/dashboard")).status).toBe(200);
    });

    it("keeps remember-me and the redirect of the login through the code step", async () => {
      const { email, secret } = await clientWithTwoFactor("remember");
      const { s, res } = await signIn(
        email,
        { rememberMe: "on" },
        newSession(),
        "?redirectTo=%2Fclient%2Forders",
      );
      expect(location(res)).toBe("/client/two-factor?redirectTo=%2Fclient%2Forders");
      const right = await s.post("/client/two-factor?redirectTo=%2Fclient%2Forders", { code: totp(secret) });
      expect(location(right)).toBe("/client/orders");
      const cookie = right.headers.getSetCookie().find((c) => c.startsWith("portico.session_token="));
      expect(cookie).toMatch(/Max-Age=2592000/i);
    });

    it("sends the code step back to the login page when there is no pending sign-in", async () => {
      const res = await newSession().get("/client/two-factor");
      expect(location(res)).toBe("/client/login?twoFactor=expired");
      const posted = await newSession().post("/client/two-factor", { code: "123456" });
      expect(location(posted)).toBe("/client/login?twoFactor=expired");
      const login = await newSession().get("/client/login?twoFactor=expired");
      expect(text(await login.text())).toContain("Your sign-in expired. Please sign in again.");
    });

    it("accepts a backup code once", async () => {
      const { email, backupCodes } = await clientWithTwoFactor("backup");
      const code = backupCodes[3]!;
      const first = await signIn(email);
      expect(location(await first.s.post("/client/two-factor", { code }))).toBe("/client/dashboard");
      expect((await first.s.get("/client/dashboard")).status).toBe(200);

      const second = await signIn(email);
      const reused = await second.s.post("/client/two-factor", { code });
      expect(reused.status).toBe(401);
      expect(text(await reused.text())).toContain(INVALID_CODE);
      // Another one still works (typed without its dash).
      const next = backupCodes[4]!.replace("-", "");
      expect(location(await second.s.post("/client/two-factor", { code: next }))).toBe("/client/dashboard");
    });

    it("does not accept the same authenticator code twice", async () => {
      const { email, secret } = await clientWithTwoFactor("replay");
      const code = totp(secret);
      const first = await signIn(email);
      expect(location(await first.s.post("/client/two-factor", { code }))).toBe("/client/dashboard");
      const second = await signIn(email);
      const replayed = await second.s.post("/client/two-factor", { code });
      expect(replayed.status).toBe(401);
      expect(text(await replayed.text())).toContain(INVALID_CODE);
    });

    it("skips the code on a device trusted for 30 days, and only there", async () => {
      const { email, secret } = await clientWithTwoFactor("trust");
      const { s } = await signIn(email);
      const right = await s.post("/client/two-factor", { code: totp(secret), trustDevice: "on" });
      expect(location(right)).toBe("/client/dashboard");
      const trust = right.headers.getSetCookie().find((c) => c.startsWith("portico.trust_device="));
      expect(trust).toMatch(/Max-Age=2592000/i);
      expect(trust).toMatch(/HttpOnly/i);
      await s.post("/client/sign-out", {});
      expect(location((await signIn(email, {}, s)).res)).toBe("/client/dashboard");
      // Another browser still gets the code step.
      expect(location((await signIn(email)).res)).toBe("/client/two-factor");
    });

    it("sends an admin with two-factor to the back office after the code", async () => {
      const { id, email, secret } = await clientWithTwoFactor("admin-step");
      await db().update(user).set({ role: "admin" }).where(eq(user.id, id));
      const { s, res } = await signIn(email, {}, newSession(), "?redirectTo=%2Fclient%2Forders");
      expect(location(res)).toBe("/client/two-factor?redirectTo=%2Fclient%2Forders");
      const right = await s.post("/client/two-factor?redirectTo=%2Fclient%2Forders", { code: totp(secret) });
      expect(location(right)).toBe("/admin/dashboard");
      expect((await s.get("/admin/dashboard")).status).toBe(200);
    });
  });

  describe("turning it off and new backup codes", () => {
    it("turns it off only with the current password", async () => {
      const email = freshEmail("disable");
      await createAccount(db(), { email, name: "Off" });
      const { s } = await signIn(email);
      await enable(s);
      const wrong = await s.post("/client/profile", {
        intent: "twoFactorDisable",
        password: "Wrong!Passw0rd",
      });
      expect(wrong.status).toBe(400);
      expect(text(await wrong.text())).toContain(WRONG_PASSWORD);
      expect(await twoFactorEnabled(email)).toBe(true);
      const missing = await s.post("/client/profile", { intent: "twoFactorDisable", password: "" });
      expect(missing.status).toBe(400);
      expect(await twoFactorEnabled(email)).toBe(true);

      const right = await s.post("/client/profile", {
        intent: "twoFactorDisable",
        password: FIXTURE_PASSWORD,
      });
      expect(right.status).toBe(200);
      expect(text(await right.text())).toContain("Two-factor authentication is off.");
      expect(await twoFactorEnabled(email)).toBe(false);
      expect((await s.get("/client/dashboard")).status).toBe(200);
      expect(location((await signIn(email)).res)).toBe("/client/dashboard");
    });

    it("makes new backup codes only with the password, and the old ones stop working", async () => {
      const email = freshEmail("regen");
      await createAccount(db(), { email, name: "Regen" });
      const { s } = await signIn(email);
      const { backupCodes: old } = await enable(s);
      const wrong = await s.post("/client/profile", {
        intent: "twoFactorBackupCodes",
        password: "Wrong!Passw0rd",
      });
      expect(wrong.status).toBe(400);
      expect(backupCodesIn(await wrong.text())).toEqual([]);

      const made = await s.post("/client/profile", {
        intent: "twoFactorBackupCodes",
        password: FIXTURE_PASSWORD,
      });
      expect(made.status).toBe(200);
      const fresh = backupCodesIn(await made.text());
      expect(fresh).toHaveLength(10);
      expect(fresh.some((c) => old.includes(c))).toBe(false);

      const a = await signIn(email);
      expect((await a.s.post("/client/two-factor", { code: old[0]! })).status).toBe(401);
      expect(location(await a.s.post("/client/two-factor", { code: fresh[0]! }))).toBe("/client/dashboard");
    });
  });

  describe("limits on wrong codes", () => {
    it("ends a sign-in after 5 wrong codes: the password is asked again", async () => {
      const { email, secret } = await clientWithTwoFactor("challenge");
      const { s } = await signIn(email);
      for (let i = 0; i < 5; i++) {
        expect((await s.post("/client/two-factor", { code: wrongCode(secret, i) })).status).toBe(401);
      }
      // Even the right code no longer finishes this sign-in.
      const sixth = await s.post("/client/two-factor", { code: totp(secret) });
      expect(location(sixth)).toBe("/client/login?twoFactor=retry");
      expect(text(await (await s.get("/client/login?twoFactor=retry")).text())).toContain(
        "Too many wrong codes. Please sign in again.",
      );
      expect(location(await s.get("/client/dashboard"))).toBe(
        "/client/login?redirectTo=%2Fclient%2Fdashboard",
      );
    });

    it("limits codes per client address, whatever the account", async () => {
      const a = await clientWithTwoFactor("per-ip-a");
      const b = await clientWithTwoFactor("per-ip-b");
      const ip = "203.0.113.77";
      const { max } = ACCOUNT_LIMITS.twoFactor;
      let sent = 0;
      for (const account of [a, b]) {
        const { s } = await signIn(account.email, {}, new Session(server.url, ip));
        for (let i = 0; i < 5 && sent < max; i++, sent++) {
          const code = wrongCode(account.secret, i);
          expect((await s.post("/client/two-factor", { code })).status).toBe(401);
        }
      }
      expect(sent).toBe(max);
      // The next code from that address is refused, even a right one.
      const { s } = await signIn(a.email, {}, new Session(server.url, ip));
      const refused = await s.post("/client/two-factor", { code: totp(a.secret) });
      expect(refused.status).toBe(429);
      expect(text(await refused.text())).toContain(TOO_MANY);
      // From another address the owner gets in.
      const { s: elsewhere } = await signIn(a.email);
      expect(location(await elsewhere.post("/client/two-factor", { code: totp(a.secret) }))).toBe(
        "/client/dashboard",
      );
    });

    it("slows an account down after a few wrong codes from any address, and lets its owner in", async () => {
      const { id, email, secret } = await clientWithTwoFactor("per-account");
      for (let i = 0; i < ACCOUNT_SIGN_IN_SLOWDOWN.freeFailures; i++) {
        const { s } = await signIn(email);
        expect((await s.post("/client/two-factor", { code: wrongCode(secret, i) })).status).toBe(401);
      }
      expect(await failures(id)).toBe(ACCOUNT_SIGN_IN_SLOWDOWN.freeFailures);
      const { s } = await signIn(email);
      const started = performance.now();
      const owner = await s.post("/client/two-factor", { code: totp(secret) });
      // A lower bound only: the wait happens before the code is checked.
      expect(performance.now() - started).toBeGreaterThanOrEqual(ACCOUNT_SIGN_IN_SLOWDOWN.firstDelayMs);
      expect(location(owner)).toBe("/client/dashboard");
      expect(await failures(id)).toBe(0);
    });
  });

  describe("session lifetimes", () => {
    const sessionOf = async (email: string) => {
      const [row] = await queryRows<{ id: string; days: number }>(
        db(),
        sql`select id, extract(epoch from (expires_at - now())) / 86400 as days from session
            where user_id = (select id from "user" where email = ${email}) order by created_at desc limit 1`,
      );
      return { id: row!.id, days: Number(row!.days) };
    };

    it("gives a remembered session 30 idle days, extended as it is used", async () => {
      const email = freshEmail("idle-remember");
      await createAccount(db(), { email, name: "Idle" });
      const { s } = await signIn(email, { rememberMe: "on" });
      const first = await sessionOf(email);
      expect(first.days).toBeGreaterThan(29.9);
      expect(first.days).toBeLessThanOrEqual(30);
      // Last refreshed two days ago: the next request moves its expiry 30 days ahead again.
      await db().execute(
        sql`update session set expires_at = now() + interval '28 days', updated_at = now() - interval '2 days'
            where id = ${first.id}`,
      );
      expect((await s.get("/client/dashboard")).status).toBe(200);
      expect((await sessionOf(email)).days).toBeGreaterThan(29.9);
    });

    it("gives a session without remember-me one day, never extended", async () => {
      const email = freshEmail("idle-once");
      await createAccount(db(), { email, name: "Once" });
      const { s } = await signIn(email);
      const first = await sessionOf(email);
      expect(first.days).toBeGreaterThan(0.99);
      expect(first.days).toBeLessThanOrEqual(1);
      await db().execute(
        sql`update session set expires_at = now() + interval '2 hours', updated_at = now() - interval '22 hours'
            where id = ${first.id}`,
      );
      expect((await s.get("/client/dashboard")).status).toBe(200);
      expect((await sessionOf(email)).days).toBeLessThan(0.1);
    });
  });
});

describe.each(testDatabases)("ADMIN_REQUIRE_2FA on $name", (database) => {
  let server: TestServer;
  const { db, newSession, signIn, signedIn } = accountsOn(
    () => server,
    (n) => `198.18.0.${n}`,
  );

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback", ADMIN_REQUIRE_2FA: "true" });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("refuses every back-office page and action to an admin without two-factor until it is on", async () => {
    const clientId = await createAccount(db(), { email: "ada@example.com", name: "Ada Lovelace" });
    const records = await backOfficeRecords(db(), clientId);
    const { order, service, message } = records;

    const { session: s } = await signedIn({ email: "boss@example.com", name: "Boss", role: "admin" });

    for (const path of backOfficePages(records)) {
      const page = await s.get(path);
      expect(location(page), `GET ${path}`).toBe("/admin/two-factor");
      expect(await page.text()).not.toContain("ada@example.com");
    }
    // The data requests of client-side navigation refuse too, without the data.
    for (const path of ["/admin/orders.data", `/admin/clients/${clientId}.data`, "/admin/dashboard.data"]) {
      const data = await s.get(path);
      const body = await data.text();
      expect(body, `GET ${path}`).toContain("/admin/two-factor");
      expect(body, `GET ${path}`).not.toContain("ada@example.com");
    }
    const actions: [string, Record<string, string>][] = [
      [`/admin/orders/${order.orderId}`, { to: "paid", note: "" }],
      [`/admin/invoices/${order.invoiceId}`, { intent: "mark-paid", reference: "BANK-1" }],
      [`/admin/invoices/${order.invoiceId}`, { intent: "void" }],
      [`/admin/messages/${message!.id}`, { intent: "read" }],
      [`/admin/catalogue/${service!.id}`, { name: "Hacked", description: "Hacked description" }],
    ];
    for (const [path, fields] of actions) {
      const res = await s.post(path, fields);
      expect(location(res), `POST ${path}`).toBe("/admin/two-factor");
    }
    const [after] = await queryRows<{ status: string }>(
      db(),
      sql`select status from orders where id = ${order.orderId}`,
    );
    expect(after!.status).toBe("pending");
    const [inv] = await queryRows<{ status: string }>(
      db(),
      sql`select status from invoices where id = ${order.invoiceId}`,
    );
    expect(inv!.status).toBe("sent");
    const [msg] = await db().select().from(contactMessages).where(eq(contactMessages.id, message!.id));
    expect(msg!.readAt).toBeNull();
    const [svc] = await db().select().from(services).where(eq(services.id, service!.id));
    expect(svc!.name).toBe(service!.name);

    // The setup page itself works, and turning two-factor on there opens the back office.
    const setup = await s.get("/admin/two-factor");
    expect(setup.status).toBe(200);
    expect(text(await setup.text())).toContain(
      "The back office requires two-factor authentication. Turn it on to continue.",
    );
    const started = await s.post("/admin/two-factor", {
      intent: "twoFactorStart",
      password: FIXTURE_PASSWORD,
    });
    const secret = secretIn(await started.text());
    const confirmed = await s.post("/admin/two-factor", { intent: "twoFactorConfirm", code: totp(secret) });
    expect(confirmed.status).toBe(200);
    expect(backupCodesIn(await confirmed.text())).toHaveLength(10);
    expect((await s.get("/admin/dashboard")).status).toBe(200);
    const marked = await s.post(`/admin/messages/${message!.id}`, { intent: "read" });
    expect(marked.status).toBeLessThan(400);
    const [read] = await db().select().from(contactMessages).where(eq(contactMessages.id, message!.id));
    expect(read!.readAt).not.toBeNull();

    // The next sign-in asks for a code, then goes to the back office.
    const again = await signIn("boss@example.com");
    expect(location(again.res)).toBe("/client/two-factor");
    const done = await again.s.post("/client/two-factor", { code: totp(secret) });
    expect(location(done)).toBe("/admin/dashboard");
    expect((await again.s.get("/admin/dashboard")).status).toBe(200);
  });

  it("refuses the owner's data outside /admin too: the bell, its actions, live events and every portal page", async () => {
    const { id, session: s } = await signedIn({
      email: "owner.surfaces@example.com",
      name: "Owner",
      role: "admin",
    });
    const title = "Quote Q-SECRET-0001 was accepted";
    const noticeId = await raiseNotification(db(), id, {
      title,
      message: "Ada accepted the quote.",
      type: "info",
    });

    // The notifications page (a portal page since issue 37) goes to the setup page, without the data; its
    // actions (the bell's fetchers post there) answer 403 with a clear message, nothing read or changed.
    const bell = await s.get("/client/notifications");
    expect(location(bell)).toBe("/admin/two-factor");
    expect(await bell.text()).not.toContain(title);
    for (const fields of <Record<string, string>[]>[
      { intent: "read-all" },
      { intent: "read", id: noticeId },
      { intent: "remove", id: noticeId },
    ]) {
      const res = await s.post("/client/notifications", fields);
      expect(res.status, fields.intent).toBe(403);
      expect(await res.text(), fields.intent).not.toContain(title);
    }
    const [still] = await queryRows<{ read: boolean }>(
      db(),
      sql`select read from notifications where id = ${noticeId}`,
    );
    expect(still).toEqual({ read: false });

    // The live events stream: 403 at once, with the message, no stream.
    const events = await openEvents(server.url, s);
    expect(events.status).toBe(403);
    expect(await events.text()).toBe(ADMIN_TWO_FACTOR_REQUIRED);

    // Every portal page (their shell carries the bell) and download goes to the setup page, without the data.
    for (const path of [
      "/client/dashboard",
      "/client/orders",
      "/client/invoices",
      "/client/quotes",
      "/client/search?q=quote",
      "/client/profile",
      "/client/profile/export",
      "/client/invoices/download-all",
    ]) {
      const page = await s.get(path);
      expect(location(page), `GET ${path}`).toBe("/admin/two-factor");
      expect(await page.text(), `GET ${path}`).not.toContain(title);
    }
    for (const path of ["/client/dashboard.data", "/client/search.data?q=quote"]) {
      const body = await (await s.get(path)).text();
      expect(body, `GET ${path}`).toContain("/admin/two-factor");
      expect(body, `GET ${path}`).not.toContain(title);
    }

    // Once two-factor is on, the same admin gets them.
    const started = await s.post("/admin/two-factor", {
      intent: "twoFactorStart",
      password: FIXTURE_PASSWORD,
    });
    const secret = secretIn(await started.text());
    expect(
      (await s.post("/admin/two-factor", { intent: "twoFactorConfirm", code: totp(secret) })).status,
    ).toBe(200);
    const opened = await s.get("/client/notifications");
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain(title);
    const live = await openEvents(server.url, s);
    expect(live.status).toBe(200);
    await live.body?.cancel();
  });

  it("leaves clients free (404 on the admin setup page, portal as usual)", async () => {
    await createAccount(db(), { email: "client@example.com", name: "Client" });
    const { s, res } = await signIn("client@example.com");
    expect(location(res)).toBe("/client/dashboard");
    expect((await s.get("/client/dashboard")).status).toBe(200);
    expect((await s.get("/admin/two-factor")).status).toBe(404);
    expect(
      (await s.post("/admin/two-factor", { intent: "twoFactorStart", password: FIXTURE_PASSWORD })).status,
    ).toBe(404);
    expect((await newSession().get("/admin/two-factor")).status).toBe(404);
  });
});

describe.each(testDatabases)("two-factor sign-in over https on $name", (database) => {
  const SITE = "https://portico.test";
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database, {
      NODE_ENV: "production",
      PUBLIC_URL: SITE,
      TRUST_PROXY: "loopback",
      AUTH_SECRET: "two-factor-test-secret-two-factor-test",
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A browser behind a TLS proxy (public Host, https scheme), keeping its cookies. Through node:http,
   * since fetch does not let a caller set Host. */
  function httpsBrowser() {
    const jar = new Map<string, string>();
    return (path: string, form?: Record<string, string>) =>
      new Promise<{ status: number; location: string | null; cookies: string[]; body: string }>(
        (resolve, reject) => {
          const body = form ? new URLSearchParams(form).toString() : undefined;
          const req = request(new URL(path, server.url), {
            method: form ? "POST" : "GET",
            headers: {
              host: "portico.test",
              "x-forwarded-proto": "https",
              "x-forwarded-for": "198.51.100.9",
              cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
              ...(form ? { origin: SITE, "content-type": "application/x-www-form-urlencoded" } : {}),
            },
          });
          req.on("response", (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => {
              const cookies = res.headers["set-cookie"] ?? [];
              for (const line of cookies) {
                const [pair] = line.split(";");
                const at = pair!.indexOf("=");
                const name = pair!.slice(0, at);
                const value = pair!.slice(at + 1);
                if (/max-age=0\b/i.test(line) || value === "") jar.delete(name);
                else jar.set(name, value);
              }
              const location = res.headers.location ? new URL(res.headers.location, SITE).pathname : null;
              resolve({
                status: res.statusCode ?? 0,
                location,
                cookies,
                body: Buffer.concat(chunks).toString(),
              });
            });
          });
          req.on("error", reject);
          req.end(body);
        },
      );
  }

  it("keeps every two-factor cookie __Host- prefixed and Secure, and the code step works with them", async () => {
    const email = "secure-2fa@example.com";
    await createAccount(server.portico.runtime.database.db, { email, name: "Secure" });
    const browser = httpsBrowser();
    expect((await browser("/client/login", { email, password: FIXTURE_PASSWORD })).location).toBe(
      "/client/dashboard",
    );
    const started = await browser("/client/profile", {
      intent: "twoFactorStart",
      password: FIXTURE_PASSWORD,
    });
    expect(started.status).toBe(200);
    const secret = secretIn(started.body);
    const confirmed = await browser("/client/profile", { intent: "twoFactorConfirm", code: totp(secret) });
    expect(confirmed.status).toBe(200);
    await browser("/client/sign-out", {});

    const password = await browser("/client/login", { email, password: FIXTURE_PASSWORD });
    expect(password.location).toBe("/client/two-factor");
    const challenge = password.cookies.find((c) => c.startsWith("__Host-portico.two_factor="));
    expect(challenge, password.cookies.join("\n")).toMatch(/; Secure/i);
    expect(challenge).toMatch(/; HttpOnly/i);
    expect((await browser("/client/two-factor")).status).toBe(200);

    const done = await browser("/client/two-factor", { code: totp(secret), trustDevice: "on" });
    expect(done.location).toBe("/client/dashboard");
    for (const cookie of done.cookies) expect(cookie).toMatch(/^__Host-/);
    const trust = done.cookies.find((c) => c.startsWith("__Host-portico.trust_device="));
    expect(trust).toMatch(/; Secure/i);
    expect(trust).toMatch(/; HttpOnly/i);
    expect((await browser("/client/dashboard")).status).toBe(200);
  });
});
