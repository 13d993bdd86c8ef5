import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/thank-you";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Thank You", matches) }];

export default function Page() {
  return <PageHeading title="Thank You" />;
}
