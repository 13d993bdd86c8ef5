/** GET /api/exchange-rates → {rates, base: "USD", source, fetched_at} (public-site.md §7 "exchange-rates"). */
import type { Route } from "./+types/exchange-rates";

export async function loader({ context }: Route.LoaderArgs) {
  const snapshot = await context.runtime.currency.rates.get();
  return Response.json(snapshot, { headers: { "Cache-Control": "public, max-age=300" } });
}
