/**
 * The public pages' HTML cache (ADR 0105) through the real HTTP server: a cached page still carries a
 * fresh CSP nonce per response, a request with a session (or any cookie) never gets a cached page, and
 * a catalogue change shows at once — made here through the back office, or in another process (a
 * `catalogue` live event arriving through the database).
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { services } from "~/db/schema";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { createAccount, FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { location, Session } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

const nonceOf = (res: Response) =>
  /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1] ?? "";

describe.each(testDatabases)("public page cache on $name", (database) => {
  let server: TestServer;
  const db = () => server.portico.runtime.database.db;
  /** A visitor without cookies, as a browser on its first visit or a crawler. */
  const visit = (path: string, headers: Record<string, string> = {}) =>
    fetch(new URL(path, server.url), { headers: { "x-forwarded-for": "203.0.113.9", ...headers } });

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
    await server.portico.runtime.live.ready;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("serves a cached page with a fresh nonce in its CSP and in every inline script, per response", async () => {
    const first = await visit("/");
    const firstHtml = await first.text();
    const second = await visit("/");
    const secondHtml = await second.text();
    expect(first.headers.get("x-page-cache")).toBe("miss");
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(second.headers.get("content-type")).toMatch(/^text\/html/);
    const [a, b] = [nonceOf(first), nonceOf(second)];
    expect(a).not.toBe("");
    expect(b).not.toBe(a);
    const scriptNonces = (html: string) =>
      [...html.matchAll(/<script[^>]* nonce="([^"]+)"/g)].map((m) => m[1]);
    expect(scriptNonces(secondHtml).length).toBeGreaterThan(0);
    expect(new Set(scriptNonces(secondHtml))).toEqual(new Set([b]));
    expect(secondHtml).not.toContain(a);
    expect(secondHtml).not.toContain("\u0000");
    // The same page otherwise.
    expect(secondHtml.replaceAll(b, "N")).toBe(firstHtml.replaceAll(a, "N"));
  });

  it("keeps one page per currency, and never caches a query string or an error", async () => {
    await visit("/terms", { "accept-language": "de-DE" });
    const euro = await visit("/terms", { "accept-language": "de-DE" });
    expect(euro.headers.get("x-page-cache")).toBe("hit");
    const pound = await visit("/terms", { "accept-language": "en-GB" });
    expect(pound.headers.get("x-page-cache")).toBe("miss");
    await visit("/terms?x=1");
    expect((await visit("/terms?x=1")).headers.get("x-page-cache")).toBeNull();
    await visit("/blog/no-such-article");
    const missing = await visit("/blog/no-such-article");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-page-cache")).toBeNull();
  });

  it("never serves or stores a cached page for a signed-in request", async () => {
    await createAccount(db(), { email: "cache@example.com", name: "Cache Client" });
    const client = new Session(server.url, "198.51.100.40");
    const res = await client.post("/client/login", {
      email: "cache@example.com",
      password: FIXTURE_PASSWORD,
    });
    expect(location(res)).toBe("/client/dashboard");
    await visit("/");
    expect((await visit("/")).headers.get("x-page-cache")).toBe("hit");
    const signedIn = await client.get("/");
    expect(signedIn.headers.get("x-page-cache")).toBeNull();
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    expect(await signedIn.text()).toContain("Cache Client");
    // And what a signed-in person was shown never reaches a visitor.
    expect(await (await visit("/")).text()).not.toContain("Cache Client");
  });

  it("shows a price changed in the back office at once", async () => {
    await createAccount(db(), { email: "owner@example.com", name: "Owner", role: "admin" });
    const admin = new Session(server.url, "198.51.100.41");
    const signIn = await admin.post("/client/login", {
      email: "owner@example.com",
      password: FIXTURE_PASSWORD,
    });
    expect(location(signIn)).toBe("/admin/dashboard");
    const [s] = await db().select().from(services).where(eq(services.slug, "ssl-setup"));
    await visit("/services/ssl-setup");
    expect((await visit("/services/ssl-setup")).headers.get("x-page-cache")).toBe("hit");

    const fields: Record<string, string> = { name: s!.name, description: s!.description };
    for (const p of s!.packageOrder) {
      fields[`price.${p}`] = String(s!.pricing[p]);
      fields[`features.${p}`] = (s!.features[p] ?? []).join("\n");
    }
    const first = s!.packageOrder[0]!;
    const saved = await admin.post(`/admin/catalogue/${s!.id}`, { ...fields, [`price.${first}`]: "4321.5" });
    expect(saved.status).toBe(200);
    const page = await visit("/services/ssl-setup");
    expect(page.headers.get("x-page-cache")).toBe("miss");
    expect(await page.text()).toContain('data-price-usd="4321.5"');
  });

  it("empties the cache when another process announces a catalogue change through the database", async () => {
    await visit("/services/email-migration");
    expect((await visit("/services/email-migration")).headers.get("x-page-cache")).toBe("hit");
    // What another process's back office does: change the row, publish the event.
    await db().execute(
      sql`update services set pricing = jsonb_set(pricing, '{basic}', '777') where slug = 'email-migration'`,
    );
    await publishLiveEvent(db(), { userId: null, kind: "catalogue", status: "updated" });
    await expect
      .poll(async () =>
        (await (await visit("/services/email-migration")).text()).includes('data-price-usd="777"'),
      )
      .toBe(true);
  });
});
