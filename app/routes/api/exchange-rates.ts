/** GET /api/exchange-rates → {rates, base: "USD", source, fetched_at} (public-site.md §7 "exchange-rates"). */
import type { Route } from "./+types/exchange-rates";

export async function loader({ context }: Route.LoaderArgs) {
  const snapshot = await context.runtime.currency.rates.get();
  return Response.json(snapshot, { headers: { "Cache-Control": "public, max-age=300" } });
}

/** Read-only: any other method is told so, in JSON like the rest of the API. */
export function action() {
  return Response.json(
    { error: "Method not allowed: use GET." },
    { status: 405, headers: { Allow: "GET, HEAD", "Cache-Control": "no-store" } },
  );
}
