import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Back Office", matches) }];

export default function Page() {
  return <PageHeading title="Back Office" />;
}
