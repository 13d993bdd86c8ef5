import { listTeasers } from "~/features/blog/blog.server";
import { sitemapXml } from "~/features/site/feeds";
import type { Route } from "./+types/sitemap";

export function loader({ context }: Route.LoaderArgs) {
  return new Response(sitemapXml(context.runtime.config.publicUrl, listTeasers()), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
