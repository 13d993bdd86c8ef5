/** The eight service pages: one module, routed once per page from the catalogue's list (app/routes.ts). */

import { serviceMeta } from "~/features/services/meta";
import { ServicePage } from "~/features/services/ServicePage";
import { loadServicePage } from "~/features/services/service-page.server";
import type { Route } from "./+types/service-page";

export const loader = ({ request, context }: Route.LoaderArgs) => loadServicePage(request, context);

export const meta: Route.MetaFunction = ({ data, matches }) =>
  data ? serviceMeta(data.slug, data.service.name, data.content.description, matches) : [];

export default function Page({ loaderData }: Route.ComponentProps) {
  return <ServicePage service={loaderData.service} content={loaderData.content} plans={loaderData.plans} />;
}
