import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { scriptPolicy } from "../support/csp";
import { testDatabases } from "../support/databases";
import { loadBuild, startTestServer, type TestServer } from "../support/server";

describe.each(testDatabases)("server on $name", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("reports a reachable database on /healthz", async () => {
    const res = await server.get("/healthz");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ status: "ok", database: "up" });
  });

  it("renders the home page on the server with the seeded services and a strict CSP", async () => {
    const res = await server.get("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain("Email Migration &amp; Setup");
    expect(html).toContain("Starting from");

    const csp = res.headers.get("content-security-policy") ?? "";
    const scriptSrc = csp.split(";").find((d) => d.startsWith("script-src")) ?? "";
    expect(scriptSrc).not.toContain("unsafe-inline");
    // Every inline script the browser would run is allowed by this response's nonce (a render) or by
    // its hash (a cached page, ADR 0800), and by nothing broader.
    const policy = scriptPolicy(csp, html);
    expect(policy.nonce ?? policy.hashes.length).toBeTruthy();
    expect(policy.inline.length).toBeGreaterThan(0);
    expect(policy.blocked).toEqual([]);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("x-powered-by")).toBeNull();
  });

  it("uses a fresh nonce for every rendered page", async () => {
    const nonceOf = async () =>
      /'nonce-([^']+)'/.exec(
        (await server.get("/client/login")).headers.get("content-security-policy")!,
      )?.[1];
    const first = await nonceOf();
    expect(first).toBeTruthy();
    expect(await nonceOf()).not.toBe(first);
  });

  it("gives every response a request id, keeping a well-formed incoming one", async () => {
    const generated = (await server.get("/healthz")).headers.get("x-request-id");
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await server.get("/healthz", { headers: { "x-request-id": "trace-abc-12345" } });
    expect(kept.headers.get("x-request-id")).toBe("trace-abc-12345");
    const replaced = await server.get("/healthz", { headers: { "x-request-id": "<script>" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("compresses pages", async () => {
    const res = await server.get("/", { headers: { "accept-encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
  });

  it("serves hashed assets with immutable caching", async () => {
    const html = await (await server.get("/")).text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const res = await server.get(asset!);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // A file's own few headers, not a page's (ADR 0800).
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect(res.headers.get("permissions-policy")).toBeNull();
    const icon = await server.get("/favicon.svg");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    // Not a file: the page headers, and the guards' answers, as before.
    const missing = await server.get("/assets/no-such-file.js");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect((await server.get("/assets/%E0%A4%A")).status).toBe(400);
  });

  it("renders each of the eight service pages from the catalogue", async () => {
    const pages: Array<[string, string]> = [
      ["email-migration", "Email Migration &amp; Setup"],
      ["email-deliverability", "Domain &amp; Email Security"],
      ["ssl-setup", "SSL &amp; HTTPS Setup"],
      ["cloud-management", "Cloud Suite Management"],
      ["data-migration", "Cloud Data Migration"],
      ["hosting-support", "Hosting &amp; Control Panel Support"],
      ["acronis-setup", "Acronis Account Setup"],
      ["per-incident-support", "Per Incident Support"],
    ];
    for (const [slug, name] of pages) {
      const res = await server.get(`/services/${slug}`);
      expect(res.status, slug).toBe(200);
      expect(await res.text()).toContain(name);
    }
  });

  it("redirects /services/{serviceId} by the service's name, and unknown ids to /", async () => {
    const cases: Array<[string, string, number]> = [
      ["283d2638-5eb0-4899-96fe-7e0c3da52951", "/services/email-migration", 301],
      ["1e578799-73a0-4156-a70a-06dd958ad50f", "/services/email-deliverability", 301],
      [encodeURIComponent("Hosting & Control Panel Support"), "/services/hosting-support", 301],
      [encodeURIComponent("Acronis Account Setup"), "/services/acronis-setup", 301],
      ["cloud-suite-management", "/services/cloud-management", 301],
      ["no-such-service", "/", 302],
      ["00000000-0000-0000-0000-000000000000", "/", 302],
    ];
    for (const [id, target, status] of cases) {
      const res = await server.get(`/services/${id}`);
      expect(res.status, id).toBe(status);
      expect(new URL(res.headers.get("location")!, server.url).pathname, id).toBe(target);
    }
  });

  it("answers unknown paths with a real 404 page", async () => {
    const res = await server.get("/no/such/page");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Page not found");
    expect(html).toContain("Return to Home");
  });

  it("seeded the catalogue with the spec's prices, and seeding again changes nothing", async () => {
    const { db } = server.portico.runtime.database;
    const rows = await queryRows<{ slug: string; pricing: Record<string, number> }>(
      db,
      sql`select slug, pricing from services order by sort_order`,
    );
    expect(rows.map((r) => r.slug)).toHaveLength(8);
    expect(rows.find((r) => r.slug === "hosting-support")?.pricing).toEqual({
      basic: 15,
      standard: 25,
      enterprise: 55,
    });

    // An owner's later price change survives the seeding every start does; a missing service comes back.
    const build = await loadBuild();
    await db.execute(sql`update services set pricing = '{"basic": 30}'::jsonb where slug = 'acronis-setup'`);
    await db.execute(sql`delete from services where slug = 'ssl-setup'`);
    expect(await build.seedDatabase(db)).toEqual({ servicesAdded: 1, plansAdded: 0 });
    expect(await build.seedDatabase(db)).toEqual({ servicesAdded: 0, plansAdded: 0 });
    const after = await queryRows<{ slug: string; pricing: Record<string, number> }>(
      db,
      sql`select slug, pricing from services order by sort_order`,
    );
    expect(after).toHaveLength(8);
    expect(after.find((r) => r.slug === "acronis-setup")?.pricing).toEqual({ basic: 30 });
    expect(after.find((r) => r.slug === "ssl-setup")?.pricing).toEqual({
      free: 7,
      single: 10,
      multi: 25,
      wildcard: 55,
    });
  });
});

describe("same-origin check on state-changing requests", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(testDatabases[0]!);
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (headers: Record<string, string>) => server.get("/no-such-form", { method: "POST", headers });

  it("refuses a POST from another site", async () => {
    expect((await post({ origin: "https://evil.example" })).status).toBe(403);
    expect((await post({ origin: "null" })).status).toBe(403);
    expect((await post({ "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect(await (await post({ origin: "https://evil.example" })).text()).toBe(
      "Cross-origin requests are not allowed.",
    );
  });

  it("lets same-origin and non-browser POSTs through to the app", async () => {
    // The app answers 404/405 for this path: what matters is that the check let it pass.
    expect((await post({ origin: server.url })).status).not.toBe(403);
    expect((await post({ "sec-fetch-site": "same-origin" })).status).not.toBe(403);
    expect((await post({})).status).not.toBe(403);
  });

  it("leaves reads alone", async () => {
    expect((await server.get("/healthz", { headers: { origin: "https://evil.example" } })).status).toBe(200);
  });
});
