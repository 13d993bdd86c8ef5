/**
 * The production headers and cookies behind an https proxy (issue 15, "Headers and cookies"), scored
 * with the HTTP Observatory's published rules (tests/support/observatory.ts): A+ required.
 */
import { request } from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../support/databases";
import { observatoryScore } from "../support/observatory";
import { startTestServer, type TestServer } from "../support/server";

const SITE = "https://portico.test";
const PASSWORD = "Str0ng!Passw0rd";

describe.each(testDatabases)("production headers over https on $name", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database, {
      NODE_ENV: "production",
      PUBLIC_URL: SITE,
      TRUST_PROXY: "loopback",
      AUTH_SECRET: "headers-test-secret-headers-test-secret",
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  /**
   * A request as a TLS proxy forwards it: the public Host, the scheme and the client address. Through
   * node:http, since fetch does not let a caller set Host.
   */
  const viaHttps = (
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ) =>
    new Promise<Response>((resolve, reject) => {
      const req = request(new URL(path, server.url), {
        method: init.method ?? "GET",
        headers: {
          host: "portico.test",
          "x-forwarded-proto": "https",
          "x-forwarded-for": "198.51.100.7",
          ...init.headers,
        },
      });
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const v of Array.isArray(value) ? value : [value ?? ""]) headers.append(name, v);
          }
          const status = res.statusCode ?? 0;
          resolve(
            new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), {
              status,
              headers,
            }),
          );
        });
      });
      req.on("error", reject);
      req.end(init.body);
    });

  it("sends plain-http visitors to the https address (301 for reads, 308 for posts); health stays on http", async () => {
    const page = await server.get("/services/ssl-setup?x=1", { headers: { "x-forwarded-proto": "http" } });
    expect(page.status).toBe(301);
    expect(page.headers.get("location")).toBe(`${SITE}/services/ssl-setup?x=1`);
    const post = await server.get("/client/login", {
      method: "POST",
      headers: { "x-forwarded-proto": "http", "content-type": "application/x-www-form-urlencoded" },
      body: "email=a%40b.example&password=x",
    });
    expect(post.status).toBe(308);
    expect((await server.get("/healthz")).status).toBe(200);
  });

  it("sends the security headers the site needs, and no more than it uses", async () => {
    const res = await viaHttps("/");
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    for (const directive of [
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "default-src 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    // A rendered page allows its inline scripts by its nonce, a cached one by their hashes (ADR 0800).
    expect(csp).toMatch(/script-src 'self'( 'nonce-[A-Za-z0-9+/=]{20,}'| 'sha256-[A-Za-z0-9+/=]{44}')+;/);
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    const permissions = res.headers.get("permissions-policy") ?? "";
    for (const feature of ["camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"]) {
      expect(permissions).toContain(feature);
    }
    expect(res.headers.get("x-powered-by")).toBeNull();
    // A page served from the cache (ADR 0800) has the same headers, and plain http is still redirected.
    await expect
      .poll(async () => (await viaHttps("/")).headers.get("x-page-cache"), { timeout: 15_000 })
      .toBe("hit");
    const cached = await viaHttps("/");
    for (const name of [
      "strict-transport-security",
      "x-content-type-options",
      "referrer-policy",
      "permissions-policy",
    ]) {
      expect(cached.headers.get(name), name).toBe(res.headers.get(name));
    }
    const overHttp = await server.get("/", { headers: { "x-forwarded-proto": "http" } });
    expect(overHttp.status).toBe(301);
    expect(overHttp.headers.get("location")).toBe(`${SITE}/`);
  });

  it("styles pages from the site's own stylesheet file, with no inline style element (ADR 0821)", async () => {
    for (const page of ["/", "/client/login"]) {
      const res = await viaHttps(page);
      const csp = res.headers.get("content-security-policy") ?? "";
      const allowed = /style-src ([^;]+)/.exec(csp)?.[1]?.split(" ") ?? [];
      expect(allowed, page).toContain("'self'");
      expect(allowed, page).not.toContain("'unsafe-inline'");
      const html = await res.text();
      expect(html, page).not.toMatch(/<style\b/);
      expect(html, page).toMatch(/<link rel="stylesheet" href="\/assets\/[\w-]+\.css"/);
    }
  });

  it("scores A+ on the HTTP Observatory's rules, for a page and for a sign-in that sets cookies", async () => {
    const overHttp = await server.get("/", { headers: { "x-forwarded-proto": "http" } });
    const home = await viaHttps("/");
    const result = observatoryScore({
      origin: SITE,
      overHttp: { status: overHttp.status, location: overHttp.headers.get("location") },
      headers: home.headers,
      html: await home.text(),
    });
    expect(result.tests.redirection!.result).toBe("redirection-to-https");
    expect(result.tests["strict-transport-security"]!.modifier).toBe(0);
    expect(result.grade, JSON.stringify(result.tests, null, 2)).toBe("A+");

    // A signed-in response: its cookies count too.
    const email = "headers@example.com";
    const register = await viaHttps("/client/register", {
      method: "POST",
      headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        name: "Header Test",
        email,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      }).toString(),
    });
    expect(register.status, await register.clone().text()).toBe(302);
    const pending = register.headers
      .getSetCookie()
      .find((c) => c.startsWith("__Host-portico_pending_verification="));
    expect(pending).toMatch(/; Secure/i);
    expect(pending).toMatch(/; Path=\//i);
    await server.portico.runtime.database.db.execute(
      sql`update "user" set email_verified = true where email = ${email}`,
    );
    const login = await viaHttps("/client/login", {
      method: "POST",
      headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password: PASSWORD }).toString(),
    });
    expect(login.status).toBe(302);
    const session = login.headers.getSetCookie().find((c) => c.startsWith("__Host-portico.session_token="));
    expect(session, login.headers.getSetCookie().join("\n")).toBeTruthy();
    expect(session).toMatch(/; Secure/i);
    expect(session).toMatch(/; HttpOnly/i);
    expect(session).toMatch(/; SameSite=Lax/i);
    expect(session).toMatch(/; Path=\//i);
    expect(session).not.toMatch(/; Domain=/i);
    for (const cookie of login.headers.getSetCookie()) expect(cookie).toMatch(/^__Host-/);

    const withCookies = observatoryScore({
      origin: SITE,
      overHttp: { status: overHttp.status, location: overHttp.headers.get("location") },
      headers: login.headers,
      html: "",
    });
    expect(withCookies.tests.cookies!.result).toBe("cookies-secure-with-httponly-sessions-and-samesite");
    expect(withCookies.grade, JSON.stringify(withCookies.tests, null, 2)).toBe("A+");

    // The __Host- session cookie signs the client in.
    const cookieHeader = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const dashboard = await viaHttps("/client/dashboard", { headers: { cookie: cookieHeader } });
    expect(dashboard.status).toBe(200);
  });
});
