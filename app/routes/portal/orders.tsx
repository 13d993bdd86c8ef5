import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/orders";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("My Orders", matches) }];

export default function Page() {
  return <PageHeading title="My Orders" />;
}
