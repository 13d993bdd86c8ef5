/**
 * The profile's notification switches through the real HTTP server: saved by a plain form post (no
 * JavaScript) and shown again; order updates off stops the client's order emails but not the bell;
 * security alerts after a password change and a sign-in from a new browser, and none when switched off.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { accountsOn } from "../support/accounts";
import { createOrder, FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { location, Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";
import { totp } from "../support/totp";

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Safari/604.1";

/** The checkbox of a switch in the page, and whether it is checked / disabled. */
function switchIn(html: string, name: string): { checked: boolean; disabled: boolean } {
  const tag = html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0];
  if (!tag) throw new Error(`no ${name} switch`);
  return { checked: / checked=""/.test(tag), disabled: / disabled=""/.test(tag) };
}

describe.each(testDatabases)("notification preferences on $name", (database) => {
  let server: TestServer;
  let addresses = 0;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.100.${n}`,
  );
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);
  const emailsTo = (address: string, kind: string) =>
    rows<{ subject: string; text: string }>(
      sql`select subject, text from outbox_emails where to_address = ${address} and kind = ${kind} order by created_at`,
    );
  /** A browser of its own (address and user agent), signing in with the fixture password. */
  async function signInFrom(email: string, userAgent?: string) {
    const s = new Session(server.url, `203.0.113.${++addresses}`, userAgent);
    const res = await s.post("/client/login", { email, password: FIXTURE_PASSWORD });
    expect(location(res)).toBe("/client/dashboard");
    return s;
  }

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("saves the switches from a plain form post and shows them again", async () => {
    const { id, session } = await signedIn({ email: "nojs@example.com", name: "No Script" });
    let html = await (await session.get("/client/profile?tab=notifications")).text();
    // The spec's defaults, and SMS disabled with its note.
    expect(switchIn(html, "emailNotifications")).toEqual({ checked: true, disabled: false });
    // SMS is no switch: it says in words that it is not available (issue 37, item 12).
    expect(html).not.toContain('name="smsNotifications"');
    expect(switchIn(html, "orderUpdates")).toEqual({ checked: true, disabled: false });
    expect(switchIn(html, "marketingEmails")).toEqual({ checked: false, disabled: false });
    expect(switchIn(html, "securityAlerts")).toEqual({ checked: true, disabled: false });
    expect(html).toContain("SMS notifications are not available yet.");

    // What a browser without JavaScript posts: the checked boxes only.
    const res = await session.post("/client/profile", {
      intent: "notifications",
      emailNotifications: "on",
      marketingEmails: "on",
      securityAlerts: "on",
    });
    expect(res.status).toBe(200);
    html = await res.text();
    expect(text(html)).toContain("Notification preferences saved.");
    expect(switchIn(html, "orderUpdates").checked).toBe(false);

    html = await (await session.get("/client/profile?tab=notifications")).text();
    expect(switchIn(html, "orderUpdates").checked).toBe(false);
    expect(switchIn(html, "marketingEmails").checked).toBe(true);
    expect(switchIn(html, "emailNotifications").checked).toBe(true);
    const [saved] = await rows<Record<string, boolean>>(
      sql`select email_notifications, sms_notifications, order_updates, marketing_emails, security_alerts
          from user_preferences where user_id = ${id}`,
    );
    expect(saved).toEqual({
      email_notifications: true,
      sms_notifications: false,
      order_updates: false,
      marketing_emails: true,
      security_alerts: true,
    });
    // A bad value is refused and changes nothing.
    expect(
      (await session.post("/client/profile", { intent: "notifications", orderUpdates: "maybe" })).status,
    ).toBe(400);
    const [after] = await rows<{ marketing_emails: boolean }>(
      sql`select marketing_emails from user_preferences where user_id = ${id}`,
    );
    expect(after!.marketing_emails).toBe(true);
  });

  it("with order updates off, an order status change rings the bell but emails nobody", async () => {
    const admin = (await signedIn({ email: "owner@example.com", name: "Owner", role: "admin" })).session;
    const quiet = await signedIn({ email: "quiet@example.com", name: "Quiet" });
    const loud = await signedIn({ email: "loud@example.com", name: "Loud" });
    const saved = await quiet.session.post("/client/profile", {
      intent: "notifications",
      emailNotifications: "on",
      securityAlerts: "on",
    });
    expect(saved.status).toBe(200);
    for (const who of [quiet, loud]) {
      const order = await createOrder(db(), who.id, { status: "paid" });
      expect(
        (await admin.post(`/admin/orders/${order.orderId}`, { to: "in_progress", note: "" })).status,
      ).toBe(200);
      expect((await admin.post(`/admin/orders/${order.orderId}`, { to: "completed", note: "" })).status).toBe(
        200,
      );
      const bell = await rows<{ message: string }>(
        sql`select message from notifications where user_id = ${who.id} order by created_at`,
      );
      expect(bell.map((b) => b.message)).toContain("Service completed successfully!");
    }
    expect(await emailsTo("quiet@example.com", "order-status")).toHaveLength(0);
    expect(await emailsTo("loud@example.com", "order-status")).toHaveLength(2);
  });

  it("alerts after a sign-in from a new browser (not from a known one, even after signing out) and a password change", async () => {
    const email = "careful@example.com";
    await signedIn({ email, name: "Careful" });
    // The first sign-in has nothing to compare with: no alert.
    expect(await emailsTo(email, "security-alert")).toHaveLength(0);

    const firefox = await signInFrom(email, FIREFOX);
    let alerts = await emailsTo(email, "security-alert");
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.subject).toMatch(/^New sign-in to your .+ account$/);
    expect(alerts[0]!.text).toContain(
      `If this wasn't you, change your password: ${server.portico.runtime.config.publicUrl}/client/profile?tab=security`,
    );

    // The same browser again, from another address of the same family, after signing out: known.
    expect(location(await firefox.post("/client/sign-out", {}))).toBe("/");
    const again = await signInFrom(email, FIREFOX);
    expect(await emailsTo(email, "security-alert")).toHaveLength(1);

    const newPassword = "N3w!Password!x";
    const changed = await again.post("/client/profile", {
      intent: "password",
      currentPassword: FIXTURE_PASSWORD,
      newPassword,
      confirmPassword: newPassword,
    });
    expect(text(await changed.text())).toContain("Password updated successfully!");
    alerts = await emailsTo(email, "security-alert");
    expect(alerts).toHaveLength(2);
    expect(alerts[1]!.subject).toMatch(/password was changed$/);
    expect(alerts[1]!.text).toContain("/client/profile?tab=security");
    // Never a secret in it.
    for (const secret of [newPassword, FIXTURE_PASSWORD]) expect(alerts[1]!.text).not.toContain(secret);
  });

  it("sends no security alert when they are switched off", async () => {
    const email = "unbothered@example.com";
    const { session } = await signedIn({ email, name: "Unbothered" });
    const saved = await session.post("/client/profile", {
      intent: "notifications",
      emailNotifications: "on",
      orderUpdates: "on",
    });
    expect(saved.status).toBe(200);
    const safari = await signInFrom(email, SAFARI);
    const changed = await safari.post("/client/profile", {
      intent: "password",
      currentPassword: FIXTURE_PASSWORD,
      newPassword: "N3w!Password!x",
      confirmPassword: "N3w!Password!x",
    });
    expect(text(await changed.text())).toContain("Password updated successfully!");
    expect(await emailsTo(email, "security-alert")).toHaveLength(0);
    // The device was still remembered: switching alerts back on later does not flag it.
    const [device] = await rows<{ n: number }>(
      sql`select count(*)::int as n from sign_in_devices d join "user" u on u.id = d.user_id
          where u.email = ${email} and d.user_agent = ${SAFARI}`,
    );
    expect(device!.n).toBe(1);
  });

  it("alerts when two-factor is turned on, new backup codes are made, a code signs in from a new browser, and it is turned off", async () => {
    const email = "guarded@example.com";
    const { session } = await signedIn({ email, name: "Guarded" });
    const started = await session.post("/client/profile", {
      intent: "twoFactorStart",
      password: FIXTURE_PASSWORD,
    });
    const secret = (/data-testid="totp-secret"[^>]*>([^<]+)</.exec(await started.text())?.[1] ?? "").replace(
      /\s+/g,
      "",
    );
    expect(secret).not.toBe("");
    expect(
      (await session.post("/client/profile", { intent: "twoFactorConfirm", code: totp(secret) })).status,
    ).toBe(200);
    const made = await session.post("/client/profile", {
      intent: "twoFactorBackupCodes",
      password: FIXTURE_PASSWORD,
    });
    const list = /data-testid="backup-codes"[^>]*>(.*?)<\/ul>/s.exec(await made.text())?.[1] ?? "";
    const codes = [...list.matchAll(/<li>([^<]+)<\/li>/g)].map((m) => m[1]!);
    expect(codes).toHaveLength(10);

    const safari = new Session(server.url, `203.0.113.${++addresses}`, SAFARI);
    expect(location(await safari.post("/client/login", { email, password: FIXTURE_PASSWORD }))).toMatch(
      /^\/client\/two-factor/,
    );
    expect(location(await safari.post("/client/two-factor", { code: codes[0]! }))).toBe("/client/dashboard");

    const off = await safari.post("/client/profile", {
      intent: "twoFactorDisable",
      password: FIXTURE_PASSWORD,
    });
    expect(off.status).toBe(200);
    const alerts = await emailsTo(email, "security-alert");
    expect(alerts.map((a) => a.subject)).toEqual([
      expect.stringMatching(/^Two-factor authentication is on/),
      expect.stringMatching(/^New backup codes/),
      expect.stringMatching(/^New sign-in/),
      expect.stringMatching(/^Two-factor authentication is off/),
    ]);
    for (const alert of alerts) {
      expect(alert.text).toContain("/client/profile?tab=security");
      for (const secretText of [secret, ...codes, FIXTURE_PASSWORD])
        expect(alert.text).not.toContain(secretText);
    }
  });
});
