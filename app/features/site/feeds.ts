/** sitemap.xml, robots.txt and the blog's RSS feed, from the configured public URL. Pure. */
import type { BlogTeaser } from "~/features/blog/blog";
import { SERVICE_PAGES } from "~/features/catalogue/catalogue";
import { absoluteUrl } from "./seo";

export function escapeXml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** Every public, indexable page. */
export function sitemapPaths(posts: readonly BlogTeaser[]): string[] {
  return [
    "/",
    ...SERVICE_PAGES.map((p) => `/services/${p.slug}`),
    "/plans",
    "/check",
    ...posts.map((p) => `/blog/${p.slug}`),
    "/privacy",
    "/terms",
  ];
}

export function sitemapXml(publicUrl: string, posts: readonly BlogTeaser[]): string {
  const urls = sitemapPaths(posts)
    .map((p) => `  <url><loc>${escapeXml(absoluteUrl(publicUrl, p))}</loc></url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

export function robotsTxt(publicUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    // The sign-in and sign-up pages are public and may be found; the rest of the portal is personal.
    "Allow: /client/login",
    "Allow: /client/register",
    "Disallow: /client/",
    "Disallow: /admin/",
    "Disallow: /invoice/",
    "Disallow: /api/",
    "Disallow: /thank-you",
    "Disallow: /payment-success",
    "",
    `Sitemap: ${absoluteUrl(publicUrl, "/sitemap.xml")}`,
    "",
  ].join("\n");
}

export function rssXml(publicUrl: string, siteName: string, posts: readonly BlogTeaser[]): string {
  const items = posts
    .map((p) => {
      const link = escapeXml(absoluteUrl(publicUrl, `/blog/${p.slug}`));
      return [
        "    <item>",
        `      <title>${escapeXml(p.title)}</title>`,
        `      <link>${link}</link>`,
        `      <guid isPermaLink="true">${link}</guid>`,
        `      <description>${escapeXml(p.excerpt)}</description>`,
        `      <category>${escapeXml(p.category)}</category>`,
        `      <pubDate>${new Date(`${p.date}T00:00:00Z`).toUTCString()}</pubDate>`,
        "    </item>",
      ].join("\n");
    })
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${escapeXml(`${siteName} Blog`)}</title>
    <link>${escapeXml(absoluteUrl(publicUrl, "/"))}</link>
    <atom:link href="${escapeXml(absoluteUrl(publicUrl, "/rss.xml"))}" rel="self" type="application/rss+xml"/>
    <description>Guides on email migration, email security, SSL, cloud suites, data migration and hosting.</description>
    <language>en</language>
${items}
  </channel>
</rss>
`;
}
