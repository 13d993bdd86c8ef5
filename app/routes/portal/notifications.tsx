import { requireClient } from "~/features/accounts/session.server";
import { NotificationsPage } from "~/features/portal/NotificationsPage";
import { notificationsAction, notificationsPage } from "~/features/portal/notifications-page.server";
import { pageTitle } from "~/features/site/meta";
import type { Route } from "./+types/notifications";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Notifications", matches) }];

/** Not in the spec (issue 37, item 5): the bell's "See all", every notification kept, paged. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  return notificationsPage(context.runtime.database.db, user.id, request);
}

/** The bell's and this page's actions: scoped to the signed-in client's own notifications. */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireClient(request, context, { api: true });
  return notificationsAction(context.runtime.database.db, user.id, request, "/client/dashboard");
}

export default function Notifications({ loaderData }: Route.ComponentProps) {
  return <NotificationsPage data={loaderData} base="/client/notifications" />;
}
