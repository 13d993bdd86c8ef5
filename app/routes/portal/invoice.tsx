import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/invoice";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Invoice", matches) }];

export default function Page() {
  return <PageHeading title="Invoice" />;
}
