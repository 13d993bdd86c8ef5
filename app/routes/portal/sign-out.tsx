import { redirect } from "react-router";
import { forwardCookies, getSignedIn } from "~/features/accounts/session.server";
import { clearPinnedCurrency } from "~/features/currency/pinned-currency.server";
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
  // The pinned currency goes with the session (ADR 0822): the shared pages show the detected one again.
  const unpin = clearPinnedCurrency(
    request.headers.get("cookie"),
    context.runtime.config.publicUrl.startsWith("https://"),
  );
  try {
    const { headers } = await context.runtime.auth.api.signOut({
      headers: request.headers,
      returnHeaders: true,
    });
    const cookies = forwardCookies(headers);
    if (unpin) cookies.append("Set-Cookie", unpin);
    return redirect("/", { headers: cookies });
  } catch (error) {
    // No session (already signed out): nothing to end.
    context.logger.debug({ err: error }, "sign-out without a session");
    return redirect("/", unpin ? { headers: { "Set-Cookie": unpin } } : undefined);
  }
}

export function loader() {
  return redirect("/");
}
