import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../support/databases";
import { initialScripts } from "../support/script-graph";
import { startTestServer, type TestServer } from "../support/server";

/** The home page's JS budget before it is interactive (issue 3, "Quality"). */
const HOME_JS_BUDGET_GZIP = 120 * 1024;

describe.each(testDatabases)("public site on $name", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database, { PUBLIC_URL: "https://portico.example" });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("keeps the home page's initial JavaScript within 120 KB gzip, without the chat", async () => {
    const html = await (await server.get("/")).text();
    const scripts = initialScripts(html);
    expect(scripts.length).toBeGreaterThan(2);
    let total = 0;
    for (const url of scripts) {
      total += gzipSync(readFileSync(path.join("build/client", url))).length;
      // Mech is a lazy chunk, fetched after hydration.
      expect(url).not.toMatch(/ChatWidget/);
    }
    expect(total).toBeLessThanOrEqual(HOME_JS_BUDGET_GZIP);
  });

  it("defers the scripts until the document is parsed: no preload or module script in the served document", async () => {
    for (const p of ["/", "/services/ssl-setup", "/client/login"]) {
      const html = await (await server.get(p)).text();
      expect(html, p).not.toMatch(/<link[^>]*rel="modulepreload"/);
      expect(html, p).not.toMatch(/<script[^>]*type="module"/);
      expect(html, p).toContain('addEventListener("DOMContentLoaded",go,{once:true})');
    }
  });

  it("gives each page its own title, description, canonical URL and sharing tags", async () => {
    const seen = new Set<string>();
    for (const p of ["/", "/services/ssl-setup", "/services/hosting-support", "/privacy", "/terms"]) {
      const html = await (await server.get(p)).text();
      const title = /<title>([^<]+)<\/title>/.exec(html)?.[1];
      expect(title, p).toBeTruthy();
      expect(seen.has(title!), `duplicate title ${title}`).toBe(false);
      seen.add(title!);
      expect(html).toContain(`<link rel="canonical" href="https://portico.example${p}"/>`);
      expect(html).toMatch(/<meta name="description" content="[^"]{20,}"/);
      expect(html).toContain(`<meta property="og:url" content="https://portico.example${p}"/>`);
      expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    }
  });

  it("embeds JSON-LD for the business and for articles", async () => {
    const html = await (await server.get("/")).text();
    const ld = /<script type="application\/ld\+json">([^<]+)<\/script>/.exec(html);
    expect(JSON.parse(ld![1]!)).toMatchObject({
      "@type": "ProfessionalService",
      email: "support@portico.example",
    });

    const article = await (
      await server.get("/blog/cpanel-vs-plesk-choosing-the-right-control-panel-for-your-hosting")
    ).text();
    const articleLd = /<script type="application\/ld\+json"[^>]*>([^<]+)<\/script>/.exec(article);
    expect(JSON.parse(articleLd![1]!)).toMatchObject({
      "@type": "BlogPosting",
      headline: expect.stringContaining("cPanel vs Plesk"),
    });
  });

  it("answers an unknown article with a real 404", async () => {
    const res = await server.get("/blog/no-such-article");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Blog Post Not Found");
    expect(html).toContain("Return to Home");
  });

  it("serves sitemap.xml, robots.txt and the RSS feed", async () => {
    const sitemap = await server.get("/sitemap.xml");
    expect(sitemap.headers.get("content-type")).toMatch(/^application\/xml/);
    const xml = await sitemap.text();
    // Home, the eight services, the care plans, the free domain check, six articles, privacy and terms.
    expect(xml.match(/<loc>/g)).toHaveLength(1 + 8 + 1 + 1 + 6 + 2);
    expect(xml).toContain("<loc>https://portico.example/services/per-incident-support</loc>");
    expect(xml).toContain("<loc>https://portico.example/plans</loc>");
    expect(xml).toContain("<loc>https://portico.example/check</loc>");

    const robots = await (await server.get("/robots.txt")).text();
    expect(robots).toContain("Sitemap: https://portico.example/sitemap.xml");

    const rss = await server.get("/rss.xml");
    expect(rss.headers.get("content-type")).toMatch(/^application\/rss\+xml/);
    expect((await rss.text()).match(/<item>/g)).toHaveLength(6);
  });
});
