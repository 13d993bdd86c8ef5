import type { MetaDescriptor } from "react-router";
import type { ServiceSlug } from "~/features/catalogue/catalogue";
import { seo } from "~/features/site/seo";
import { SERVICE_CONTENT } from "./content";

type Matches = ReadonlyArray<{ id: string; data?: unknown } | undefined>;

/** SEO tags of a service page, from its name and its own description. */
export function serviceMeta(slug: ServiceSlug, name: string | undefined, matches: Matches): MetaDescriptor[] {
  return seo({
    title: name ?? "Service",
    description: SERVICE_CONTENT[slug].description,
    path: `/services/${slug}`,
    matches,
  });
}
