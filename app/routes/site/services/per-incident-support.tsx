import { ServiceOverview } from "~/features/catalogue/ServiceOverview";
import { loadServicePage } from "~/features/catalogue/service-page.server";
import { pageTitle } from "~/features/site/meta";
import type { Route } from "./+types/per-incident-support";

export const loader = ({ context }: Route.LoaderArgs) => loadServicePage(context, "per-incident-support");

export const meta: Route.MetaFunction = ({ data, matches }) => [
  { title: pageTitle(data?.service.name ?? "Service", matches) },
  { name: "description", content: data?.service.description ?? "" },
];

export default function ServicePage({ loaderData }: Route.ComponentProps) {
  return <ServiceOverview service={loaderData.service} />;
}
