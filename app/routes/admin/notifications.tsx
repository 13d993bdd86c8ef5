import { requireAdmin } from "~/features/admin/route-helpers.server";
import { NotificationsPage } from "~/features/portal/NotificationsPage";
import { notificationsAction, notificationsPage } from "~/features/portal/notifications-page.server";
import { pageTitle } from "~/features/site/meta";
import type { Route } from "./+types/notifications";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Notifications · Back Office", matches) },
];

/** The owner's bell's "See all" (issue 37, item 5): every notification of this admin, paged. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  return notificationsPage(context.runtime.database.db, admin.id, request);
}

/** The owner's bell's and this page's actions, on this admin's own notifications. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  return notificationsAction(context.runtime.database.db, admin.id, request, "/admin/dashboard");
}

export default function AdminNotifications({ loaderData }: Route.ComponentProps) {
  return <NotificationsPage data={loaderData} base="/admin/notifications" />;
}
