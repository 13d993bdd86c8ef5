/** The portal lists' pieces: the pager and the empty state. */
import { Link } from "react-router";
import { formatCount } from "~/ui/format";
import { listHref, type PageInfo } from "./listing";

export function EmptyState({ title, text }: { title: string; text: string }) {
  return (
    <div className="px-6 py-12 text-center">
      <p className="text-lg font-semibold text-ink">{title}</p>
      <p className="mt-1 text-slate-600">{text}</p>
    </div>
  );
}

/** "Showing 51–100 of 10,000" with Previous and Next links (keeps the search and filter). */
export function Pager({
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
  const fmt = formatCount;
  // A search's matches are counted up to a limit: "of 1,000+".
  const more = paging.atLeast ? "+" : "";
  const linkClass =
    "rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-slate-50";
  return (
    <nav aria-label={`${noun} pages`} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
      <p className="text-sm text-slate-700">
        Showing {fmt(paging.from)}–{fmt(paging.to)} of {fmt(paging.total) + more} {noun}
        {paging.pageCount > 1 && ` (page ${paging.page} of ${fmt(paging.pageCount) + more})`}
      </p>
      {paging.pageCount > 1 && (
        <div className="flex gap-2">
          {paging.page > 1 && (
            <Link
              className={linkClass}
              to={listHref(pathname, { ...query, page: paging.page - 1 })}
              rel="prev"
            >
              Previous page
            </Link>
          )}
          {paging.page < paging.pageCount && (
            <Link
              className={linkClass}
              to={listHref(pathname, { ...query, page: paging.page + 1 })}
              rel="next"
            >
              Next page
            </Link>
          )}
        </div>
      )}
    </nav>
  );
}
