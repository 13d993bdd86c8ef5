import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/purchase";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Purchase Service", matches) }];

export default function Page() {
  return <PageHeading title="Purchase Service" />;
}
