import { requireClient } from "~/features/accounts/session.server";
import { ORDER_FILTERS, parseListQuery } from "~/features/lists/listing";
import { searchPortal } from "~/features/portal/portal-search.server";
import { SearchResults } from "~/features/portal/SearchResults";
import { pageTitle } from "~/features/site/meta";
import { Page } from "~/ui/page";
import type { Route } from "./+types/search";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Search", matches) }];

const SHOWN = 10;

/**
 * The header's search box: the client's own orders (service, package), invoices (number, service, id),
 * quotes (Q- number) and credit notes (CN- number).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { client } = await requireClient(request, context);
  const { q } = parseListQuery(new URL(request.url), ORDER_FILTERS);
  const found = await searchPortal(context.runtime.database.db, client, q, SHOWN + 1, new Date());
  return { q, found };
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { q, found } = loaderData;
  return (
    <Page title={q ? `Search results for “${q}”` : "Search"}>
      {q ? (
        <SearchResults q={q} found={found} shown={SHOWN} />
      ) : (
        <p className="text-slate-600">
          Type a service, package, or an invoice, quote or credit-note number in the search box.
        </p>
      )}
    </Page>
  );
}
