/**
 * The frame of a signed-in area (the client portal, the back office): the sidebar, which is a drawer on
 * phones, a header bar, and the page's own main landmark after them (ARCHITECTURE.md, "Each layout owns
 * its landmarks"). The layout route that renders it exports OWNS_MAIN_LANDMARK as its handle.
 */

import type { ReactNode } from "react";
import { Form, NavLink } from "react-router";
import { Icon, type IconName } from "~/ui/icon";
import { cn } from "./cn";
import { Drawer } from "./drawer";
import { MainLandmark } from "./main-landmark";

export function AppShell({
  sidebarLabel,
  sidebar,
  header,
  headerClassName,
  children,
}: {
  sidebarLabel: string;
  /** Shown beside the page on large screens, in the Menu drawer on small ones. */
  sidebar: ReactNode;
  /** The header bar's content after the Menu button. */
  header: ReactNode;
  headerClassName?: string;
  children: ReactNode;
}) {
  return (
    <div className="min-h-screen bg-slate-50 lg:flex">
      <aside
        aria-label={sidebarLabel}
        className="hidden border-r border-slate-200 bg-white lg:flex lg:min-h-screen lg:w-64 lg:flex-col print:hidden"
      >
        {sidebar}
      </aside>
      <div className="min-w-0 flex-1">
        <header
          className={cn(
            "sticky top-0 z-30 flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-3 lg:px-10 print:hidden",
            headerClassName,
          )}
        >
          <Drawer className="lg:hidden">{sidebar}</Drawer>
          {header}
        </header>
        <MainLandmark>{children}</MainLandmark>
      </div>
    </div>
  );
}

export interface SidebarItem {
  to: string;
  label: string;
  icon: IconName;
  /** After the label (a count). */
  badge?: ReactNode;
}

/** `side-link` (app.css) is the items' shape, written once in the stylesheet instead of on each item. */
const itemClass = (active: boolean) =>
  cn("side-link", active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100");

/** The sidebar's content: the title, the navigation with Sign Out, and who is signed in beneath. */
export function SidebarNav({
  title,
  label,
  items,
  signOutAction,
  footer,
}: {
  title: ReactNode;
  label: string;
  items: readonly SidebarItem[];
  signOutAction: string;
  footer: ReactNode;
}) {
  return (
    <>
      <div className="flex items-center gap-2 px-6 py-5 text-lg font-bold">{title}</div>
      <nav aria-label={label} className="flex-1 px-3">
        <ul className="flex flex-col gap-1">
          {items.map(({ to, label: text, icon, badge }) => (
            <li key={to}>
              {/* NavLink marks the current page with aria-current="page". */}
              <NavLink to={to} className={({ isActive }) => itemClass(isActive)}>
                <Icon name={icon} className="size-4" />
                {text}
                {badge}
              </NavLink>
            </li>
          ))}
          <li>
            <Form method="post" action={signOutAction}>
              <button type="submit" className={itemClass(false)}>
                <Icon name="log-out" className="size-4" />
                Sign Out
              </button>
            </Form>
          </li>
        </ul>
      </nav>
      <div className="border-t border-slate-200 px-6 py-4 text-sm">{footer}</div>
    </>
  );
}
