import { Outlet } from "react-router";
import { requireAdmin } from "~/features/admin/route-helpers.server";
import { unreadInboxCount } from "~/features/contact/contact-inbox.server";
import { LiveUpdates } from "~/features/live/LiveUpdates";
import { loadBell } from "~/features/notifications/bell.server";
import { NotificationBell } from "~/features/portal/NotificationBell";
import { AppShell, type SidebarItem, SidebarNav } from "~/ui/app-shell";
import { Badge } from "~/ui/badge";
import { Icon } from "~/ui/icon";
import { OWNS_MAIN_LANDMARK } from "~/ui/main-landmark";
import type { Route } from "./+types/layout";

/** The sidebar sits outside main: the back office frame renders the landmark around its pages. */
export const handle = OWNS_MAIN_LANDMARK;

/** The back office frame. Each child route checks the role itself too (loaders run in parallel). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  const db = context.runtime.database.db;
  // The inbox holds contact messages and clients' messages on their orders.
  // The owner's bell: a client's acceptance or decline of a quote, an expiry (issue "quotes").
  const [unread, bell, liveCursor] = await Promise.all([
    unreadInboxCount(db),
    loadBell(db, admin.id),
    context.runtime.live.latestId(admin.id),
  ]);
  return { admin: { name: admin.name, email: admin.email }, unread: unread.total, bell, liveCursor };
}

const NAV: SidebarItem[] = [
  { to: "/admin/dashboard", label: "Dashboard", icon: "layout-dashboard" },
  { to: "/admin/orders", label: "Orders", icon: "package" },
  { to: "/admin/invoices", label: "Invoices", icon: "file-text" },
  { to: "/admin/messages", label: "Messages", icon: "inbox" },
  { to: "/admin/quotes", label: "Quotes", icon: "message-square-quote" },
  { to: "/admin/clients", label: "Clients", icon: "users" },
  { to: "/admin/catalogue", label: "Catalogue", icon: "store" },
  { to: "/admin/plans", label: "Care plans", icon: "calendar-days" },
  { to: "/admin/domains", label: "Domains", icon: "lock" },
  { to: "/admin/audit", label: "Audit log", icon: "rotate-ccw-clock" },
  { to: "/admin/two-factor", label: "Two-factor", icon: "shield-check" },
];

function Sidebar({ unread, admin }: { unread: number; admin: { name: string; email: string } }) {
  const items = NAV.map((item) =>
    item.to === "/admin/messages" && unread > 0
      ? {
          ...item,
          badge: (
            <Badge tone="brand" className="ml-auto px-2 py-0">
              {unread}
              <span className="sr-only"> unread</span>
            </Badge>
          ),
        }
      : item,
  );
  return (
    <SidebarNav
      title={<Title />}
      label="Back office"
      items={items}
      signOutAction="/client/sign-out"
      footer={
        <>
          <p className="font-semibold">{admin.name}</p>
          <p className="break-all text-slate-600">{admin.email}</p>
        </>
      }
    />
  );
}

function Title() {
  return (
    <>
      <Icon name="chart-column" className="size-5 text-brand-600" />
      Back Office
    </>
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { bell, liveCursor } = loaderData;
  // Live on every back-office page (one stream): a client's message, a quote accepted or declined
  // ring the bell and refresh the page's data as they happen.
  return (
    <LiveUpdates since={liveCursor}>
      <AppShell
        sidebarLabel="Back Office"
        sidebar={<Sidebar admin={loaderData.admin} unread={loaderData.unread} />}
        header={
          <>
            {/* Large screens show the title in the sidebar; the bar keeps the bell. */}
            <p className="flex items-center gap-2 font-bold lg:hidden">
              <Title />
            </p>
            <div className="ml-auto">
              <NotificationBell items={bell.notifications} unread={bell.unread} base="/admin/notifications" />
            </div>
          </>
        }
      >
        <Outlet />
      </AppShell>
    </LiveUpdates>
  );
}
