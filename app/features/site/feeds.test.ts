import { describe, expect, it } from "vitest";
import type { BlogTeaser } from "~/features/blog/blog";
import { robotsTxt, rssXml, sitemapXml } from "./feeds";

const post: BlogTeaser = {
  id: "a-b",
  slug: "a-b",
  title: "A & B <tips>",
  excerpt: "E",
  author: "X",
  date: "2025-01-15",
  readTime: "5 min read",
  category: "C",
  image: "/blog/a.svg",
  gradient: "g",
};

describe("feeds", () => {
  it("lists every public page in the sitemap", () => {
    const xml = sitemapXml("https://s.example", [post]);
    expect(xml).toContain("<loc>https://s.example/</loc>");
    expect(xml).toContain("<loc>https://s.example/services/acronis-setup</loc>");
    expect(xml).toContain("<loc>https://s.example/blog/a-b</loc>");
    expect(xml).toContain("<loc>https://s.example/check</loc>");
    expect(xml).not.toContain("/client/");
  });
  it("points robots at the sitemap and keeps crawlers out of the portal", () => {
    const txt = robotsTxt("https://s.example");
    expect(txt).toContain("Sitemap: https://s.example/sitemap.xml");
    expect(txt).toContain("Disallow: /client/");
    // The public sign-in and sign-up pages stay indexable (longest matching rule wins).
    expect(txt).toContain("Allow: /client/login\n");
    expect(txt).toContain("Allow: /client/register\n");
  });
  it("escapes RSS items", () => {
    const xml = rssXml("https://s.example", "S", [post]);
    expect(xml).toContain("<title>A &amp; B &lt;tips&gt;</title>");
    expect(xml).toContain("<pubDate>Wed, 15 Jan 2025 00:00:00 GMT</pubDate>");
  });
});
