import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation } from "react-router";
import { isChromeHidden } from "~/features/site/chrome";
import { useHydrated } from "~/ui/use-hydrated";

// A separate chunk, fetched only after hydration: the chat costs the first paint nothing.
const ChatWidget = lazy(() => import("./ChatWidget"));

/**
 * True once the browser has had a quiet moment after hydration (at most 2 s later): Mech's chunk is
 * then fetched, parsed and mounted in a task of its own instead of right behind hydration's, where the
 * two made one long task (docs/decisions/0821-fewer-bytes-icon-sprite.md).
 */
function useIdleAfterHydration(): boolean {
  const hydrated = useHydrated();
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (!hydrated || idle) return;
    if (typeof window.requestIdleCallback === "function") {
      const id = window.requestIdleCallback(() => setIdle(true), { timeout: 2_000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(() => setIdle(true), 200);
    return () => window.clearTimeout(id);
  }, [hydrated, idle]);
  return idle;
}

/** Mounts Mech on every page except the portal (/client/…), once the page is interactive and idle. */
export function ChatMount() {
  const { pathname } = useLocation();
  const idle = useIdleAfterHydration();
  if (!idle || isChromeHidden(pathname)) return null;
  return (
    <Suspense fallback={null}>
      <ChatWidget />
    </Suspense>
  );
}
