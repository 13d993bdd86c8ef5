/**
 * What the fault and load suites share: a database that outlives a server process (a PGlite folder on
 * disk, or a fresh PostgreSQL database), a way to read it from the test, and clients that do what
 * visitors do over HTTP only (contact messages, sign-up through the emailed link, checkouts, the
 * provider's signed webhooks).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { SANDBOX_SIGNATURE_HEADER, signSandboxPayload } from "~/features/payments/sandbox.server";
import { location, Session } from "./browserless";
import { eventually, type TestSmtp } from "./smtp";

export const SANDBOX_SECRET = "faults-sandbox-secret-0123456789";
export const AUTH_SECRET = "faults-auth-secret-0123456789-0123456789";
export const PASSWORD = "Str0ng!Passw0rd";

export interface DurableDatabase {
  name: "pglite" | "postgres";
  /** Environment that points a server process at it (the same for every start). */
  env: Record<string, string>;
  /**
   * Runs a query from the test. On PGlite the folder belongs to one process: call it only while no
   * server runs on it.
   */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** PGlite: closes the test's handle on the folder (before a server process opens it again). */
  release(): Promise<void>;
  drop(): Promise<void>;
}

export async function durableDatabase(kind: "pglite" | "postgres"): Promise<DurableDatabase> {
  if (kind === "pglite") {
    const root = mkdtempSync(path.join(tmpdir(), "portico-faults-"));
    const dir = path.join(root, "pglite");
    let open: PGlite | null = null;
    const release = async () => {
      await open?.close();
      open = null;
    };
    return {
      name: "pglite",
      env: { PGLITE_DIR: dir },
      async query<T>(text: string, params: unknown[] = []) {
        open ??= await PGlite.create(dir);
        return (await open.query<T>(text, params)).rows;
      },
      release,
      async drop() {
        await release();
        rmSync(root, { recursive: true, force: true });
      },
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `portico_faults_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  pool.on("error", () => {});
  return {
    name: "postgres",
    env: { DATABASE_URL: url.toString() },
    async query<T>(text: string, params: unknown[] = []) {
      return (await pool.query(text, params)).rows as T[];
    },
    release: async () => {},
    async drop() {
      await pool.end();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The databases of the suites: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set. */
export const faultDatabases: Array<"pglite" | "postgres"> = process.env.TEST_DATABASE_URL
  ? ["pglite", "postgres"]
  : ["pglite"];

/** The environment every suite server gets besides its database. */
export function serverEnv(smtpUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    AUTH_SECRET,
    SANDBOX_WEBHOOK_SECRET: SANDBOX_SECRET,
    SMTP_URL: smtpUrl,
    TRUST_PROXY: "loopback",
    LOG_LEVEL: "info",
    EXCHANGE_RATES_URL: "",
    GEOIP: "false",
    CONTACT_RATE_LIMIT_PER_HOUR: "100000",
    MAIL_POLL_INTERVAL_MS: "250",
    MAIL_RETRY_BASE_MS: "250",
    MAIL_LEASE_MS: "3000",
    ...extra,
  };
}

let counter = 0;
/** A unique documentation-range address per simulated visitor (the servers trust loopback proxies). */
export function nextIp(): string {
  const n = ++counter;
  return `198.51.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
}

export interface ContactSent {
  email: string;
  subject: string;
}

/** POST /api/send-email for one visitor; the subject is unique so the message can be found again. */
export function postContact(
  baseUrl: string,
  tag: string,
): { sent: ContactSent; response: Promise<Response> } {
  const sent = { email: `visitor.${tag}@example.com`, subject: `Question ${tag}` };
  const response = fetch(new URL("/api/send-email", baseUrl), {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": nextIp() },
    body: JSON.stringify({ name: `Visitor ${tag}`, message: "Could you help us move our mail?", ...sent }),
  });
  return { sent, response };
}

/** Registers through the form, follows the verification link from the SMTP catcher, signs in. */
export async function registerClient(
  baseUrl: string,
  smtp: TestSmtp,
  tag: string,
): Promise<{ session: Session; email: string }> {
  const email = `client.${tag}@example.com`;
  const ip = nextIp();
  const s = new Session(baseUrl, ip);
  const reg = await s.post("/client/register", {
    name: `Client ${tag}`,
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  if (reg.status !== 302 || location(reg) !== "/client/verify-email")
    throw new Error(`registration of ${email} answered ${reg.status}`);
  const mail = await eventually(
    () => smtp.received.find((m) => m.text?.includes("/api/auth/") && addressOf(m.to) === email),
    30_000,
  );
  const link = new URL(mail.text!.match(/https?:\/\/\S+/g)!.find((u) => u.includes("/api/auth/"))!);
  await s.get(`${link.pathname}${link.search}`);
  const session = new Session(baseUrl, ip);
  const login = await session.post("/client/login", { email, password: PASSWORD });
  if (login.status !== 302 || location(login) !== "/client/dashboard")
    throw new Error(`sign-in of ${email} answered ${login.status}`);
  const dash = await session.get("/client/dashboard");
  if (dash.status !== 200) throw new Error(`dashboard of ${email} answered ${dash.status}`);
  await dash.text();
  return { session, email };
}

function addressOf(to: unknown): string | undefined {
  const value = Array.isArray(to) ? to[0] : to;
  return (value as { value?: Array<{ address?: string }> } | undefined)?.value?.[0]?.address;
}

/** The order behind a sandbox checkout address (the session token the purchase redirected to). */
export interface CheckoutSession {
  orderId: string;
  amount: number;
  currency: string;
}

export function readCheckout(redirect: string): CheckoutSession {
  const token = new URL(redirect, "http://x").searchParams.get("session") ?? "";
  const body = token.split(".")[0] ?? "";
  return JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as CheckoutSession;
}

export const CHECKOUT_SERVICE = "ssl-setup";

/** The purchase page's one-time token. */
export async function checkoutToken(session: Session): Promise<string> {
  const page = await session.get(`/client/purchase/${CHECKOUT_SERVICE}`);
  const html = await page.text();
  const token = html.match(/name="checkoutToken" value="([^"]+)"/)?.[1];
  if (!token) throw new Error(`no checkout token (status ${page.status})`);
  return token;
}

/** Posts the purchase form with a token (again, for a retry): a 302 to the provider on success. */
export function submitCheckout(session: Session, token: string): Promise<Response> {
  return session.post(`/client/purchase/${CHECKOUT_SERVICE}`, { checkoutToken: token, currency: "USD" });
}

/** The sandbox provider's signed `checkout.completed` webhook for an order (same event id every time). */
export function sendPaidWebhook(baseUrl: string, checkout: CheckoutSession): Promise<Response> {
  const event = {
    id: paidEventId(checkout.orderId),
    type: "checkout.completed",
    data: {
      session_id: `cs_faults_${checkout.orderId}`,
      order_id: checkout.orderId,
      amount: checkout.amount,
      currency: checkout.currency,
    },
  };
  const body = JSON.stringify(event);
  return fetch(new URL("/api/payments/sandbox/webhook", baseUrl), {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(SANDBOX_SECRET, body),
    },
  });
}

export const paidEventId = (orderId: string) => `evt_faults_${orderId}`;

/** Percentile of a sorted list. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Prints a line of figures for the run's log (measurements are reported, never asserted). */
export function report(line: string): void {
  process.stdout.write(`[faults] ${line}\n`);
}

/** Marks the time of each phase, for the report. */
export function phases(): { mark(name: string): void; toString(): string } {
  let last = Date.now();
  const marks: string[] = [];
  return {
    mark(name) {
      const now = Date.now();
      marks.push(`${name} ${((now - last) / 1000).toFixed(1)} s`);
      last = now;
    },
    toString: () => marks.join(", "),
  };
}
