import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/privacy";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Privacy Policy", matches) }];

export default function Page() {
  return <PageHeading title="Privacy Policy" />;
}
