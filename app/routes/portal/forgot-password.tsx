import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Forgot Your Password?", matches) },
];

export default function Page() {
  return <PageHeading title="Forgot Your Password?" />;
}
