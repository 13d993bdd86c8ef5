import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { location, Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";
import { eventually } from "../support/smtp";

const PASSWORD = "Str0ng!Passw0rd";

describe.each(testDatabases)("client accounts on $name", (database) => {
  let server: TestServer;
  let ipCounter = 0;
  const newSession = () => new Session(server.url, `198.51.100.${++ipCounter}`);

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.portico.runtime.database.db;

  async function emailsTo(address: string, kind: string) {
    return queryRows<{ subject: string; text: string; html: string; reply_to: string | null }>(
      db(),
      sql`select subject, text, html, reply_to from outbox_emails where to_address = ${address} and kind = ${kind} order by created_at`,
    );
  }

  /** The last link in the last email of a kind, as a path on our server. */
  async function linkIn(address: string, kind: string): Promise<string> {
    const mails = await emailsTo(address, kind);
    const body = mails.at(-1)?.text ?? "";
    const url = body.match(/https?:\/\/\S+/g)?.find((u) => u.includes("/api/auth/"));
    if (!url) throw new Error(`no link in ${kind} email to ${address}: ${body}`);
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  }

  async function register(session: Session, email: string, name = "Ada Lovelace") {
    return session.post("/client/register", { name, email, password: PASSWORD, confirmPassword: PASSWORD });
  }

  async function registerAndVerify(email: string, name = "Ada Lovelace") {
    const s = newSession();
    expect(location(await register(s, email, name))).toBe("/client/verify-email");
    const res = await s.get(await linkIn(email, "account-verification"));
    expect(location(res)).toBe("/client/login?verified=true");
    return s;
  }

  async function signIn(email: string, password = PASSWORD, rememberMe = false) {
    const s = newSession();
    const res = await s.post("/client/login", {
      email,
      password,
      ...(rememberMe ? { rememberMe: "on" } : {}),
    });
    return { s, res };
  }

  describe("registration", () => {
    it("shows the spec's message for each invalid field, from the server", async () => {
      const s = newSession();
      const res = await s.post("/client/register", {
        name: "",
        email: "nope",
        password: "weak",
        confirmPassword: "x",
      });
      expect(res.status).toBe(400);
      const html = text(await res.text());
      expect(html).toContain("Name is required");
      expect(html).toContain("Please enter a valid email address");
      expect(html).toContain("Password must be at least 8 characters long");
      const res2 = await s.post("/client/register", {
        name: "Ada",
        email: "ada@example.com",
        password: PASSWORD,
        confirmPassword: `${PASSWORD}x`,
      });
      expect(text(await res2.text())).toContain("Passwords do not match");
      for (const [password, message] of [
        ["abcdefg1!", "Password must contain at least one uppercase letter"],
        ["ABCDEFG1!", "Password must contain at least one lowercase letter"],
        ["Abcdefgh!", "Password must contain at least one number"],
        ["Abcdefgh1", "Password must contain at least one special character"],
      ] as const) {
        const r = await s.post("/client/register", {
          name: "Ada",
          email: "ada@example.com",
          password,
          confirmPassword: password,
        });
        expect(text(await r.text())).toContain(message);
      }
    });

    it("creates an unverified account, queues the verification and welcome emails, and goes to verify-email", async () => {
      const s = newSession();
      const res = await register(s, "grace@example.com", "Grace Hopper");
      expect(res.status).toBe(302);
      expect(location(res)).toBe("/client/verify-email");
      const [row] = await queryRows<{ email_verified: boolean; role: string }>(
        db(),
        sql`select email_verified, role from "user" where email = 'grace@example.com'`,
      );
      expect(row).toEqual({ email_verified: false, role: "client" });
      expect(await emailsTo("grace@example.com", "account-verification")).toHaveLength(1);
      const [welcome] = await emailsTo("grace@example.com", "account-welcome");
      expect(welcome?.text).toContain("Grace Hopper");
      expect(welcome?.text).toContain("/client/login");
      // No client record before the address is confirmed.
      const clients = await queryRows(db(), sql`select id from clients where email = 'grace@example.com'`);
      expect(clients).toHaveLength(0);

      const page = text(await (await s.get("/client/verify-email")).text());
      expect(page).toContain("grace@example.com");
      expect(page).toContain("I've Verified My Email");
    });

    it("refuses an address already registered with the spec's messages", async () => {
      await register(newSession(), "dup@example.com");
      const res = await register(newSession(), "DUP@example.com");
      expect(res.status).toBe(409);
      const html = text(await res.text());
      expect(html).toContain("This email is already registered. Please try logging in instead.");
      expect(html).toContain("Email already exists");
    });

    it("offers no second door: better-auth's own sign-up endpoint is closed", async () => {
      const res = await fetch(`${server.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": "192.0.2.200" },
        body: JSON.stringify({ name: "X", email: "weak@example.com", password: "password123" }),
      });
      expect(res.status).toBe(404);
      const [row] = await queryRows<{ n: number }>(
        db(),
        sql`select count(*)::int as n from "user" where email = 'weak@example.com'`,
      );
      expect(row?.n).toBe(0);
    });
  });

  describe("verification", () => {
    it("says not yet verified, resends, then detects the confirmation on the button and on load", async () => {
      const s = newSession();
      await register(s, "linus@example.com", "Linus");
      const check = text(await (await s.post("/client/verify-email", { intent: "check" })).text());
      expect(check).toContain(
        "Email not yet verified. Please check your inbox and click the verification link.",
      );

      const resend = text(await (await s.post("/client/verify-email", { intent: "resend" })).text());
      expect(resend).toContain("Verification email sent! Please check your inbox.");
      expect(await emailsTo("linus@example.com", "account-verification")).toHaveLength(2);

      const link = await linkIn("linus@example.com", "account-verification");
      expect(location(await newSession().get(link))).toBe("/client/login?verified=true");

      const [client] = await queryRows<{
        name: string;
        email_verified: boolean;
        email_verified_at: Date | null;
      }>(
        db(),
        sql`select name, email_verified, email_verified_at from clients where email = 'linus@example.com'`,
      );
      expect(client?.name).toBe("Linus");
      expect(client?.email_verified).toBe(true);
      expect(client?.email_verified_at).toBeTruthy();

      const confirmed = await s.post("/client/verify-email", { intent: "check" });
      expect(text(await confirmed.text())).toContain("Email Verified!");
      // The pending cookie is kept until the sign-in (the login form offers its address), then spent.
      expect(s.cookie("portico_pending_verification")).toBeDefined();
    });

    it("offers the confirmed address on the login form, from this browser's registration, never the query", async () => {
      const s = newSession();
      await register(s, "offered@example.com", "Offered Person");
      // Not before it is confirmed.
      expect(await s.get("/client/login").then((r) => r.text())).not.toContain('value="offered@example.com"');
      const link = await linkIn("offered@example.com", "account-verification");
      expect(location(await s.get(link))).toBe("/client/login?verified=true");
      const page = await (await s.get("/client/login?verified=true")).text();
      expect(page).toContain('value="offered@example.com"');
      // Another browser: a query cannot fill the form, escaped or not.
      const forged = await (
        await newSession().get("/client/login?verified=true&email=forged%40example.com")
      ).text();
      expect(forged).not.toContain("forged@example.com");
      // The sign-in spends the cookie: the form no longer offers the address.
      const signedIn = await s.post("/client/login", { email: "offered@example.com", password: PASSWORD });
      expect(location(signedIn)).toBe("/client/dashboard");
      expect(s.cookie("portico_pending_verification")).toBeUndefined();
    });

    it("says the resend failed once an address has asked too often", async () => {
      const s = newSession();
      await register(s, "impatient@example.com");
      const answers: string[] = [];
      for (let i = 0; i < 4; i++)
        answers.push(text(await (await s.post("/client/verify-email", { intent: "resend" })).text()));
      expect(
        answers.slice(0, 3).every((a) => a.includes("Verification email sent! Please check your inbox.")),
      ).toBe(true);
      expect(answers[3]).toContain("Failed to resend verification email. Please try again.");
    });

    it("without a pending address, resend says to register again", async () => {
      const res = await newSession().post("/client/verify-email", { intent: "resend" });
      expect(text(await res.text())).toContain("Email address not found. Please register again.");
    });

    it("shows the verified alert on the login page, and an error for a bad link", async () => {
      expect(text(await (await newSession().get("/client/login?verified=true")).text())).toContain(
        "Email verified successfully! You can now log in to your account.",
      );
      const bad = await newSession().get(
        "/api/auth/verify-email?token=forged&callbackURL=%2Fclient%2Flogin%3Fverified%3Dtrue",
      );
      const landing = location(bad);
      expect(landing).toMatch(/^\/client\/login\?verified=true&error=/);
      expect(text(await (await newSession().get(landing)).text())).toContain(
        "This verification link is invalid or has expired. Log in to get a new one.",
      );
    });
  });

  describe("login", () => {
    it("validates the form with the spec's messages", async () => {
      const res = await newSession().post("/client/login", { email: "x", password: "" });
      expect(res.status).toBe(400);
      const html = text(await res.text());
      expect(html).toContain("Please enter a valid email address");
      expect(html).toContain("Password is required");
    });

    it("refuses wrong credentials with the spec's message", async () => {
      await registerAndVerify("wrongpw@example.com");
      for (const [email, password] of [
        ["wrongpw@example.com", "Wrong!Passw0rd"],
        ["nobody@example.com", PASSWORD],
      ]) {
        const { res } = await signIn(email!, password);
        expect(res.status).toBe(401);
        expect(text(await res.text())).toContain(
          "Invalid email or password. Please check your credentials and try again.",
        );
      }
    });

    it("sends an unconfirmed address to verify-email", async () => {
      await register(newSession(), "pending@example.com", "Pending Person");
      const { s, res } = await signIn("pending@example.com");
      expect(location(res)).toBe("/client/verify-email");
      expect(text(await (await s.get("/client/verify-email")).text())).toContain("pending@example.com");
    });

    it("signs a client in to the dashboard with a secure session cookie", async () => {
      await registerAndVerify("client@example.com", "Client One");
      const { s, res } = await signIn("client@example.com");
      expect(location(res)).toBe("/client/dashboard");
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith("portico.session_token="));
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      // Without remember-me: a browser-session cookie.
      expect(cookie).not.toMatch(/Max-Age|Expires/i);
      const dashboard = await s.get("/client/dashboard");
      expect(dashboard.status).toBe(200);
      // A new client (no order yet) is welcomed, not welcomed back (issue 37).
      expect(text(await dashboard.text())).toContain("Welcome, Client One!");
    });

    it("keeps the session for 30 days with remember-me", async () => {
      await registerAndVerify("remember@example.com");
      const { res } = await signIn("remember@example.com", PASSWORD, true);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith("portico.session_token="));
      expect(cookie).toMatch(/Max-Age=2592000/i);
    });

    it("renews a remembered session's cookie as the session is extended, not a browser-session one", async () => {
      await registerAndVerify("renew@example.com");
      const { s } = await signIn("renew@example.com", PASSWORD, true);
      const sessionCookie = (res: Response) =>
        res.headers.getSetCookie().find((c) => c.startsWith("portico.session_token="));
      // A fresh session is not extended: nothing to set.
      const fresh = await s.get("/client/dashboard");
      expect(fresh.status).toBe(200);
      expect(sessionCookie(fresh)).toBeUndefined();
      // Last extended two days ago: this request extends it, and the browser's cookie with it.
      const expiresAt = sql`now() + interval '28 days'`;
      await db().execute(
        sql`update session set expires_at = ${expiresAt} where user_id = (select id from "user" where email = 'renew@example.com')`,
      );
      const used = await s.get("/client/dashboard");
      expect(used.status).toBe(200);
      expect(sessionCookie(used)).toMatch(/Max-Age=2592000/i);
      expect(sessionCookie(used)).toMatch(/HttpOnly/i);
      expect(used.headers.get("cache-control")).toBe("private, no-store");
      const [row] = await queryRows<{ days: number }>(
        db(),
        sql`select extract(epoch from expires_at - now()) / 86400 as days from session
            where user_id = (select id from "user" where email = 'renew@example.com')`,
      );
      expect(Number(row!.days)).toBeGreaterThan(29.9);
      // The same on a data request (client-side navigation).
      await db().execute(
        sql`update session set expires_at = ${expiresAt} where user_id = (select id from "user" where email = 'renew@example.com')`,
      );
      const data = await s.get("/client/orders.data");
      expect(sessionCookie(data)).toMatch(/Max-Age=2592000/i);

      // Without remember-me the session is never extended, and its cookie never set again.
      await registerAndVerify("norenew@example.com");
      const once = await signIn("norenew@example.com");
      await db().execute(
        sql`update session set expires_at = now() + interval '2 hours' where user_id = (select id from "user" where email = 'norenew@example.com')`,
      );
      const plain = await once.s.get("/client/dashboard");
      expect(plain.status).toBe(200);
      expect(sessionCookie(plain)).toBeUndefined();

      // A session that ended elsewhere: its dead cookie is cleared.
      await db().execute(
        sql`delete from session where user_id = (select id from "user" where email = 'renew@example.com')`,
      );
      const ended = await s.get("/client/dashboard");
      expect(location(ended)).toMatch(/^\/client\/login/);
      expect(sessionCookie(ended)).toMatch(/Max-Age=0/i);
    });

    it("sends an admin to the back office", async () => {
      await registerAndVerify("owner@example.com", "The Owner");
      await db().execute(sql`update "user" set role = 'admin' where email = 'owner@example.com'`);
      const { s, res } = await signIn("owner@example.com");
      expect(location(res)).toBe("/admin/dashboard");
      expect((await s.get("/admin/dashboard")).status).toBe(200);
    });

    it("ensures the client record at sign-in, with the email's local part when no name is known", async () => {
      await registerAndVerify("noname@example.com", "Temp");
      await db().execute(sql`delete from clients where email = 'noname@example.com'`);
      await db().execute(sql`update "user" set name = '' where email = 'noname@example.com'`);
      await signIn("noname@example.com");
      const [client] = await queryRows<{ name: string; email_verified: boolean }>(
        db(),
        sql`select name, email_verified from clients where email = 'noname@example.com'`,
      );
      expect(client).toEqual({ name: "noname", email_verified: true });
    });
  });

  describe("access gate", () => {
    it("sends a visitor without a session to the login page", async () => {
      for (const path of ["/client/dashboard", "/client/profile", "/client/orders"]) {
        const res = await newSession().get(path);
        expect(location(res)).toBe(`/client/login?redirectTo=${encodeURIComponent(path)}`);
      }
    });

    it("sends a signed-in user whose address is not confirmed to verify-email", async () => {
      await registerAndVerify("unconfirmed@example.com");
      const { s } = await signIn("unconfirmed@example.com");
      await db().execute(
        sql`update "user" set email_verified = false where email = 'unconfirmed@example.com'`,
      );
      const res = await s.get("/client/dashboard");
      expect(location(res)).toBe("/client/verify-email");
      expect(text(await (await s.get("/client/verify-email")).text())).toContain("unconfirmed@example.com");
    });

    it("creates a missing client record for a confirmed user", async () => {
      await registerAndVerify("norecord@example.com", "No Record");
      const { s } = await signIn("norecord@example.com");
      await db().execute(sql`delete from clients where email = 'norecord@example.com'`);
      expect((await s.get("/client/dashboard")).status).toBe(200);
      const rows = await queryRows(db(), sql`select id from clients where email = 'norecord@example.com'`);
      expect(rows).toHaveLength(1);
    });

    it("keeps clients and visitors out of the back office (404: it does not even say it exists)", async () => {
      await registerAndVerify("notadmin@example.com");
      const { s } = await signIn("notadmin@example.com");
      expect((await s.get("/admin/dashboard")).status).toBe(404);
      expect((await newSession().get("/admin/dashboard")).status).toBe(404);
    });

    it("signs out on the server: the old cookie no longer works", async () => {
      await registerAndVerify("signout@example.com");
      const { s } = await signIn("signout@example.com");
      const stolen = s.cookieHeader;
      expect(location(await s.post("/client/sign-out", {}))).toBe("/");
      const replay = await fetch(`${server.url}/client/dashboard`, {
        redirect: "manual",
        headers: { cookie: stolen },
      });
      expect(location(replay)).toMatch(/^\/client\/login/);
    });
  });

  describe("profile", () => {
    it("saves name, phone and company for the signed-in client only", async () => {
      await registerAndVerify("alice@example.com", "Alice");
      await registerAndVerify("bob@example.com", "Bob");
      const alice = (await signIn("alice@example.com")).s;
      const bob = (await signIn("bob@example.com")).s;

      const saved = await alice.post("/client/profile", {
        intent: "profile",
        name: "Alice A.",
        phone: "+1 555 0100",
        company: "Acme",
      });
      expect(text(await saved.text())).toContain("Profile updated successfully!");
      // A forged email field is ignored: the email cannot be changed.
      await bob.post("/client/profile", {
        intent: "profile",
        name: "Bob B.",
        phone: "",
        company: "",
        email: "alice@example.com",
      });

      const rows = await queryRows<{
        email: string;
        name: string;
        phone: string | null;
        company: string | null;
      }>(
        db(),
        sql`select email, name, phone, company from clients where email in ('alice@example.com', 'bob@example.com') order by email`,
      );
      expect(rows).toEqual([
        { email: "alice@example.com", name: "Alice A.", phone: "+1 555 0100", company: "Acme" },
        { email: "bob@example.com", name: "Bob B.", phone: null, company: null },
      ]);
      const bobPage = text(await (await bob.get("/client/profile")).text());
      expect(bobPage).not.toContain("Acme");
      expect(bobPage).not.toContain("+1 555 0100");
      expect(text(await (await alice.get("/client/profile")).text())).toContain("Acme");
    });

    it("saves a phone number as people write it, extension included, and refuses one with words in it", async () => {
      await registerAndVerify("carol@example.com", "Carol");
      const carol = (await signIn("carol@example.com")).s;
      const phoneOfCarol = async () =>
        (
          await queryRows<{ phone: string | null }>(
            db(),
            sql`select phone from clients where email = 'carol@example.com'`,
          )
        )[0]!.phone;

      for (const phone of ["+44 (0)20 7946 0958", "555 0100 ext 12"]) {
        const saved = await carol.post("/client/profile", {
          intent: "profile",
          name: "Carol",
          phone,
          company: "",
        });
        expect(saved.status, phone).toBe(200);
        expect(text(await saved.text())).toContain("Profile updated successfully!");
        expect(await phoneOfCarol()).toBe(phone);
      }

      const refused = await carol.post("/client/profile", {
        intent: "profile",
        name: "Carol",
        phone: "call me after 5",
        company: "",
      });
      expect(refused.status).toBe(400);
      expect(text(await refused.text())).toContain("Please enter a valid phone number");
      expect(await phoneOfCarol()).toBe("555 0100 ext 12");
    });

    it("changes the password only with the current one, under the same rules", async () => {
      await registerAndVerify("changer@example.com");
      const { s } = await signIn("changer@example.com");
      const { s: other } = await signIn("changer@example.com");
      const wrong = await s.post("/client/profile", {
        intent: "password",
        currentPassword: "Not!ThePassw0rd",
        newPassword: "N3w!Password!x",
        confirmPassword: "N3w!Password!x",
      });
      expect(text(await wrong.text())).toContain("Current password is incorrect.");
      const mismatch = await s.post("/client/profile", {
        intent: "password",
        currentPassword: PASSWORD,
        newPassword: "N3w!Password!x",
        confirmPassword: "different",
      });
      expect(text(await mismatch.text())).toContain("New passwords do not match");
      const weak = await s.post("/client/profile", {
        intent: "password",
        currentPassword: PASSWORD,
        newPassword: "alllowercase1!",
        confirmPassword: "alllowercase1!",
      });
      expect(text(await weak.text())).toContain("Password must contain at least one uppercase letter");
      const ok = await s.post("/client/profile", {
        intent: "password",
        currentPassword: PASSWORD,
        newPassword: "N3w!Password!x",
        confirmPassword: "N3w!Password!x",
      });
      expect(text(await ok.text())).toContain("Password updated successfully!");
      // This session goes on; every other one has ended.
      expect((await s.get("/client/profile")).status).toBe(200);
      expect(location(await other.get("/client/dashboard"))).toMatch(/^\/client\/login/);
      expect((await signIn("changer@example.com")).res.status).toBe(401);
      expect(location((await signIn("changer@example.com", "N3w!Password!x")).res)).toBe("/client/dashboard");
    });
  });

  describe("dashboard Need Help", () => {
    it("stores the message as from the portal, for signed-in clients only", async () => {
      await registerAndVerify("needhelp@example.com", "Needs Help");
      const { s } = await signIn("needhelp@example.com");
      const fields = {
        name: "Needs Help",
        email: "needhelp@example.com",
        subject: "Portal question",
        message: "Hello from the portal",
      };
      expect(location(await newSession().post("/client/dashboard", fields))).toMatch(/^\/client\/login/);
      const res = await s.post("/client/dashboard", fields);
      expect(res.status).toBe(200);
      expect(text(await res.text())).toContain("Message Received!");
      const rows = await queryRows<{ source: string }>(
        db(),
        sql`select source from contact_messages where email = 'needhelp@example.com'`,
      );
      expect(rows).toEqual([{ source: "portal" }]);
    });
  });

  describe("forgot and reset password", () => {
    it("answers the same whether or not the address exists", async () => {
      await registerAndVerify("forgetful@example.com");
      const a = text(
        await (await newSession().post("/client/forgot-password", { email: "forgetful@example.com" })).text(),
      );
      const b = text(
        await (await newSession().post("/client/forgot-password", { email: "ghost@example.com" })).text(),
      );
      const message = "If an account exists for that email, we have sent a link to reset your password.";
      expect(a).toContain(message);
      expect(b).toContain(message);
      // The email is queued after the answer (so the answer's timing says nothing): wait for it.
      await eventually(async () => (await emailsTo("forgetful@example.com", "password-reset")).length === 1);
      expect(await emailsTo("ghost@example.com", "password-reset")).toHaveLength(0);
    });

    it("resets with a single-use link and ends every session", async () => {
      await registerAndVerify("resetme@example.com");
      const { s: oldSession } = await signIn("resetme@example.com");
      await newSession().post("/client/forgot-password", { email: "resetme@example.com" });
      const link = await eventually(() => linkIn("resetme@example.com", "password-reset"));
      const landing = location(await newSession().get(link));
      expect(landing).toMatch(/^\/client\/reset-password\?token=/);
      const token = new URL(landing, "http://x").searchParams.get("token")!;

      const weak = await newSession().post("/client/reset-password", {
        token,
        password: "short",
        confirmPassword: "short",
      });
      expect(text(await weak.text())).toContain("Password must be at least 8 characters long");

      const done = await newSession().post("/client/reset-password", {
        token,
        password: "Brand!New2Pass",
        confirmPassword: "Brand!New2Pass",
      });
      expect(location(done)).toBe("/client/login?reset=true");
      expect(location(await oldSession.get("/client/dashboard"))).toMatch(/^\/client\/login/);
      expect(location((await signIn("resetme@example.com", "Brand!New2Pass")).res)).toBe("/client/dashboard");

      const again = await newSession().post("/client/reset-password", {
        token,
        password: "Other!New3Pass",
        confirmPassword: "Other!New3Pass",
      });
      expect(text(await again.text())).toContain("This password reset link is invalid or has expired.");
    });
  });

  describe("rate limits", () => {
    it("stop repeated sign-in attempts from one address", async () => {
      const s = new Session(server.url, "192.0.2.77");
      let last: Response | null = null;
      for (let i = 0; i < 11; i++)
        // A different account each time: the per-account slow-down (accounts-hardening.test.ts) stays out.
        last = await s.post("/client/login", { email: `victim${i}@example.com`, password: "Guess!1234" });
      expect(last!.status).toBe(429);
      expect(text(await last!.text())).toContain(
        "Too many attempts. Please wait a few minutes and try again.",
      );
      // Another address is not affected.
      expect(
        (
          await new Session(server.url, "192.0.2.78").post("/client/login", {
            email: "victim@example.com",
            password: "Guess!1234",
          })
        ).status,
      ).toBe(401);
    });

    it("stop repeated registrations, resends and reset requests from one address", async () => {
      const s = new Session(server.url, "192.0.2.90");
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await register(s, `burst${i}@example.com`)).status);
      expect(statuses.slice(0, 5).every((x) => x === 302)).toBe(true);
      expect(statuses[5]).toBe(429);

      const r = new Session(server.url, "192.0.2.91");
      const answers: string[] = [];
      const resetStatuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await r.post("/client/forgot-password", { email: `x${i}@example.com` });
        resetStatuses.push(res.status);
        answers.push(await res.text());
      }
      expect(text(answers[5]!)).toContain("Too many attempts.");
      // An error, said as one: status 429 and the error alert, not the green confirmation.
      expect(resetStatuses.slice(0, 5).every((x) => x === 200)).toBe(true);
      expect(resetStatuses[5]).toBe(429);
      expect(answers[5]).toMatch(/role="alert"[^>]*>Too many attempts\./);
      expect(answers[5]).not.toContain("If an account exists for that email");
    });
  });
});
