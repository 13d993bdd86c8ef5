/**
 * The words of the eight service pages (public-site.md, "Service pages"), from content/services/*.md:
 * one file per page, so the owner edits a FAQ without touching code. Vite bundles the files into the
 * server build (as the blog's articles), so the built server needs no content folder at run time. They
 * are read and checked once, when the server starts (`startPortico` calls `serviceContent()`): a bad
 * file stops `npm start`, and the tests, with the file and what is wrong. No price is written in them: `{price.<package>}` and
 * `{addon.<addon>}` are filled from the catalogue by each page's loader (page-content.ts).
 */
import { isServiceSlug, SERVICE_PAGES, type ServiceSlug } from "~/features/catalogue/catalogue";
import { parseServicePage, ServiceContentError } from "./content-file";
import type { ServicePageContent } from "./page-content";

const files = import.meta.glob<string>(["../../../content/services/*.md", "!**/README.md"], {
  query: "?raw",
  import: "default",
  eager: true,
});

/** Every page's copy from its file, keyed by the file name's slug; exactly one file per service page. */
export function loadServiceContent(sources: Record<string, string>): Record<ServiceSlug, ServicePageContent> {
  const content: Partial<Record<ServiceSlug, ServicePageContent>> = {};
  for (const [path, source] of Object.entries(sources)) {
    const file = path.replace(/^(\.\.\/)+/, "");
    const slug = /([^/]+)\.md$/.exec(file)?.[1] ?? "";
    if (!isServiceSlug(slug)) {
      const slugs = SERVICE_PAGES.map((p) => p.slug).join(", ");
      throw new ServiceContentError(`${file}: "${slug}" is not a service page (the pages are ${slugs})`);
    }
    content[slug] = parseServicePage(file, source);
  }
  const missing = SERVICE_PAGES.filter((p) => !content[p.slug]).map((p) => `content/services/${p.slug}.md`);
  if (missing.length) throw new ServiceContentError(`Missing service page copy: ${missing.join(", ")}`);
  return content as Record<ServiceSlug, ServicePageContent>;
}

let content: Record<ServiceSlug, ServicePageContent> | null = null;

/** The eight pages' copy, read from their files on first use. */
export function serviceContent(): Record<ServiceSlug, ServicePageContent> {
  content ??= loadServiceContent(files);
  return content;
}
