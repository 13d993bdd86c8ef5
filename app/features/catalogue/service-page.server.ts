import type { AppLoadContext } from "react-router";
import { data } from "react-router";
import type { ServiceSlug } from "./catalogue";
import { getServiceBySlug } from "./catalogue.server";

/** Loader body shared by the eight service pages: the service from the catalogue, or a 404. */
export async function loadServicePage(context: AppLoadContext, slug: ServiceSlug) {
  const service = await getServiceBySlug(context.runtime.database.db, slug);
  if (!service) throw data("Service not found", { status: 404 });
  return { service };
}
