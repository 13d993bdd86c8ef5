import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/terms";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Terms of Service", matches) }];

export default function Page() {
  return <PageHeading title="Terms of Service" />;
}
