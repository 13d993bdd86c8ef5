import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/register";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Create Your Account", matches) },
];

export default function Page() {
  return <PageHeading title="Create Your Account" />;
}
