import { Form, Outlet, useLocation, useRouteLoaderData } from "react-router";
import { accountLocaleOf } from "~/features/accounts/account-locale";
import { requirePortalShell } from "~/features/accounts/session.server";
import { LiveIndicator, LiveUpdates } from "~/features/live/LiveUpdates";
import { NotificationBell } from "~/features/portal/NotificationBell";
import { AppShell, type SidebarItem, SidebarNav } from "~/ui/app-shell";
import { formatMonthYear, timeZoneOf } from "~/ui/format";
import { Icon } from "~/ui/icon";
import { OWNS_MAIN_LANDMARK } from "~/ui/main-landmark";
import { TimeZoneProvider } from "~/ui/time-zone";
import type { Route } from "./+types/shell";

/** The access gate of every signed-in portal page, enforced on the server (client-portal.md §4). */
export async function loader({ request, context }: Route.LoaderArgs) {
  // The client record, the bell and the live cursor in one statement (with the root loader's currency
  // preference): docs/decisions/0820-signed-in-pages-speed.md.
  const { user, client, bell, liveCursor } = await requirePortalShell(request, context);
  return {
    user,
    client: {
      name: client.name,
      email: client.email,
      phone: client.phone ?? "",
      company: client.company ?? "",
      address: client.address ?? "",
      countryCode: client.countryCode ?? "",
      // Text typed before the list that names no country: the profile asks the client to choose.
      country: client.countryCode ? "" : (client.country ?? ""),
      taxId: client.taxId ?? "",
      since: client.createdAt,
      // The zone every date of the portal is written in, on the server and in the hydrating browser alike.
      ...accountLocaleOf(client),
    },
    bell,
    liveCursor,
  };
}

/** The shell's sidebar and header sit outside main: the shell renders the landmark around its pages. */
export const handle = OWNS_MAIN_LANDMARK;

export function usePortalData() {
  const data = useRouteLoaderData<typeof loader>("routes/portal/shell");
  if (!data) throw new Error("usePortalData outside the portal shell");
  return data;
}

/**
 * "Sidebar: Dashboard, Purchase Services, My Orders, Invoices, Profile, and Sign Out." Quotes is not in
 * the spec: where a client finds the custom work they asked for (issue "quotes").
 */
const NAV: SidebarItem[] = [
  { to: "/client/dashboard", label: "Dashboard", icon: "layout-dashboard" },
  { to: "/client/services", label: "Purchase Services", icon: "shopping-cart" },
  { to: "/client/orders", label: "My Orders", icon: "package" },
  { to: "/client/invoices", label: "Invoices", icon: "file-text" },
  { to: "/client/quotes", label: "Quotes", icon: "message-square-quote" },
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

function SearchBox() {
  const { pathname, search } = useLocation();
  const q = pathname === "/client/search" ? (new URLSearchParams(search).get("q") ?? "") : "";
  return (
    <Form method="get" action="/client/search" role="search" className="min-w-0 flex-1">
      <label htmlFor="portal-search" className="sr-only">
        Search your orders and invoices
      </label>
      <div className="relative max-w-md">
        <Icon
          name="search"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
        />
        <input
          id="portal-search"
          key={q}
          type="search"
          name="q"
          defaultValue={q}
          maxLength={100}
          placeholder="Search orders and invoices…"
          className="w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-9 text-sm"
        />
      </div>
    </Form>
  );
}

export default function PortalShell({ loaderData }: Route.ComponentProps) {
  const { client, bell, liveCursor } = loaderData;
  return (
    <TimeZoneProvider timeZone={client.timeZone}>
      <LiveUpdates since={liveCursor}>
        <AppShell
          sidebarLabel="Client Portal"
          sidebar={<Sidebar name={client.name} since={client.since} timeZone={client.timeZone} />}
          header={
            <>
              <SearchBox />
              <LiveIndicator />
              <NotificationBell items={bell.notifications} unread={bell.unread} />
            </>
          }
        >
          <Outlet />
        </AppShell>
      </LiveUpdates>
    </TimeZoneProvider>
  );
}
