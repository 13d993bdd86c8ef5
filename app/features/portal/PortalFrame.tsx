/**
 * The portal's frame around a signed-in client's page: the sidebar (Client Portal), the header with the
 * search box, the Live indicator and the bell, then the page's main landmark. The signed-in shell
 * (routes/portal/shell.tsx) always draws it; the pages a visitor may see too (purchase, thank-you after a
 * payment) draw it for a signed-in client (routes/portal/frame-if-signed-in.tsx).
 */
import type { ReactNode } from "react";
import { LiveIndicator, LiveUpdates } from "~/features/live/LiveUpdates";
import { AppShell, type SidebarItem, SidebarNav } from "~/ui/app-shell";
import { formatMonthYear, timeZoneOf } from "~/ui/format";
import { TimeZoneProvider } from "~/ui/time-zone";
import { NotificationBell } from "./NotificationBell";
import { PortalSearchBox } from "./PortalSearchBox";
import type { PortalFrameData } from "./portal-frame.server";

/**
 * "Sidebar: Dashboard, Purchase Services, My Orders, Invoices, Profile, and Sign Out." Quotes is not in
 * the spec: where a client finds the custom work they asked for (issue "quotes"); nor is Care Plans
 * (issue 38), nor Domains (issue 39).
 */
const NAV: SidebarItem[] = [
  { to: "/client/dashboard", label: "Dashboard", icon: "layout-dashboard" },
  { to: "/client/services", label: "Purchase Services", icon: "shopping-cart" },
  { to: "/client/orders", label: "My Orders", icon: "package" },
  { to: "/client/invoices", label: "Invoices", icon: "file-text" },
  { to: "/client/quotes", label: "Quotes", icon: "message-square-quote" },
  { to: "/client/plans", label: "Care Plans", icon: "shield-check" },
  { to: "/client/domains", label: "Domains", icon: "lock" },
  { to: "/client/profile", label: "Profile", icon: "user" },
];

function Sidebar({ name, since, timeZone }: { name: string; since: Date | string; timeZone: string }) {
  return (
    <SidebarNav
      title="Client Portal"
      label="Portal"
      items={NAV}
      signOutAction="/client/sign-out"
      footer={
        <>
          <p className="font-semibold">{name}</p>
          {/* Not the spec's "Premium Client" for everyone (README, deviations): a label that is true. */}
          <p className="text-slate-600">Client since {formatMonthYear(since, timeZoneOf(timeZone))}</p>
        </>
      }
    />
  );
}

export function PortalFrame({ data, children }: { data: PortalFrameData; children: ReactNode }) {
  const { client, bell, liveCursor } = data;
  return (
    <TimeZoneProvider timeZone={client.timeZone}>
      <LiveUpdates since={liveCursor}>
        <AppShell
          sidebarLabel="Client Portal"
          sidebar={<Sidebar name={client.name} since={client.since} timeZone={client.timeZone} />}
          header={
            <>
              <PortalSearchBox />
              <LiveIndicator />
              <NotificationBell items={bell.notifications} unread={bell.unread} />
            </>
          }
        >
          {children}
        </AppShell>
      </LiveUpdates>
    </TimeZoneProvider>
  );
}
