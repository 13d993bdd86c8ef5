import { redirect } from "react-router";
import { requireAdmin } from "~/features/admin/route-helpers.server";
import type { Route } from "./+types/index";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  throw redirect("/admin/dashboard");
}

/** Never rendered (the loader always redirects or 404s); present so a 404 shows the site's 404 page. */
export default function AdminIndex() {
  return null;
}
