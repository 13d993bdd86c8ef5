/**
 * Per-page SEO tags: a unique title, description, canonical URL and Open Graph/Twitter tags, all
 * built from the configured public URL (the root loader's `publicUrl`), never from the request.
 */
import type { MetaDescriptor } from "react-router";
import type { BusinessIdentity } from "~/features/business/business";
import { rootData } from "./root-data";

type Matches = ReadonlyArray<{ id: string; data?: unknown } | undefined>;

interface RootMeta {
  business?: BusinessIdentity;
  publicUrl?: string;
}

export function rootMeta(matches: Matches): RootMeta {
  const root = rootData(matches);
  return root ? { business: root.business, publicUrl: root.publicUrl } : {};
}

export function absoluteUrl(publicUrl: string, path: string): string {
  return `${publicUrl.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
}

export interface SeoInput {
  /** The page's own title; the business name is appended. */
  title: string;
  description: string;
  /** The canonical path, e.g. "/services/ssl-setup". */
  path: string;
  matches: Matches;
  type?: "website" | "article";
  /** A local image path for link previews. */
  image?: string;
  /** Pages such as thank-you should not be indexed. */
  noindex?: boolean;
}

export function seo({
  title,
  description,
  path,
  matches,
  type = "website",
  image,
  noindex,
}: SeoInput): MetaDescriptor[] {
  const { business, publicUrl = "" } = rootMeta(matches);
  const siteName = business?.name ?? "Portico";
  const fullTitle = title ? `${title} | ${siteName}` : siteName;
  const url = absoluteUrl(publicUrl, path);
  const imageUrl = absoluteUrl(publicUrl, image ?? "/og-image.svg");
  return [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    ...(noindex ? [{ name: "robots", content: "noindex" }] : []),
    { property: "og:site_name", content: siteName },
    { property: "og:type", content: type },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: imageUrl },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: fullTitle },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: imageUrl },
  ];
}
