import {
  BarChart3,
  FileText,
  History,
  Inbox,
  LayoutDashboard,
  LogOut,
  Package,
  ShieldCheck,
  Store,
  Users,
} from "lucide-react";
import { Form, NavLink, Outlet } from "react-router";
import { unreadMessageCount } from "~/features/admin/contact-inbox.server";
import { requireAdmin } from "~/features/admin/route-helpers.server";
import { Drawer } from "~/ui/drawer";
import { MainLandmark, OWNS_MAIN_LANDMARK } from "~/ui/main-landmark";
import type { Route } from "./+types/layout";

/** The sidebar sits outside main: the back office frame renders the landmark around its pages. */
export const handle = OWNS_MAIN_LANDMARK;

/** The back office frame. Each child route checks the role itself too (loaders run in parallel). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  const unread = await unreadMessageCount(context.runtime.database.db);
  return { admin: { name: admin.name, email: admin.email }, unread };
}

const NAV = [
  { to: "/admin/dashboard", label: "Dashboard", icon: LayoutDashboard },
  { to: "/admin/orders", label: "Orders", icon: Package },
  { to: "/admin/invoices", label: "Invoices", icon: FileText },
  { to: "/admin/messages", label: "Messages", icon: Inbox },
  { to: "/admin/clients", label: "Clients", icon: Users },
  { to: "/admin/catalogue", label: "Catalogue", icon: Store },
  { to: "/admin/audit", label: "Audit log", icon: History },
  { to: "/admin/two-factor", label: "Two-factor", icon: ShieldCheck },
];

/** The sidebar's content: the title, the navigation and who is signed in. */
function SidebarContent({ unread, admin }: { unread: number; admin: { name: string; email: string } }) {
  return (
    <>
      <div className="flex items-center gap-2 px-6 py-5 text-lg font-bold">
        <BarChart3 aria-hidden="true" className="size-5 text-brand-600" />
        Back Office
      </div>
      <nav aria-label="Back office" className="flex-1 px-3">
        <ul className="flex flex-col gap-1">
          {NAV.map(({ to, label, icon: Icon }) => (
            <li key={to}>
              <NavLink
                to={to}
                className={({ isActive }) =>
                  `flex items-center gap-3 whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium ${
                    isActive ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100"
                  }`
                }
              >
                <Icon aria-hidden="true" className="size-4" />
                {label}
                {to === "/admin/messages" && unread > 0 && (
                  <span className="ml-auto rounded-full bg-brand-600 px-2 text-xs font-semibold text-white">
                    {unread}
                    <span className="sr-only"> unread</span>
                  </span>
                )}
              </NavLink>
            </li>
          ))}
          <li>
            <Form method="post" action="/client/sign-out">
              <button
                type="submit"
                className="flex w-full items-center gap-3 whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100"
              >
                <LogOut aria-hidden="true" className="size-4" />
                Sign Out
              </button>
            </Form>
          </li>
        </ul>
      </nav>
      <div className="border-t border-slate-200 px-6 py-4 text-sm">
        <p className="font-semibold">{admin.name}</p>
        <p className="break-all text-slate-600">{admin.email}</p>
      </div>
    </>
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="min-h-screen bg-slate-50 lg:flex">
      <aside className="hidden border-r border-slate-200 bg-white lg:flex lg:min-h-screen lg:w-60 lg:flex-col">
        <SidebarContent {...loaderData} />
      </aside>
      {/* Phones and tablets: a top bar, and the sidebar as a drawer. */}
      <header className="sticky top-0 z-30 flex items-center gap-2 border-b border-slate-200 bg-white px-4 py-2 lg:hidden">
        <Drawer>
          <SidebarContent {...loaderData} />
        </Drawer>
        <p className="flex items-center gap-2 font-bold">
          <BarChart3 aria-hidden="true" className="size-5 text-brand-600" />
          Back Office
        </p>
      </header>
      <MainLandmark className="min-w-0 flex-1">
        <Outlet />
      </MainLandmark>
    </div>
  );
}
