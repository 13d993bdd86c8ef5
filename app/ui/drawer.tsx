import { type ReactNode, useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { Icon } from "~/ui/icon";

/**
 * A layout's sidebar on small screens: a Menu button that opens it as a drawer from the left. A
 * <details>, so it opens without JavaScript too; it closes on every navigation, from its Close button
 * and by a click on the backdrop. Hide it (`className="lg:hidden"`) where the sidebar shows.
 */
export function Drawer({ className, children }: { className?: string; children: ReactNode }) {
  const drawer = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  const close = () => {
    if (drawer.current) drawer.current.open = false;
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes the drawer on every navigation.
  useEffect(close, [pathname]);
  return (
    <details ref={drawer} className={className}>
      <summary
        className="flex cursor-pointer list-none items-center rounded-lg p-2 text-slate-700 hover:bg-slate-100 [&::-webkit-details-marker]:hidden"
        aria-label="Menu"
      >
        <Icon name="menu" className="size-5" />
      </summary>
      <div className="fixed inset-0 z-40 flex">
        <div className="flex w-72 max-w-[85vw] flex-col overflow-y-auto bg-white shadow-xl">
          <div className="flex justify-end px-3 pt-3">
            <button
              type="button"
              className="rounded-lg p-2 text-slate-700 hover:bg-slate-100"
              aria-label="Close menu"
              onClick={close}
            >
              <Icon name="x" className="size-5" />
            </button>
          </div>
          {children}
        </div>
        <button
          type="button"
          tabIndex={-1}
          aria-hidden="true"
          className="flex-1 bg-slate-900/40"
          onClick={close}
        />
      </div>
    </details>
  );
}
