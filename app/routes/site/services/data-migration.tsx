import { ServiceOverview } from "~/features/catalogue/ServiceOverview";
import { loadServicePage } from "~/features/catalogue/service-page.server";
import { pageTitle } from "~/features/site/meta";
import type { Route } from "./+types/data-migration";

export const loader = ({ context }: Route.LoaderArgs) => loadServicePage(context, "data-migration");

export const meta: Route.MetaFunction = ({ data, matches }) => [
  { title: pageTitle(data?.service.name ?? "Service", matches) },
  { name: "description", content: data?.service.description ?? "" },
];

export default function ServicePage({ loaderData }: Route.ComponentProps) {
  return <ServiceOverview service={loaderData.service} />;
}
