import {
  getSignedIn,
  lacksRequiredTwoFactor,
  twoFactorRequiredResponse,
} from "~/features/accounts/session.server";
import { openEventStream, parseEventId, sessionStillValid } from "~/features/live/event-stream.server";
import type { Route } from "./+types/events";

/**
 * Server-Sent Events of the signed-in client (client-portal.md §4 "Live indicator", §7 "Realtime
 * subscriptions"): only their own events and catalogue events; 401 for visitors, 403 for an admin
 * held back by ADMIN_REQUIRE_2FA.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const signedIn = await getSignedIn(request, context);
  if (!signedIn?.user.emailVerified) {
    return new Response("Sign in to receive live updates.", {
      status: 401,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  // An admin's events are the owner's: held back like the back office by ADMIN_REQUIRE_2FA (ADR 0702).
  if (lacksRequiredTwoFactor(signedIn, context)) return twoFactorRequiredResponse("text");
  const { runtime } = context;
  if (!runtime.live.accepting) {
    // Shutting down: the browser tries again (on another process, or this one once it is back).
    return new Response("Shutting down; try again shortly.", {
      status: 503,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "no-store",
        "Retry-After": "2",
      },
    });
  }
  const db = runtime.database.db;
  const url = new URL(request.url);
  const lastEventId = parseEventId(request.headers.get("last-event-id") ?? url.searchParams.get("since"));
  return openEventStream({
    hub: runtime.live,
    userId: signedIn.user.id,
    sessionId: signedIn.sessionId,
    lastEventId,
    heartbeatMs: runtime.config.live.heartbeatMs,
    sessionCheckMs: runtime.config.live.sessionCheckMs,
    sessionAlive: () => sessionStillValid(db, signedIn.sessionId),
    signal: request.signal,
    logger: context.logger,
  });
}
