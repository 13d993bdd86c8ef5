/**
 * HTML bytes per page (issue 26, docs/decisions/0821-fewer-bytes-icon-sprite.md), through the real
 * handler of the production build: the home page within 80 KB (signed in or not), the portal's pages
 * for a client with enough orders for 50 rows within their budgets, and every icon drawn once: the
 * pages carry `<use>` references to the cached sprite file, never an icon's path data.
 * Bytes, not time: deterministic.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVICE_PAGES } from "~/features/catalogue/catalogue";
import { ICON_NAMES } from "~/ui/icon-names";
import { breakDown } from "../../bench/html-bytes";
import { createAccount, createOrder, FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { Session } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

const KB = 1024;
/** Issue 26's targets: the home page ≤ 80 KB; a portal page with 50 rows ≤ 40 KB. */
const HOME_BUDGET = 80 * KB;
const PORTAL_BUDGET = 40 * KB;
/**
 * The lists not yet within 40 KB (ADR 0821 "Not yet"): held near what they weigh now (63.3 and 68.2 KB),
 * so they cannot grow back while the rest of the way is done, with room for what changes by the day (a
 * date's day of one or two digits on 50 rows, the fixture's names: about 2 KB). Lower these towards
 * PORTAL_BUDGET, never raise them. Purchase Services (36.6 KB) is within PORTAL_BUDGET now.
 */
const LIST_CEILINGS: Record<string, number> = {
  "/client/orders": 66 * KB,
  "/client/invoices": 71 * KB,
};

/** Every path drawing (`d="…"`) of the sprite: none of it belongs in a page. */
const sprite = readFileSync(new URL("../../app/ui/icons.svg", import.meta.url), "utf8");
const drawings = [...sprite.matchAll(/ d="([^"]+)"/g)].map(([, d]) => d!);

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

describe.each(testDatabases)("HTML bytes per page on $name", (database) => {
  let server: TestServer;
  let client: Session;
  beforeAll(async () => {
    server = await startTestServer(database);
    const { db } = server.portico.runtime.database;
    const email = `html.${Date.now()}@example.com`;
    const id = await createAccount(db, { email, name: "Html Budget Client" });
    // 60 orders: the lists' first page is full (50 rows), and some wait for the client's details.
    for (let i = 0; i < 60; i++) await createOrder(db, id, { status: i % 5 === 0 ? "pending" : "paid" });
    client = new Session(server.url, "198.18.44.1");
    const login = await client.post("/client/login", { email, password: FIXTURE_PASSWORD });
    expect(login.status).toBe(302);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  async function html(pathname: string, session?: Session): Promise<string> {
    const res = session ? await session.get(pathname) : await server.get(pathname);
    expect(res.status, pathname).toBe(200);
    return res.text();
  }

  /** No icon's drawing inline: each appears at most once, and here, since the sprite is a file, never. */
  function expectIconsReferenced(pathname: string, page: string) {
    for (const d of drawings) {
      expect(
        page.split(d).length - 1,
        `${pathname}: an icon's path "${d.slice(0, 24)}…"`,
      ).toBeLessThanOrEqual(1);
    }
    expect(page, pathname).not.toMatch(/<path\b/);
    expect(page, pathname).toMatch(/<use href="\/assets\/icons-[\w-]+\.svg#[a-z0-9-]+">/);
  }

  it("keeps the home page within 80 KB, signed in or not, with each icon drawn once", async () => {
    for (const [who, session] of [
      ["visitor", undefined],
      ["client", client],
    ] as const) {
      const page = await html("/", session);
      const { bytes } = breakDown(page);
      expect(bytes, `/ (${who}): ${kb(bytes)}`).toBeLessThanOrEqual(HOME_BUDGET);
      expectIconsReferenced("/", page);
    }
  });

  it("keeps the portal's pages with 50 rows within their budgets, each icon drawn once", async () => {
    const orders = await html("/client/orders", client);
    expect(orders.match(/<tr data-order-id=/g), "a full first page").toHaveLength(50);
    for (const pathname of [
      "/client/dashboard",
      "/client/orders",
      "/client/invoices",
      "/client/services",
      "/client/quotes",
    ]) {
      const page = await html(pathname, client);
      const { bytes } = breakDown(page);
      const budget = LIST_CEILINGS[pathname] ?? PORTAL_BUDGET;
      expect(bytes, `${pathname}: ${kb(bytes)}`).toBeLessThanOrEqual(budget);
      expectIconsReferenced(pathname, page);
    }
  });

  it("draws the public pages' icons from the sprite too, and serves the sprite as a cached file", async () => {
    const sitemap = await (await server.get("/sitemap.xml")).text();
    const article = sitemap.match(/\/blog\/[a-z0-9-]+/)?.[0];
    expect(article).toBeTruthy();
    let spriteUrl = "";
    for (const pathname of [`/services/${SERVICE_PAGES[0]!.slug}`, article!]) {
      const page = await html(pathname);
      expectIconsReferenced(pathname, page);
      spriteUrl = page.match(/<use href="(\/assets\/icons-[\w-]+\.svg)#/)![1]!;
    }
    const res = await server.get(spriteUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get("cache-control")).toMatch(/immutable/);
    const served = await res.text();
    for (const name of ICON_NAMES) expect(served, name).toContain(`<symbol id="${name}"`);
  });

  it("styles pages with the cached stylesheet file, not an inline copy", async () => {
    const page = await html("/");
    expect(page).not.toMatch(/<style\b/);
    const href = page.match(/<link\b[^>]*rel="stylesheet" href="(\/assets\/[\w-]+\.css)"/)?.[1];
    expect(href).toBeTruthy();
    const res = await server.get(href!);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/immutable/);
  });
});
