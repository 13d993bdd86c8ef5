import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/verify-email";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Verify Your Email", matches) }];

export default function Page() {
  return <PageHeading title="Verify Your Email" />;
}
