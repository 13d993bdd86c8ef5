import { FileText, LayoutDashboard, LogOut, Package, ShoppingCart, User } from "lucide-react";
import { Form, NavLink, Outlet, useRouteLoaderData } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import type { Route } from "./+types/shell";

/** The access gate of every signed-in portal page, enforced on the server (client-portal.md §4). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, client } = await requireClient(request, context);
  return {
    user,
    client: {
      name: client.name,
      email: client.email,
      phone: client.phone ?? "",
      company: client.company ?? "",
    },
  };
}

export function usePortalData() {
  const data = useRouteLoaderData<typeof loader>("routes/portal/shell");
  if (!data) throw new Error("usePortalData outside the portal shell");
  return data;
}

const NAV = [
  { to: "/client/dashboard", label: "Dashboard", icon: LayoutDashboard },
  { to: "/client/services", label: "Purchase Services", icon: ShoppingCart },
  { to: "/client/orders", label: "My Orders", icon: Package },
  { to: "/client/invoices", label: "Invoices", icon: FileText },
  { to: "/client/profile", label: "Profile", icon: User },
];

export default function PortalShell({ loaderData }: Route.ComponentProps) {
  return (
    <div className="min-h-screen bg-slate-50 lg:flex">
      <aside className="flex flex-col border-b border-slate-200 bg-white lg:min-h-screen lg:w-64 lg:border-b-0 lg:border-r">
        <div className="px-6 py-5 text-lg font-bold">Client Portal</div>
        <nav aria-label="Portal" className="flex-1 px-3">
          <ul className="flex gap-1 overflow-x-auto lg:flex-col">
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
        <div className="hidden border-t border-slate-200 px-6 py-4 text-sm lg:block">
          <p className="font-semibold">{loaderData.client.name}</p>
          <p className="text-slate-600">Premium Client</p>
        </div>
      </aside>
      <div className="flex-1">
        <Outlet />
      </div>
    </div>
  );
}
