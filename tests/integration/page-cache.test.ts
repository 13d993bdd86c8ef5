/**
 * The cached answers (ADR 0105, ADR 0800) through the real HTTP server: a cached page carries no nonce
 * and a CSP that allows exactly its inline scripts by their hashes, in every content coding; the
 * exchange rates are served ready-made too; a signed-in client gets the same shared page as a visitor
 * (ADR 0822: nothing of theirs in it; their pinned currency in the key; who they are from
 * /api/session after load); and a catalogue change shows at once, made here through the back office or in another
 * process (a `catalogue` live event arriving through the database).
 */
import { request } from "node:http";
import zlib from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { services, session as sessionTable, userPreferences } from "~/db/schema";
import { FALLBACK_RATES, SELECTABLE_CURRENCIES } from "~/features/currency/currency";
import { saveChosenCurrencyIfClient } from "~/features/currency/preferences.server";
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

  /** A client signed in from `ip`, as a browser keeps them (cookies). */
  async function signedInClient(email: string, name: string, ip: string) {
    const id = await createAccount(db(), { email, name });
    const session = new Session(server.url, ip);
    const res = await session.post("/client/login", { email, password: FIXTURE_PASSWORD });
    expect(location(res)).toBe("/client/dashboard");
    return { id, session };
  }

  it("serves a signed-in client the visitor's cached page, with nothing of theirs in it (ADR 0822)", async () => {
    // Same address as `visit`: the same location, so the same shared page.
    const { session: client } = await signedInClient("cache@example.com", "Cache Client", "203.0.113.9");
    const visitor = await (await visitCached("/")).text();
    const signedIn = await client.get("/");
    expect(signedIn.headers.get("x-page-cache")).toBe("hit");
    expect(signedIn.headers.get("cache-control") ?? "").not.toMatch(/private|no-store/);
    const page = await signedIn.text();
    expect(page).toBe(visitor);
    expect(page).not.toContain("Cache Client");
    expect(page).not.toContain("cache@example.com");

    // Who they are comes after load, from an answer private to their session.
    const mine = await client.get("/api/session");
    expect(mine.status).toBe(200);
    expect(mine.headers.get("cache-control")).toBe("private, no-store");
    expect(mine.headers.get("x-page-cache")).toBeNull();
    expect(await mine.json()).toMatchObject({
      signedIn: true,
      name: "Cache Client",
      role: "client",
      dashboard: "/client/dashboard",
      currency: { currency: "USD" },
    });
    const anonymous = await visit("/api/session");
    expect(anonymous.headers.get("cache-control")).toBe("private, no-store");
    expect(await anonymous.json()).toMatchObject({ signedIn: false, currency: { currency: "USD" } });
    const forged = await visit("/api/session", { cookie: "portico.session_token=forged.value" });
    expect(await forged.json()).toMatchObject({ signedIn: false });
  });

  it("answers a visitor's /api/session before Express, as the route would", async () => {
    const throughExpress = (res: Response) =>
      server.portico.runtime.queryCounts.has(res.headers.get("x-request-id") ?? "");
    // No session cookie (an unrelated one is fine): signed out for sure, answered before Express.
    const fast = await visit("/api/session", { cookie: "analytics=1", "accept-language": "en-GB" });
    // A session cookie takes the route (here a forged one: signed out all the same).
    const routed = await visit("/api/session", {
      cookie: "portico.session_token=forged.value",
      "accept-language": "en-GB",
    });
    // Express counts a request's queries when its response finishes, which may follow the client's read.
    await expect.poll(() => throughExpress(routed)).toBe(true);
    expect(throughExpress(fast)).toBe(false);
    expect(await fast.json()).toEqual(await routed.json());
    for (const name of [
      "content-type",
      "cache-control",
      "content-security-policy",
      "x-content-type-options",
      "cross-origin-resource-policy",
    ]) {
      expect(fast.headers.get(name), name).toBe(routed.headers.get(name));
    }
    expect(fast.headers.get("cache-control")).toBe("private, no-store");
    expect(fast.headers.get("x-page-cache")).toBeNull();
    // A pinned currency to clear takes the route too, which clears it.
    const pinned = await visit("/api/session", { cookie: "portico.currency=EUR" });
    await expect.poll(() => throughExpress(pinned)).toBe(true);
    expect(pinned.headers.getSetCookie().join()).toMatch(/portico\.currency=;.*Max-Age=0/);
    expect((await pinned.json()).currency.currency).toBe("USD");
  });

  it("answers a session that ended as signed out", async () => {
    const { id, session } = await signedInClient("ended@example.com", "Ended Session", "198.51.100.42");
    expect(await (await session.get("/api/session")).json()).toMatchObject({ signedIn: true });
    // Ended elsewhere (a password reset, the absolute lifetime): the browser still sends the cookie.
    await db().delete(sessionTable).where(eq(sessionTable.userId, id));
    const after = await session.get("/api/session");
    expect(after.status).toBe(200);
    const body = await after.json();
    expect(body).toMatchObject({ signedIn: false });
    expect(JSON.stringify(body)).not.toContain("Ended Session");
  });

  it("never stores what a signed-in client was shown: the shared page is rendered as a visitor's", async () => {
    const { session: client } = await signedInClient("cache2@example.com", "Stored Never", "198.51.100.41");
    // A shared page nobody has asked for yet, asked first by the signed-in client: rendered without their
    // session (the fast path passes on only the pinned-currency cookie), stored, and the same for all.
    const first = await client.get("/services/acronis-setup");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-page-cache")).toBe("miss");
    const firstPage = await first.text();
    expect(firstPage).not.toContain("Stored Never");
    expect(firstPage).not.toContain("cache2@example.com");
    const stored = await (await visitCached("/services/acronis-setup")).text();
    expect(stored).not.toContain("Stored Never");
    // Where a public page is rendered with the session (not a shared path, or a query string), it is
    // private and never considered for the cache; a shared path never shows the session even then.
    for (const path of ["/services/acronis-setup?ref=mail", "/thank-you", "/client/dashboard"]) {
      const page = await client.get(path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get("x-page-cache"), path).toBeNull();
      expect(page.headers.get("cache-control"), path).toBe("private, no-store");
      const html = await page.text();
      if (path.startsWith("/services/")) expect(html, path).not.toContain("Stored Never");
      else expect(html, path).toContain("Stored Never");
    }
    for (const path of ["/thank-you", "/client/dashboard"]) {
      const anonymous = await visit(path);
      expect(anonymous.headers.get("x-page-cache"), path).toBeNull();
      expect(await anonymous.text(), path).not.toContain("Stored Never");
    }
  });

  it("keeps a client's pinned currency in the key: theirs for them, the detected one for others", async () => {
    const ip = "198.51.100.43";
    const euroId = await createAccount(db(), { email: "euro@example.com", name: "Euro Client" });
    expect(await saveChosenCurrencyIfClient(db(), euroId, "EUR")).toBe(true);
    const euro = new Session(server.url, ip);
    const signIn = await euro.post("/client/login", {
      email: "euro@example.com",
      password: FIXTURE_PASSWORD,
    });
    expect(location(signIn)).toBe("/client/dashboard");
    // Signing in pins the saved choice in a cookie the fast path reads without a session lookup.
    expect(euro.cookie("portico.currency")).toBe("EUR");
    const { session: other } = await signedInClient("plain@example.com", "Plain Client", ip);
    expect(other.cookie("portico.currency")).toBeUndefined();
    const at = { "x-forwarded-for": ip };

    const currencies = (html: string) =>
      new Set([...html.matchAll(/data-currency="([A-Z]{3})"/g)].map((m) => m[1]));
    await expect
      .poll(async () => (await euro.get("/services/ssl-setup")).headers.get("x-page-cache"), {
        timeout: 15_000,
      })
      .toBe("hit");
    expect(currencies(await (await euro.get("/services/ssl-setup")).text())).toEqual(new Set(["EUR"]));
    expect(currencies(await (await visitCached("/services/ssl-setup", at)).text())).toEqual(new Set(["USD"]));
    const plain = await other.get("/services/ssl-setup");
    expect(plain.headers.get("x-page-cache")).toBe("hit");
    expect(currencies(await plain.text())).toEqual(new Set(["USD"]));

    // Changed elsewhere (auto-detection back on from another device): the after-load answer is right,
    // unpins, and the next page is the detected one's.
    expect(await saveChosenCurrencyIfClient(db(), euroId, "auto")).toBe(true);
    const answer = await euro.get("/api/session");
    expect((await answer.json()).currency.currency).toBe("USD");
    expect(answer.headers.getSetCookie().join()).toMatch(/portico\.currency=;.*Max-Age=0/);
    expect(euro.cookie("portico.currency")).toBeUndefined();
    expect(currencies(await (await euro.get("/services/ssl-setup")).text())).toEqual(new Set(["USD"]));

    // Saving a currency in the portal pins it at once (the root loader of the page after the save).
    const saved = await other.post("/client/services", { currency: "GBP" });
    expect(saved.status).toBe(200);
    expect(other.cookie("portico.currency")).toBe("GBP");
    expect(currencies(await (await other.get("/services/ssl-setup")).text())).toEqual(new Set(["GBP"]));
    expect((await (await other.get("/api/session")).json()).currency.currency).toBe("GBP");
    // A visitor forging the cookie picks among the shared pages, nothing more; one the rates do not know
    // gets the detected currency's.
    const forged = await visit("/services/ssl-setup", { ...at, cookie: "portico.currency=ZZZ; other=1" });
    expect(forged.headers.get("x-page-cache")).toBe("hit");
    expect(currencies(await forged.text())).toEqual(new Set(["USD"]));
    // Signing out unpins.
    const out = await other.post("/client/sign-out", {});
    expect(location(out)).toBe("/");
    expect(other.cookie("portico.currency")).toBeUndefined();
  });

  it("leaves the save of a newly detected country to the after-load answer, not the shared page", async () => {
    const { id, session } = await signedInClient("detected@example.com", "Detected Client", "85.214.132.117");
    const saved = () => db().select().from(userPreferences).where(eq(userPreferences.userId, id));
    expect(await (await session.get("/privacy")).text()).toContain("Germany");
    expect(await saved()).toEqual([]);
    const answer = await (await session.get("/api/session")).json();
    expect(answer.currency).toMatchObject({ currency: "EUR", location: { country_code: "DE" } });
    await expect.poll(async () => (await saved())[0]?.countryCode, { timeout: 15_000 }).toBe("DE");
  });

  it("answers a Host no address can carry with 400 even when the page is cached, cookies or not", async () => {
    await visitCached("/");
    for (const host of ["127.0.0.1:99999", "127.0.0.1:65536"]) {
      for (const cookie of [undefined, "portico.session_token=whatever"]) {
        const answer = await raw(new URL("/", server.url).href, {
          host,
          ...(cookie ? { cookie } : {}),
          "x-forwarded-for": "203.0.113.9",
        });
        expect(answer.status, `${host} ${cookie ?? "no cookie"}`).toBe(400);
        expect(answer.body.toString()).toBe("Bad request: the Host header is not valid.");
      }
    }
    // The highest port is a port.
    expect((await raw(new URL("/", server.url).href, { host: "127.0.0.1:65535" })).status).toBe(200);
  });

  // Issue 35, item 4: the pinned currency cannot churn the cache; identical misses render once.
  it("takes a pin only for an offered currency: cycling every code does not push a visitor's / out", async () => {
    await visitCached("/");
    // Every code the rates know, and a few hundred more of the same shape (ISO 4217-like).
    const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const codes = [
      ...Object.keys(FALLBACK_RATES),
      ...[...letters].flatMap((a) => [...letters.slice(0, 12)].map((b) => `Q${a}${b}`)),
      "usd",
      "EURO",
      "",
    ];
    expect(new Set(codes).size).toBeGreaterThan(300);
    const misses: string[] = [];
    for (let i = 0; i < codes.length; i += 10) {
      await Promise.all(
        codes.slice(i, i + 10).map(async (code) => {
          const page = await visit("/", { cookie: `portico.currency=${code}` });
          expect(page.status, code).toBe(200);
          await page.arrayBuffer();
          if (page.headers.get("x-page-cache") !== "hit") misses.push(code);
        }),
      );
    }
    // A new cached page only for a pin the selector offers; every other code is the visitor's page.
    for (const code of misses) expect(SELECTABLE_CURRENCIES, code).toContain(code);
    expect((await visit("/")).headers.get("x-page-cache")).toBe("hit");
  });

  it("renders identical misses arriving together once: the others wait and get the stored answer", async () => {
    // A key no other test (nor the other database's run in this process) has stored: the page for a
    // visitor from a region of its own.
    const path = "/blog/cpanel-vs-plesk-choosing-the-right-control-panel-for-your-hosting";
    const region = database.name === "pglite" ? "en-NZ" : "en-ZA";
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => visit(path, { "accept-language": region })),
    );
    const caches = answers.map((a) => a.headers.get("x-page-cache"));
    const bodies = await Promise.all(answers.map((a) => a.text()));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    // One render (the miss); every other request was answered from what it stored.
    expect(caches.filter((c) => c === "miss")).toHaveLength(1);
    expect(caches.filter((c) => c === "hit")).toHaveLength(15);
    const page = bodies[caches.indexOf("miss")]!;
    // The region's currency, in the page's data.
    expect(page).toContain(region === "en-NZ" ? '\\"NZD\\"' : '\\"ZAR\\"');
    // The same page, but for the render's nonce.
    const nonce = / nonce="([^"]+)"/.exec(page)?.[1];
    const shared = page.replaceAll(` nonce="${nonce}"`, "");
    expect(bodies.every((body) => body.replaceAll(` nonce="${nonce}"`, "") === shared)).toBe(true);
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
    expect(await build.seedDatabase(db())).toEqual({ servicesAdded: 1, plansAdded: 0 });
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
