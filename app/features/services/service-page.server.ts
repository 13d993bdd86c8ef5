/**
 * The loader body of the service pages: which page a request is for (its path), the service from the
 * catalogue, and that page's copy alone with its prices filled from the catalogue.
 */
import { type AppLoadContext, data } from "react-router";
import { isServiceSlug, type ServiceSlug } from "~/features/catalogue/catalogue";
import { publicServiceBySlug } from "~/features/catalogue/catalogue.server";
import { SERVICES_WITH_PLANS } from "~/features/plans/plans";
import { publicPlans } from "~/features/plans/plans.server";
import { serviceContent } from "./content.server";
import { priceCopy } from "./page-content";

/** The page slug of a /services/<slug> path, or null. */
export function serviceSlugOf(pathname: string): ServiceSlug | null {
  const match = /^\/services\/([^/]+)\/?$/.exec(pathname);
  const slug = match?.[1];
  return slug && isServiceSlug(slug) ? slug : null;
}

export async function loadServicePage(request: Request, context: AppLoadContext) {
  const slug = serviceSlugOf(new URL(request.url).pathname);
  const service = slug ? await publicServiceBySlug(context.runtime.database.db, slug) : null;
  if (!slug || !service) throw data("Service not found", { status: 404 });
  // The care plans on the pages of the work a plan covers (ADR 0530); none elsewhere.
  const plans = SERVICES_WITH_PLANS.includes(slug) ? await publicPlans(context.runtime.database.db) : [];
  return { slug, service, plans, content: priceCopy(serviceContent()[slug], service) };
}
