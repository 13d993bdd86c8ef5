import { AdminOrderView } from "~/features/admin/AdminOrderView";
import { getAdminOrderPage, handleOrderPost } from "~/features/admin/admin-order-page.server";
import { idParam, requireAdmin } from "~/features/admin/route-helpers.server";
import type { Viewer } from "~/features/orders/conversation.server";
import { afterSaleDeps } from "~/features/payments/deps.server";
import { pageTitle } from "~/features/site/meta";
import { actionResponse } from "~/ui/form";
import type { Route } from "./+types/order";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Order · Back Office", matches) },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  const viewer: Viewer = { id: admin.id, role: "admin" };
  const page = await getAdminOrderPage(afterSaleDeps(context), viewer, idParam(params.orderId));
  if (!page) throw new Response("Not Found", { status: 404 });
  // Live updates come from the back office's layout (one stream for every page).
  return { page };
}

/** `intent=transition` (the default) moves the order on; `intent=message` replies, with files. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const result = await handleOrderPost({
    request,
    deps: afterSaleDeps(context),
    admin: { id: admin.id, email: admin.email },
    orderId: idParam(params.orderId),
  });
  return actionResponse(result);
}

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  return <AdminOrderView page={loaderData.page} result={actionData} />;
}
