import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation } from "react-router";
import { isChromeHidden } from "~/features/site/chrome";

// A separate chunk, fetched only after hydration: the chat costs the first paint nothing.
const ChatWidget = lazy(() => import("./ChatWidget"));

/** Mounts Mech on every page except the portal (/client/…), once the page is interactive. */
export function ChatMount() {
  const { pathname } = useLocation();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated || isChromeHidden(pathname)) return null;
  return (
    <Suspense fallback={null}>
      <ChatWidget />
    </Suspense>
  );
}
