import { describe, expect, it } from "vitest";
import { seo } from "./seo";

const matches = [
  { id: "root", data: { publicUrl: "https://portico.example/", business: { name: "Portico IT Services" } } },
];

describe("seo", () => {
  it("builds title, description, canonical and sharing tags from the public URL", () => {
    const tags = seo({
      title: "SSL Setup",
      description: "Certificates.",
      path: "/services/ssl-setup",
      matches,
    });
    expect(tags).toContainEqual({ title: "SSL Setup | Portico IT Services" });
    expect(tags).toContainEqual({ name: "description", content: "Certificates." });
    expect(tags).toContainEqual({
      tagName: "link",
      rel: "canonical",
      href: "https://portico.example/services/ssl-setup",
    });
    expect(tags).toContainEqual({
      property: "og:url",
      content: "https://portico.example/services/ssl-setup",
    });
    expect(tags).toContainEqual({ property: "og:type", content: "website" });
    expect(tags).toContainEqual({ name: "twitter:card", content: "summary_large_image" });
    expect(tags.some((t) => "name" in t && t.name === "robots")).toBe(false);
  });
  it("marks articles and noindex pages", () => {
    const tags = seo({
      title: "T",
      description: "D",
      path: "/thank-you",
      matches,
      type: "article",
      noindex: true,
      image: "/blog/a.svg",
    });
    expect(tags).toContainEqual({ property: "og:type", content: "article" });
    expect(tags).toContainEqual({ name: "robots", content: "noindex" });
    expect(tags).toContainEqual({ property: "og:image", content: "https://portico.example/blog/a.svg" });
  });
});
