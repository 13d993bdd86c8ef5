import { lazy, Suspense } from "react";
import { useLocation } from "react-router";
import { isChromeHidden } from "~/features/site/chrome";
import { useHydrated } from "~/ui/use-hydrated";

// A separate chunk, fetched only after hydration: the chat costs the first paint nothing.
const ChatWidget = lazy(() => import("./ChatWidget"));

/** Mounts Mech on every page except the portal (/client/…), once the page is interactive. */
export function ChatMount() {
  const { pathname } = useLocation();
  const hydrated = useHydrated();
  if (!hydrated || isChromeHidden(pathname)) return null;
  return (
    <Suspense fallback={null}>
      <ChatWidget />
    </Suspense>
  );
}
