import type { MetaDescriptor } from "react-router";
import type { ServiceSlug } from "~/features/catalogue/catalogue";
import { seo } from "~/features/site/seo";

type Matches = ReadonlyArray<{ id: string; data?: unknown } | undefined>;

/** SEO tags of a service page, from its name and its own description (prices already filled in). */
export function serviceMeta(
  slug: ServiceSlug,
  name: string,
  description: string,
  matches: Matches,
): MetaDescriptor[] {
  return seo({ title: name, description, path: `/services/${slug}`, matches });
}
