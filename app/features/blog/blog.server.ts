/**
 * The six articles, from content/blog/*.md. Vite bundles the files into the server build, so the
 * server needs no content folder at run time and a bad article fails the build's first request
 * loudly rather than a reader's. Markdown is rendered with `marked` on the server only.
 */
import { marked } from "marked";
import { z } from "zod";
import type { BlogArticle, BlogTeaser } from "./blog";
import { parseFrontMatter } from "./front-matter";
import { blogSlug } from "./slug";

const files = import.meta.glob<string>("../../../content/blog/*.md", {
  query: "?raw",
  import: "default",
  eager: true,
});

const FrontMatter = z.object({
  title: z.string().min(1),
  excerpt: z.string().min(1),
  author: z.string().min(1),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  readTime: z.string().min(1),
  category: z.string().min(1),
  image: z.string().startsWith("/blog/"),
  gradient: z.string().min(1),
});

function load(): BlogArticle[] {
  const articles = Object.entries(files).map(([file, source]) => {
    const { attributes, body } = parseFrontMatter(source);
    const parsed = FrontMatter.safeParse(attributes);
    if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
    const slug = blogSlug(parsed.data.title);
    // The articles are our own files, so their HTML is trusted as written.
    const html = marked.parse(body, { async: false, gfm: true });
    return { ...parsed.data, id: slug, slug, html };
  });
  // Newest first.
  return articles.sort((a, b) => b.date.localeCompare(a.date));
}

let cache: BlogArticle[] | null = null;
function articles(): BlogArticle[] {
  cache ??= load();
  return cache;
}

export function listArticles(): BlogArticle[] {
  return articles();
}

export function listTeasers(): BlogTeaser[] {
  return articles().map(({ html: _html, ...teaser }) => teaser);
}

export function getArticle(slug: string): BlogArticle | null {
  return articles().find((a) => a.slug === slug) ?? null;
}
