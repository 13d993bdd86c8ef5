/** The portal's list pager: the kit's Pager with the portal's words and links. */
import { listHref, type PageInfo } from "~/features/lists/listing";
import { formatCount } from "~/ui/format";
import { Pager } from "~/ui/list";

/** "Showing 51–100 of 10,000 orders (page 2 of 200)", its links keeping the search and filter. */
export function ListPager({
  paging,
  pathname,
  query,
  noun,
}: {
  paging: PageInfo;
  pathname: string;
  query: { q: string; status: string };
  noun: string;
}) {
  if (paging.total === 0) return null;
  // A search's matches are counted up to a limit: "of 1,000+".
  const more = paging.atLeast ? "+" : "";
  const pages =
    paging.pageCount > 1 ? ` (page ${paging.page} of ${formatCount(paging.pageCount)}${more})` : "";
  return (
    <Pager
      label={`${noun} pages`}
      summary={`Showing ${formatCount(paging.from)}–${formatCount(paging.to)} of ${formatCount(paging.total)}${more} ${noun}${pages}`}
      page={paging.page}
      pageCount={paging.pageCount}
      hrefFor={(page) => listHref(pathname, { ...query, page })}
    />
  );
}
