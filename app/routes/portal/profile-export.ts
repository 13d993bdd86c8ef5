import { redirect } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { dataExportResponse } from "~/features/privacy/data-export.server";
import { dataExportDeps } from "~/features/privacy/data-export-deps.server";
import type { Route } from "./+types/profile-export";

/** Not a page: the form of the profile's Privacy tab posts here; a GET goes back to that tab. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireClient(request, context);
  throw redirect("/client/profile?tab=privacy");
}

/** "Download my data" (issue 25): the signed-in client's own export, rate limited and audited. */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireClient(request, context);
  return dataExportResponse(dataExportDeps(context), user.id, { id: user.id, email: user.email }, "client");
}
