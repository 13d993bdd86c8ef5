import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Client Login", matches) }];

export default function Page() {
  return <PageHeading title="Client Login" />;
}
