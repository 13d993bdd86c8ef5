import { listTeasers } from "~/features/blog/blog.server";
import { rssXml } from "~/features/site/feeds";
import type { Route } from "./+types/rss";

export function loader({ context }: Route.LoaderArgs) {
  const { config } = context.runtime;
  return new Response(rssXml(config.publicUrl, config.business.name, listTeasers()), {
    headers: {
      "Content-Type": "application/rss+xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
