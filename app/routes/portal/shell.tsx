import { Outlet, useRouteLoaderData } from "react-router";
import { PortalFrame } from "~/features/portal/PortalFrame";
import { portalFrame } from "~/features/portal/portal-frame.server";
import { OWNS_MAIN_LANDMARK } from "~/ui/main-landmark";
import type { Route } from "./+types/shell";

/** The access gate of every signed-in portal page, enforced on the server (client-portal.md §4). */
export async function loader({ request, context }: Route.LoaderArgs) {
  return portalFrame(request, context);
}

/** The shell's sidebar and header sit outside main: the shell renders the landmark around its pages. */
export const handle = OWNS_MAIN_LANDMARK;

export function usePortalData() {
  const data = useRouteLoaderData<typeof loader>("routes/portal/shell");
  if (!data) throw new Error("usePortalData outside the portal shell");
  return data;
}

export default function PortalShell({ loaderData }: Route.ComponentProps) {
  return (
    <PortalFrame data={loaderData}>
      <Outlet />
    </PortalFrame>
  );
}
