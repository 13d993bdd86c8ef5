import { requireClient } from "~/features/accounts/session.server";
import { ORDER_FILTERS, parseListQuery } from "~/features/lists/listing";
import { searchSuggestions } from "~/features/portal/portal-search.server";
import type { Route } from "./+types/search-suggestions";

/** The header search box's suggestions as one types (a fetcher): the signed-in client's own only. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { client } = await requireClient(request, context, { api: true });
  const { q } = parseListQuery(new URL(request.url), ORDER_FILTERS);
  const suggestions = await searchSuggestions(context.runtime.database.db, client, q, new Date());
  return { q, suggestions };
}
