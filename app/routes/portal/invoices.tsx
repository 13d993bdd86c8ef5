import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/invoices";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Invoices", matches) }];

export default function Page() {
  return <PageHeading title="Invoices" />;
}
