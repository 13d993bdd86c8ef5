import { redirect } from "react-router";
import { servicePagePath } from "~/features/catalogue/catalogue";
import { getService, resolveServiceId } from "~/features/catalogue/catalogue.server";
import type { Route } from "./+types/service-redirect";

/** /services/{serviceId}: resolve the service and redirect to its page by name; unknown goes to /. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.runtime.database.db;
  const id = await resolveServiceId(db, params.serviceId);
  const service = id ? await getService(db, id) : null;
  if (!service) return redirect("/");
  return redirect(servicePagePath(service), 301);
}
