/**
 * What the portal's frame (PortalFrame.tsx) shows around a page: the client's name and zone, the bell and
 * the live cursor. The signed-in shell requires it; the pages a visitor may see too take it when a
 * signed-in client asks (issue 37, item 13: purchase and the thank-you after a payment stay in the
 * portal's frame).
 */
import type { AppLoadContext } from "react-router";
import { accountLocaleOf } from "~/features/accounts/account-locale";
import { getCurrentUser, type PortalShell, requirePortalShell } from "~/features/accounts/session.server";

function frameData({ user, client, bell, liveCursor }: PortalShell) {
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
      // What the EU's VIES service said of it (issue 40), when it was asked.
      vatStatus: client.taxId && client.vatCheckedNumber === client.taxId ? client.vatStatus : null,
      vatCheckedAt: client.vatCheckedAt,
      since: client.createdAt,
      // The zone every date of the portal is written in, on the server and in the hydrating browser alike.
      ...accountLocaleOf(client),
    },
    bell,
    liveCursor,
  };
}

export type PortalFrameData = ReturnType<typeof frameData>;

/** The access gate of every signed-in portal page (client-portal.md §4), then the frame's data. */
export async function portalFrame(request: Request, context: AppLoadContext): Promise<PortalFrameData> {
  // The client record, the bell and the live cursor in one statement (with the root loader's currency
  // preference): docs/decisions/0820-signed-in-pages-speed.md.
  return frameData(await requirePortalShell(request, context));
}

/**
 * The frame of a page a visitor may see too, for a signed-in client: null for anyone else (the page then
 * stands alone, as it does for a visitor) and for the thank-you page of anything but a payment (a
 * registration's or a message's thank-you belongs to the public site).
 */
export async function portalFrameIfSignedIn(
  request: Request,
  context: AppLoadContext,
): Promise<PortalFrameData | null> {
  const url = new URL(request.url);
  if (url.pathname === "/thank-you" && url.searchParams.get("type") !== "payment") return null;
  const user = await getCurrentUser(request, context);
  if (user?.role !== "client") return null;
  return portalFrame(request, context);
}
