/**
 * GET /api/session → who this browser's session is, for the header of a shared public page, and the
 * currency to show them (ADR 0822). Not in the spec.
 *
 * The shared pages are rendered without the session and served from the cache to everyone; this small
 * answer is the per-person part, asked after load. Private to the session (`private, no-store`), and it
 * carries what the page no longer does for a signed-in client: their saved currency (which wins while
 * detection is off; the pinned-currency cookie is brought in step with it here), the save of a newly
 * detected country or currency, and the session's daily renewal. No input is read but the cookies.
 */

import { getCurrentUser } from "~/features/accounts/session.server";
import { dashboardOf, type SessionAnswer } from "~/features/accounts/session-answer";
import { currencyAndPreference } from "~/features/currency/currency.server";
import { reconcilePinnedCurrency } from "~/features/currency/pinned-currency.server";
import type { Route } from "./+types/session";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, context);
  const { state, preference } = await currencyAndPreference({
    services: context.runtime.currency,
    db: context.runtime.database.db,
    logger: context.logger,
    request,
    clientAddress: context.clientIp,
    userId: user?.id ?? null,
    // Counted like the request itself: a stopping process closes its database only after it.
    afterResponse: (task) => void context.runtime.drain.track(task()),
  });
  const body: SessionAnswer = user
    ? { signedIn: true, name: user.name, role: user.role, dashboard: dashboardOf(user.role), currency: state }
    : { signedIn: false, currency: state };
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  const https = context.runtime.config.publicUrl.startsWith("https://");
  const pin = reconcilePinnedCurrency(request.headers.get("cookie"), user ? preference : null, https);
  if (pin) headers.append("Set-Cookie", pin);
  return Response.json(body, { headers });
}

/** Read-only: any other method is told so, in JSON like the rest of the API. */
export function action() {
  return Response.json(
    { error: "Method not allowed: use GET." },
    { status: 405, headers: { Allow: "GET, HEAD", "Cache-Control": "no-store" } },
  );
}
