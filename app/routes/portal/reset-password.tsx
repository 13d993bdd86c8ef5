import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Choose a New Password", matches) },
];

export default function Page() {
  return <PageHeading title="Choose a New Password" />;
}
