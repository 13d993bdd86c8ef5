import type { ReactNode } from "react";
import { useLocation, useMatches } from "react-router";
import { framesThePage, MainLandmark } from "~/ui/main-landmark";
import { isChromeHidden } from "./chrome";
import { useOptionalRootData } from "./root-data";

/**
 * The public site's header, footer and chat show on this page: not in the portal, the back office…, nor
 * on a page a layout frames for this request (the portal's frame around a signed-in client's purchase).
 */
export function useShowChrome(): boolean {
  const data = useOptionalRootData();
  const { pathname } = useLocation();
  const framed = useMatches().some(framesThePage);
  return Boolean(data) && !isChromeHidden(pathname) && !framed;
}

/** The main landmark of a page without a frame of its own: below the fixed site header if it shows. */
export function PageMain({ children }: { children: ReactNode }) {
  return <MainLandmark className={useShowChrome() ? "pt-16" : undefined}>{children}</MainLandmark>;
}
