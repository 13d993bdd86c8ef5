import { loadServicePage } from "~/features/catalogue/service-page.server";
import { SERVICE_CONTENT } from "~/features/services/content";
import { serviceMeta } from "~/features/services/meta";
import { ServicePage } from "~/features/services/ServicePage";
import type { Route } from "./+types/data-migration";

export const loader = ({ context }: Route.LoaderArgs) => loadServicePage(context, "data-migration");

export const meta: Route.MetaFunction = ({ data, matches }) =>
  serviceMeta("data-migration", data?.service.name, matches);

export default function Page({ loaderData }: Route.ComponentProps) {
  return <ServicePage service={loaderData.service} content={SERVICE_CONTENT["data-migration"]} />;
}
