import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/payment-success";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Payment Successful", matches) },
];

export default function Page() {
  return <PageHeading title="Payment Successful" />;
}
