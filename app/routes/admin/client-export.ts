import { redirect } from "react-router";
import { requireAdmin, userIdParam } from "~/features/admin/route-helpers.server";
import { dataExportResponse } from "~/features/privacy/data-export.server";
import { dataExportDeps } from "~/features/privacy/data-export-deps.server";
import type { Route } from "./+types/client-export";

/** Not a page: the client page's "Export client data" form posts here; a GET goes back to that page. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  throw redirect(`/admin/clients/${encodeURIComponent(userIdParam(params.clientId))}`);
}

/**
 * The owner's export of a client's data (issue 25: for a request by email): the client's own export,
 * audited with the admin as actor. 404 for anyone but an admin, and for an account that is not a
 * client's (an admin's, a deleted one).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const clientId = userIdParam(params.clientId);
  return dataExportResponse(dataExportDeps(context), clientId, { id: admin.id, email: admin.email }, "owner");
}
