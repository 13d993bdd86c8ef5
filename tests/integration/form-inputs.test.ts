/**
 * Every form input the server renders names its type: an input without one (e.g. `autocomplete="name"`
 * on a bare <input>) is flagged by HTML CodeSniffer, and a browser then guesses what it is. Walks the
 * pages with forms as a visitor, a client and the owner, through the real HTTP server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactMessages, services } from "~/db/schema";
import { createAccount, createOrder, FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { location, Session } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

/** The <input> tags of a page (React escapes `>` inside attribute values, so a tag ends at the first `>`). */
function inputTags(html: string): string[] {
  return html.match(/<input\b[^>]*>/g) ?? [];
}

function untyped(html: string): string[] {
  return inputTags(html).filter((tag) => !/\stype="[^"]+"/i.test(tag));
}

describe.each(testDatabases)("form inputs on $name", (database) => {
  let server: TestServer;
  let ip = 0;
  const newSession = () => new Session(server.url, `198.51.100.${++ip}`);
  const db = () => server.portico.runtime.database.db;
  let visitor: Session;
  let client: Session;
  let admin: Session;
  let adminPages: string[];

  async function signIn(email: string, expected: string) {
    const s = newSession();
    const res = await s.post("/client/login", { email, password: FIXTURE_PASSWORD });
    expect(location(res)).toBe(expected);
    return s;
  }

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
    await createAccount(db(), { email: "owner@example.com", name: "Owner", role: "admin" });
    const clientId = await createAccount(db(), { email: "ada@example.com", name: "Ada Lovelace" });
    const order = await createOrder(db(), clientId);
    const [service] = await db().select().from(services).limit(1);
    const [message] = await db()
      .insert(contactMessages)
      .values({ name: "Vi", email: "vi@example.com", subject: "Hi", message: "Hello there", source: "site" })
      .returning();
    adminPages = [
      "/admin/orders",
      "/admin/invoices",
      `/admin/invoices/${order.invoiceId}`,
      "/admin/messages",
      `/admin/messages/${message!.id}`,
      "/admin/clients",
      `/admin/catalogue/${service!.id}`,
      "/admin/quotes",
      "/admin/quotes/new",
    ];
    visitor = newSession();
    client = await signIn("ada@example.com", "/client/dashboard");
    admin = await signIn("owner@example.com", "/admin/dashboard");
  });
  afterAll(async () => {
    await server?.close();
  });

  async function expectTypedInputs(session: Session, pages: string[]) {
    const found: Record<string, string[]> = {};
    for (const page of pages) {
      const res = await session.get(page);
      expect(res.status, page).toBe(200);
      const html = await res.text();
      expect(inputTags(html).length, `${page} has inputs`).toBeGreaterThan(0);
      const bad = untyped(html);
      if (bad.length > 0) found[page] = bad;
    }
    expect(found).toEqual({});
  }

  it("the public forms: register, login, password reset, contact, purchase", async () => {
    await expectTypedInputs(visitor, [
      "/client/register",
      "/client/login",
      "/client/forgot-password",
      "/client/reset-password?token=abcdefghijklmnop",
      "/",
      "/client/purchase/email-migration",
    ]);
  });

  it("the client's forms: profile, dashboard contact, services, orders, invoices, checkout", async () => {
    await expectTypedInputs(client, [
      "/client/profile",
      "/client/dashboard",
      "/client/services",
      "/client/orders",
      "/client/invoices",
      "/client/purchase/email-migration",
    ]);
  });

  it("the back office's forms", async () => {
    await expectTypedInputs(admin, adminPages);
  });
});
