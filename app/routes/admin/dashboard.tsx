import { requireAdmin } from "~/features/accounts/session.server";
import { pageTitle } from "~/features/site/meta";
import { PageHeading } from "~/ui/page-heading";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Back Office", matches) }];

/** The owner's back office: the orders issue fills it; the admin gate holds from now on. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireAdmin(request, context);
  return { name: user.name };
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  return <PageHeading title="Back Office">Signed in as {loaderData.name}.</PageHeading>;
}
