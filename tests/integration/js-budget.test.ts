/**
 * JavaScript budgets per page (issue 14), from the production build: every page's whole script graph
 * (what the document loads, and every lazy chunk those scripts can import later: Mech, below-the-fold
 * sections, client validation) stays within 150 KB gzip. Bytes, not time: deterministic.
 * The home page's 120 KB before interaction is in site.test.ts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVICE_PAGES } from "~/features/catalogue/catalogue";
import { createAccount, FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { Session } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { initialScripts, reachableScripts, totalGzip } from "../support/script-graph";
import { startTestServer, type TestServer } from "../support/server";

const PAGE_TOTAL_BUDGET_GZIP = 150 * 1024;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** zod's core names its classes with strings like `$ZodObject`; they survive minification. */
const containsZod = (url: string) =>
  /[`"']\$Zod[A-Z]/.test(readFileSync(path.join("build/client", url), "utf8"));

describe.each(testDatabases)("JavaScript per page on $name", (database) => {
  let server: TestServer;
  let client: Session;
  beforeAll(async () => {
    server = await startTestServer(database);
    const email = `budget.${Date.now()}@example.com`;
    await createAccount(server.portico.runtime.database.db, { email, name: "Budget Client" });
    client = new Session(server.url, "198.18.40.1");
    const login = await client.post("/client/login", { email, password: FIXTURE_PASSWORD });
    expect(login.status).toBe(302);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function scriptsOf(pathname: string, session?: Session) {
    const res = session ? await session.get(pathname) : await server.get(pathname);
    expect(res.status, pathname).toBe(200);
    const initial = initialScripts(await res.text());
    expect(initial.length, pathname).toBeGreaterThan(2);
    return { initial, all: reachableScripts(initial) };
  }

  it("keeps every public page's whole script graph within 150 KB gzip", async () => {
    const sitemap = await (await server.get("/sitemap.xml")).text();
    const articles = [...sitemap.matchAll(/\/blog\/[a-z0-9-]+/g)].map(([p]) => p);
    expect(articles.length).toBeGreaterThan(0);
    const pages = [
      "/",
      ...SERVICE_PAGES.map((p) => `/services/${p.slug}`),
      ...articles,
      "/plans",
      "/privacy",
      "/terms",
      "/thank-you",
      "/client/login",
      "/client/register",
      "/client/forgot-password",
    ];
    for (const page of pages) {
      const { all } = await scriptsOf(page);
      // The home page's graph includes Mech and its lazy sections.
      if (page === "/") expect(all.some((u) => u.includes("ChatWidget"))).toBe(true);
      const total = totalGzip(all);
      expect(total, `${page}: ${kb(total)} in ${all.length} files`).toBeLessThanOrEqual(
        PAGE_TOTAL_BUDGET_GZIP,
      );
    }
  });

  it("keeps every signed-in portal page's whole script graph within 150 KB gzip", async () => {
    const pages = [
      "/client/dashboard",
      "/client/services",
      "/client/orders",
      "/client/invoices",
      "/client/profile",
      `/client/purchase/${SERVICE_PAGES[0]!.slug}`,
    ];
    for (const page of pages) {
      const { all } = await scriptsOf(page, client);
      const total = totalGzip(all);
      expect(total, `${page}: ${kb(total)} in ${all.length} files`).toBeLessThanOrEqual(
        PAGE_TOTAL_BUDGET_GZIP,
      );
    }
  });

  it("loads the account forms' rules (zod) only when a form is used, never with the page", async () => {
    for (const page of ["/client/login", "/client/register", "/client/forgot-password"]) {
      const { initial, all } = await scriptsOf(page);
      expect(initial.filter(containsZod), page).toEqual([]);
      // The same rules are in the graph, fetched on demand.
      expect(all.some(containsZod), page).toBe(true);
    }
    // Public pages without a form that checks in the browser carry no zod at all.
    for (const page of ["/", "/privacy", `/services/${SERVICE_PAGES[0]!.slug}`]) {
      const { all } = await scriptsOf(page);
      expect(all.filter(containsZod), page).toEqual([]);
    }
  });
});
