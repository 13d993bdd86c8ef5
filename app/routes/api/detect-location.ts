/** GET /api/detect-location → {country_code, country_name, currency} (public-site.md §7 "detect-location"). */
import { DEFAULT_LOCATION } from "~/features/currency/currency";
import type { Route } from "./+types/detect-location";

export function loader({ request, context }: Route.LoaderArgs) {
  try {
    const { country_code, country_name, currency } = context.runtime.currency.location.detect({
      headers: request.headers,
      address: context.clientIp,
    });
    return Response.json(
      { country_code, country_name, currency },
      // Depends on the visitor's own headers and address: never cached by shared caches.
      { headers: { "Cache-Control": "private, no-store", Vary: "Accept-Language" } },
    );
  } catch (error) {
    context.logger.warn({ err: error }, "location detection failed");
    return Response.json({ ...DEFAULT_LOCATION }, { headers: { "Cache-Control": "private, no-store" } });
  }
}

/** Read-only: any other method is told so, in JSON like the rest of the API. */
export function action() {
  return Response.json(
    { error: "Method not allowed: use GET." },
    { status: 405, headers: { Allow: "GET, HEAD", "Cache-Control": "no-store" } },
  );
}
