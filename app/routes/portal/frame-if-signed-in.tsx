import { Outlet } from "react-router";
import { PortalFrame } from "~/features/portal/PortalFrame";
import { portalFrameIfSignedIn } from "~/features/portal/portal-frame.server";
import { PageMain } from "~/features/site/page-main";
import { FRAMES_WHEN_LOADED } from "~/ui/main-landmark";
import type { Route } from "./+types/frame-if-signed-in";

/**
 * The pages a visitor may see too (purchase, thank-you): in the portal's frame for a signed-in client
 * (issue 37, item 13), on their own for anyone else.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  return portalFrameIfSignedIn(request, context);
}

export const handle = FRAMES_WHEN_LOADED;

export default function FrameIfSignedIn({ loaderData }: Route.ComponentProps) {
  return loaderData ? (
    <PortalFrame data={loaderData}>
      <Outlet />
    </PortalFrame>
  ) : (
    <PageMain>
      <Outlet />
    </PageMain>
  );
}
