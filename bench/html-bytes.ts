/**
 * HTML bytes per page (issue 26): what a document weighs uncompressed and gzip, and what those bytes
 * are: inline SVG (icons and the icon sprite), the inline stylesheet, the inline scripts (React
 * Router's context and the streamed loader data) and class attributes. Deterministic, so it can be
 * asserted as well as printed: `measureHtmlBytes` is what a bench or a test calls.
 *
 * Run alone (`npx tsx bench/html-bytes.ts`, after `npm run build`) it starts the built app on an
 * in-memory PGlite, seeds a client with 60 paid orders (50 rows a page) and an admin, and prints a table.
 */
import { gzipSync } from "node:zlib";

export interface HtmlBytes {
  page: string;
  status: number;
  bytes: number;
  gzip: number;
  /** `<svg>…</svg>` elements (outermost), the icon sprite included. */
  svg: number;
  svgCount: number;
  /** The inline stylesheet (`<style>` elements). */
  css: number;
  /** Inline `<script>` elements: React Router's context, streamed loader data, the hydration loader. */
  scripts: number;
  /** `class="…"` attributes. */
  classes: number;
  /** Everything else: the page's own markup and text. */
  rest: number;
}

const sum = (html: string, pattern: RegExp) => {
  let total = 0;
  let count = 0;
  for (const match of html.matchAll(pattern)) {
    total += match[0].length;
    count++;
  }
  return { total, count };
};

/** Where a document's bytes go (lengths in UTF-16 code units ≈ bytes for this mostly-ASCII markup). */
export function breakDown(html: string): Omit<HtmlBytes, "page" | "status"> {
  const bytes = Buffer.byteLength(html);
  const gzip = gzipSync(html).length;
  // Outermost <svg> elements: icons are not nested in each other.
  const svg = sum(html, /<svg\b[\s\S]*?<\/svg>/g);
  const css = sum(html, /<style\b[\s\S]*?<\/style>/g).total;
  const scripts = sum(html, /<script\b[^>]*>[\s\S]*?<\/script>/g).total;
  const outside = html.replace(
    /<svg\b[\s\S]*?<\/svg>|<style\b[\s\S]*?<\/style>|<script\b[\s\S]*?<\/script>/g,
    "",
  );
  const classes = sum(outside, /\sclass="[^"]*"/g).total;
  return {
    bytes,
    gzip,
    svg: svg.total,
    svgCount: svg.count,
    css,
    scripts,
    classes,
    rest: bytes - svg.total - css - scripts - classes,
  };
}

/** Fetches each page (with its own fetch, e.g. a signed-in session's) and breaks its HTML down. */
export async function measureHtmlBytes(
  pages: { page: string; fetch: () => Promise<Response> }[],
): Promise<HtmlBytes[]> {
  const rows: HtmlBytes[] = [];
  for (const { page, fetch } of pages) {
    const res = await fetch();
    const html = await res.text();
    rows.push({ page, status: res.status, ...breakDown(html) });
  }
  return rows;
}

async function main() {
  const { SERVICE_PAGES } = await import("~/features/catalogue/catalogue");
  const { createAccount, createOrder, FIXTURE_PASSWORD } = await import("../tests/support/admin-fixtures");
  const { Session } = await import("../tests/support/browserless");
  const { startTestServer } = await import("../tests/support/server");
  const server = await startTestServer(
    { name: "pglite", create: async () => ({ env: { PGLITE_DIR: "memory://" }, drop: async () => {} }) },
    { TRUST_PROXY: "loopback" },
  );
  try {
    const { db } = server.portico.runtime.database;
    const clientId = await createAccount(db, { email: "bytes.client@example.com", name: "Bytes Client" });
    for (let i = 0; i < 60; i++)
      await createOrder(db, clientId, { status: i % 5 === 0 ? "pending" : "paid" });
    await createAccount(db, { email: "bytes.owner@example.com", name: "Owner", role: "admin" });
    const client = new Session(server.url, "198.18.41.1");
    const admin = new Session(server.url, "198.18.41.2");
    for (const [session, email] of [
      [client, "bytes.client@example.com"],
      [admin, "bytes.owner@example.com"],
    ] as const) {
      const res = await session.post("/client/login", { email, password: FIXTURE_PASSWORD });
      if (res.status !== 302) throw new Error(`sign-in of ${email}: ${res.status}`);
    }
    const sitemap = await (await server.get("/sitemap.xml")).text();
    const article = sitemap.match(/\/blog\/[a-z0-9-]+/)?.[0] ?? "/blog/missing";
    const anonymous = (path: string) => ({ page: path, fetch: () => server.get(path) });
    const as = (session: InstanceType<typeof Session>, label: string) => (path: string) => ({
      page: `${path} (${label})`,
      fetch: () => session.get(path),
    });
    const pages = [
      anonymous("/"),
      as(client, "client")("/"),
      ...SERVICE_PAGES.map((p) => anonymous(`/services/${p.slug}`)),
      anonymous("/blog"),
      anonymous(article),
      ...[
        "/client/dashboard",
        "/client/orders",
        "/client/invoices",
        "/client/services",
        "/client/quotes",
      ].map(as(client, "60 orders")),
      ...["/admin/dashboard", "/admin/orders", "/admin/invoices", "/admin/clients", "/admin/catalogue"].map(
        as(admin, "admin"),
      ),
    ];
    const rows = await measureHtmlBytes(pages);
    console.table(rows);
    // HTML_BYTES_DUMP=dir: keep each document, to look into.
    const dump = process.env.HTML_BYTES_DUMP;
    if (dump) {
      const { mkdirSync, writeFileSync } = await import("node:fs");
      mkdirSync(dump, { recursive: true });
      for (const { page, fetch } of pages) {
        const name = page.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "home";
        writeFileSync(`${dump}/${name}.html`, await (await fetch()).text());
      }
    }
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
