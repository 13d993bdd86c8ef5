/** Registers, verifies and signs in a client through the real HTTP endpoints, for money-side tests. */
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { type Database, queryRows } from "~/db/client.server";
import { location, Session } from "./browserless";

export const PASSWORD = "Str0ng!Passw0rd";

let counter = 0;

export async function signedInClient(
  baseUrl: string,
  db: Database,
  name = "Ada Lovelace",
  /** The address to register with; a fresh one by default. */
  address?: string,
): Promise<{ session: Session; email: string; id: string }> {
  const n = ++counter;
  const email = address ?? `client${n}.${Date.now()}@example.com`;
  const ip = `198.18.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  const s = new Session(baseUrl, ip);
  const res = await s.post("/client/register", {
    name,
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  expect(location(res)).toBe("/client/verify-email");
  const [mail] = await queryRows<{ text: string }>(
    db,
    sql`select text from outbox_emails where to_address = ${email} and kind = 'account-verification' order by created_at desc limit 1`,
  );
  const url = mail!.text.match(/https?:\/\/\S+/g)!.find((u) => u.includes("/api/auth/"))!;
  const parsed = new URL(url);
  await s.get(`${parsed.pathname}${parsed.search}`);
  const session = new Session(baseUrl, ip);
  const login = await session.post("/client/login", { email, password: PASSWORD });
  expect(login.status).toBe(302);
  // The first portal page creates the client record.
  await session.get("/client/dashboard");
  const [row] = await queryRows<{ id: string }>(db, sql`select id from clients where email = ${email}`);
  return { session, email, id: row!.id };
}

/** The hidden one-time token of a purchase page. */
export function checkoutTokenIn(html: string): string {
  const token = html.match(/name="checkoutToken" value="([^"]+)"/)?.[1];
  if (!token) throw new Error("no checkout token on the purchase page");
  return token;
}

/** Buys the email migration (basic, 20 mailboxes, USD) through the purchase page: one order and its invoice. */
export async function buyEmailMigration(session: Session): Promise<void> {
  const page = await session.get("/client/purchase/email-migration");
  const res = await session.post("/client/purchase/email-migration", {
    checkoutToken: checkoutTokenIn(await page.text()),
    package: "basic",
    quantity: "20",
    currency: "USD",
  });
  expect(res.status).toBe(302);
}
