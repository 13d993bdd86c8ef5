/**
 * The cached answers (ADR 0105, ADR 0800) through the real HTTP server: a cached page carries no nonce
 * and a CSP that allows exactly its inline scripts by their hashes, in every content coding; the
 * exchange rates are served ready-made too; a request with a session (or any cookie) never gets a
 * cached page; and a catalogue change shows at once, made here through the back office or in another
 * process (a `catalogue` live event arriving through the database).
 */
import { request } from "node:http";
import zlib from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { services } from "~/db/schema";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { createAccount, FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { location, Session } from "../support/browserless";
import { scriptPolicy } from "../support/csp";
import { testDatabases } from "../support/databases";
import { loadBuild, startTestServer, type TestServer } from "../support/server";

/** One raw answer: status, headers and the body bytes as sent (not decoded). */
function raw(url: string, headers: Record<string, string>, method = "GET") {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe.each(testDatabases)("public page cache on $name", (database) => {
  let server: TestServer;
  const db = () => server.portico.runtime.database.db;
  /** A visitor without cookies, as a browser on its first visit or a crawler. */
  const visit = (path: string, headers: Record<string, string> = {}) =>
    fetch(new URL(path, server.url), { headers: { "x-forwarded-for": "203.0.113.9", ...headers } });
  /** Visits until the answer comes from the cache (it is stored once compressed, just after the render). */
  const visitCached = async (path: string, headers: Record<string, string> = {}) => {
    await expect
      .poll(async () => (await visit(path, headers)).headers.get("x-page-cache"), { timeout: 15_000 })
      .toBe("hit");
    return visit(path, headers);
  };

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
    await server.portico.runtime.live.ready;
    // The rates in memory, as after any first visitor: answers are cached only while they are fresh.
    await visit("/api/exchange-rates");
  });
  afterAll(async () => {
    await server?.close();
  });

  it("serves a cached page without a nonce, its inline scripts allowed by their hashes alone", async () => {
    const first = await visit("/");
    const firstHtml = await first.text();
    expect(first.headers.get("x-page-cache")).toBe("miss");
    const rendered = scriptPolicy(first.headers.get("content-security-policy") ?? "", firstHtml);
    expect(rendered.nonce).toBeTruthy();
    expect(rendered.blocked).toEqual([]);

    const second = await visitCached("/");
    const secondHtml = await second.text();
    expect(second.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = second.headers.get("content-security-policy") ?? "";
    const cached = scriptPolicy(csp, secondHtml);
    expect(cached.nonce).toBeNull();
    expect(secondHtml).not.toContain(rendered.nonce!);
    expect(secondHtml).not.toMatch(/ nonce="/);
    expect(cached.inline.length).toBeGreaterThan(0);
    expect(cached.blocked).toEqual([]);
    // Exactly the page's scripts: no hash for anything else, nothing broader.
    expect(cached.hashes).toHaveLength(new Set(cached.inline.map((s) => s.text)).size);
    expect(csp).not.toMatch(
      /unsafe-inline'[^;]*;style-src |script-src[^;]*(unsafe|strict-dynamic|\*|https?:)/,
    );
    // The same page otherwise, with the same security headers.
    expect(secondHtml).toBe(firstHtml.replaceAll(` nonce="${rendered.nonce}"`, ""));
    for (const name of [
      "x-frame-options",
      "permissions-policy",
      "referrer-policy",
      "cross-origin-opener-policy",
    ]) {
      expect(second.headers.get(name), name).toBe(first.headers.get(name));
    }
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
  });

  it("sends a cached page as brotli, gzip or plain as asked, with a validator and HEAD", async () => {
    const page = await (await visitCached("/services/email-migration")).text();
    const url = `${server.url}/services/email-migration`;
    const br = await raw(url, { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(page);
    const gz = await raw(url, { "accept-encoding": "gzip;q=1, br;q=0" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).toString()).toBe(page);
    const plain = await raw(url, {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(page);
    expect(Number(plain.headers["content-length"])).toBe(plain.body.length);
    for (const answer of [br, gz, plain]) expect(answer.headers.vary).toBe("Accept-Encoding");

    const etag = String(br.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await raw(url, { "if-none-match": etag, "accept-encoding": "gzip" });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect((await raw(url, { "if-none-match": '"other"' })).status).toBe(200);
    const head = await raw(url, { "accept-encoding": "gzip" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(gz.headers["content-length"]);
  });

  it("never stores the empty answer to a HEAD: a GET after it gets the whole body", async () => {
    for (const path of ["/api/exchange-rates", "/blog/no-such-article", "/terms"]) {
      const head = await raw(`${server.url}${path}`, {}, "HEAD");
      expect(head.body.length, path).toBe(0);
    }
    const rates = await visit("/api/exchange-rates");
    expect(Object.keys((await rates.json()).rates).length).toBeGreaterThan(5);
    await expect
      .poll(async () => (await visit("/api/exchange-rates")).headers.get("x-page-cache"), { timeout: 15_000 })
      .toBe("hit");
    expect(Object.keys((await (await visit("/api/exchange-rates")).json()).rates).length).toBeGreaterThan(5);
    const terms = await visitCached("/terms");
    expect(await terms.text()).toContain("Terms");
    // And a HEAD of a cached answer says the GET's length.
    const head = await raw(
      `${server.url}/terms`,
      { "accept-encoding": "gzip", "x-forwarded-for": "203.0.113.9" },
      "HEAD",
    );
    expect(head.headers["x-page-cache"]).toBe("hit");
    expect(Number(head.headers["content-length"])).toBeGreaterThan(1000);
  });

  it("serves the exchange rates ready-made, with or without cookies, and refuses a bad Host first", async () => {
    const fresh = await (await visit("/api/exchange-rates")).json();
    await expect
      .poll(async () => (await visit("/api/exchange-rates")).headers.get("x-page-cache"), { timeout: 15_000 })
      .toBe("hit");
    const hit = await visit("/api/exchange-rates", { cookie: "portico.session_token=whatever" });
    expect(hit.headers.get("x-page-cache")).toBe("hit");
    expect(hit.headers.get("content-type")).toMatch(/^application\/json/);
    expect(hit.headers.get("cache-control")).toBe("public, max-age=300");
    // An API answer carries a file's few headers, not a page's.
    expect(hit.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(hit.headers.get("x-content-type-options")).toBe("nosniff");
    expect(hit.headers.get("permissions-policy")).toBeNull();
    expect(await hit.json()).toEqual(fresh);
    // A Host no URL can carry still gets the guards' 400, never a cached answer.
    const bad = await raw(`${server.url}/api/exchange-rates`, { host: "a b" });
    expect(bad.status).toBe(400);
    const badPage = await raw(`${server.url}/`, { host: "[::1" });
    expect(badPage.status).toBe(400);
  });

  it("keeps one page per currency, and never caches a query string or an error", async () => {
    const euro = await visitCached("/terms", { "accept-language": "de-DE" });
    expect(await euro.text()).toContain("Germany");
    const pound = await visit("/terms", { "accept-language": "en-GB" });
    expect(pound.headers.get("x-page-cache")).toBe("miss");
    await visit("/terms?x=1");
    expect((await visit("/terms?x=1")).headers.get("x-page-cache")).toBeNull();
    await visit("/blog/no-such-article");
    const missing = await visit("/blog/no-such-article");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-page-cache")).toBeNull();
  });

  it("keys cached pages by the visitor's address as Express reads it behind the trusted proxy", async () => {
    const german = await visitCached("/privacy", { "x-forwarded-for": "85.214.132.117" });
    expect(await german.text()).toContain("Germany");
    const british = await visitCached("/privacy", { "x-forwarded-for": "81.2.69.142" });
    const britishPage = await british.text();
    expect(britishPage).toContain("United Kingdom");
    expect(britishPage).not.toContain("Germany");
    // The client's own hop counts, not an address it claims further left.
    const claimed = await visitCached("/privacy", { "x-forwarded-for": "85.214.132.117, 81.2.69.142" });
    expect(await claimed.text()).toContain("United Kingdom");
  });

  it("never serves or stores a cached page for a signed-in request", async () => {
    await createAccount(db(), { email: "cache@example.com", name: "Cache Client" });
    const client = new Session(server.url, "198.51.100.40");
    const res = await client.post("/client/login", {
      email: "cache@example.com",
      password: FIXTURE_PASSWORD,
    });
    expect(location(res)).toBe("/client/dashboard");
    await visitCached("/");
    const signedIn = await client.get("/");
    expect(signedIn.headers.get("x-page-cache")).toBeNull();
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    expect(await signedIn.text()).toContain("Cache Client");
    // And what a signed-in person was shown never reaches a visitor.
    expect(await (await visit("/")).text()).not.toContain("Cache Client");
  });

  it("never stores what a signed-in client was shown: public pages rendered for them, or portal pages", async () => {
    await createAccount(db(), { email: "cache2@example.com", name: "Stored Never" });
    const client = new Session(server.url, "198.51.100.41");
    const res = await client.post("/client/login", {
      email: "cache2@example.com",
      password: FIXTURE_PASSWORD,
    });
    expect(location(res)).toBe("/client/dashboard");
    // A page nobody has asked for yet, rendered first (and again) for the signed-in client, then a portal
    // page: none is even considered for the cache (storeIfCacheable marks what it stores "miss").
    for (const path of ["/services/acronis-setup", "/services/acronis-setup", "/client/dashboard"]) {
      const page = await client.get(path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get("x-page-cache"), path).toBeNull();
      expect(page.headers.get("cache-control"), path).toBe("private, no-store");
      expect(await page.text(), path).toContain("Stored Never");
    }
    // The first visitor after them gets a page rendered for a visitor, which is the one stored.
    const first = await visit("/services/acronis-setup");
    expect(first.headers.get("x-page-cache")).toBe("miss");
    expect(await first.text()).not.toContain("Stored Never");
    expect(await (await visitCached("/services/acronis-setup")).text()).not.toContain("Stored Never");
    // A portal page is never served from the cache, with or without a session.
    const anonymous = await visit("/client/dashboard");
    expect(anonymous.headers.get("x-page-cache")).toBeNull();
    expect(await anonymous.text()).not.toContain("Stored Never");
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
    await visitCached("/services/ssl-setup");

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

  it("empties the cache when a starting process seeds a missing service back", async () => {
    const page = await visitCached("/services/per-incident-support");
    expect(page.status).toBe(200);
    // The row gone (an owner's manual delete): the running process still serves its cached page.
    await db().execute(sql`delete from services where slug = 'per-incident-support'`);
    expect((await visit("/services/per-incident-support")).headers.get("x-page-cache")).toBe("hit");
    // Another process starting on this database seeds it back, and announces it.
    const build = await loadBuild();
    expect(await build.seedDatabase(db())).toEqual({ servicesAdded: 1 });
    await expect
      .poll(async () => (await visit("/services/per-incident-support")).headers.get("x-page-cache"), {
        timeout: 15_000,
      })
      .toBe("miss");
  });

  it("empties the cache when another process announces a catalogue change through the database", async () => {
    await visitCached("/services/email-migration");
    // What another process's back office does: change the row, publish the event.
    await db().execute(
      sql`update services set pricing = jsonb_set(pricing, '{basic}', '777') where slug = 'email-migration'`,
    );
    await publishLiveEvent(db(), { userId: null, kind: "catalogue", status: "updated" });
    await expect
      .poll(
        async () =>
          (await (await visit("/services/email-migration")).text()).includes('data-price-usd="777"'),
        { timeout: 15_000 },
      )
      .toBe(true);
  });
});
