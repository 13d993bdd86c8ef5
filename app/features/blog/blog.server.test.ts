import { describe, expect, it } from "vitest";
import { getArticle, listArticles, listTeasers } from "./blog.server";
import { blogSlug } from "./slug";

describe("blog articles", () => {
  it("has the six articles with full front matter and real bodies", () => {
    const articles = listArticles();
    expect(articles).toHaveLength(6);
    for (const a of articles) {
      expect(a.slug).toBe(blogSlug(a.title));
      const words = a.html
        .replace(/<[^>]+>/g, " ")
        .split(/\s+/)
        .filter(Boolean).length;
      expect(words, a.title).toBeGreaterThan(400);
      expect(a.html).toContain("<h2");
    }
    const topics = articles.map((a) => a.title).join(" | ");
    for (const t of [
      "Email Migration",
      "SPF, DKIM and DMARC",
      "SSL",
      "Google Workspace vs Microsoft 365",
      "Cloud Data Migration",
      "cPanel vs Plesk",
    ]) {
      expect(topics).toContain(t);
    }
  });
  it("lists teasers without bodies, newest first", () => {
    const teasers = listTeasers();
    expect(teasers.every((t) => !("html" in t))).toBe(true);
    const dates = teasers.map((t) => t.date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });
  it("finds an article by slug and nothing for an unknown one", () => {
    const first = listArticles()[0]!;
    expect(getArticle(first.slug)?.title).toBe(first.title);
    expect(getArticle("no-such-post")).toBeNull();
  });
});
