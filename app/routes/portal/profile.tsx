import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Profile", matches) }];

export default function Page() {
  return <PageHeading title="Profile" />;
}
