/** Small pieces the portal pages share: stat cards, status badges, the pager, empty states. */
import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatCount } from "~/ui/format";
import { listHref, type PageInfo } from "./listing";

export function StatCard({ label, value, note }: { label: string; value: ReactNode; note?: ReactNode }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5">
      <p className="text-sm font-medium text-slate-600">{label}</p>
      <p className="mt-1 text-2xl font-bold text-ink">{value}</p>
      {note && <p className="mt-1 text-sm text-slate-600">{note}</p>}
    </div>
  );
}

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

export function PortalPage({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="space-y-6 p-4 sm:p-6 lg:p-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {actions}
      </div>
      {children}
    </div>
  );
}
