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

import { dashboardOf, type SessionAnswer } from "~/features/accounts/session-answer";
import { sessionAndCurrency } from "~/features/site/root-data.server";
import type { Route } from "./+types/session";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, currency, setCookie } = await sessionAndCurrency(request, context);
  const body: SessionAnswer = user
    ? { signedIn: true, name: user.name, role: user.role, dashboard: dashboardOf(user.role), currency }
    : { signedIn: false, currency };
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (setCookie) headers.append("Set-Cookie", setCookie);
  return Response.json(body, { headers });
}

/** Read-only: any other method is told so, in JSON like the rest of the API. */
export function action() {
  return Response.json(
    { error: "Method not allowed: use GET." },
    { status: 405, headers: { Allow: "GET, HEAD", "Cache-Control": "no-store" } },
  );
}
