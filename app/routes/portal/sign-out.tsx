import { redirect } from "react-router";
import { forwardCookies, getSignedIn } from "~/features/accounts/session.server";
import { publishLiveEvent } from "~/features/live/live-events.server";
import type { Route } from "./+types/sign-out";

/** Sign out ends the session on the server, closes its live streams ("drops live subscriptions") and goes to /. */
export async function action({ request, context }: Route.ActionArgs) {
  const signedIn = await getSignedIn(request, context).catch(() => null);
  if (signedIn) {
    // Every process holding a stream of this session closes it on this event.
    await publishLiveEvent(context.runtime.database.db, {
      userId: signedIn.user.id,
      kind: "session",
      entityId: signedIn.sessionId,
      status: "signed-out",
    }).catch((error: unknown) => context.logger.warn({ err: error }, "sign-out: live event failed"));
  }
  try {
    const { headers } = await context.runtime.auth.api.signOut({
      headers: request.headers,
      returnHeaders: true,
    });
    return redirect("/", { headers: forwardCookies(headers) });
  } catch (error) {
    // No session (already signed out): nothing to end.
    context.logger.debug({ err: error }, "sign-out without a session");
    return redirect("/");
  }
}

export function loader() {
  return redirect("/");
}
