import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/services";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Purchase Services", matches) }];

export default function Page() {
  return <PageHeading title="Purchase Services" />;
}
