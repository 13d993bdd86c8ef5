/**
 * The list kit the portal's and the back office's list pages share: the list's card (its table and
 * pager, or its empty state), with the search and filter controls in a card above it.
 */
import type { ReactNode } from "react";
import { ButtonLink } from "./button";
import { cardClass } from "./card-class";
import { DataTable } from "./table";

export function EmptyState({ title, text }: { title: string; text?: string }) {
  return (
    <div className="px-6 py-12 text-center">
      <p className="text-lg font-semibold text-ink">{title}</p>
      {text && <p className="mt-1 text-slate-600">{text}</p>}
    </div>
  );
}

/**
 * A list: `controls` (a SearchForm, FilterChips) in a card, then the list's card named `label`, holding
 * the table and `pager`, or `empty` in their place when there is nothing to show.
 */
export function ListView({
  label,
  controls,
  empty,
  caption,
  head,
  pager,
  children,
}: {
  label: string;
  controls?: ReactNode;
  empty?: { title: string; text?: string } | null | false;
  caption: string;
  head: string[];
  pager?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      {controls && <div className={cardClass("space-y-4 p-4")}>{controls}</div>}
      <section aria-label={label} className={cardClass("overflow-hidden")}>
        {empty ? (
          <EmptyState {...empty} />
        ) : (
          <>
            <DataTable caption={caption} head={head}>
              {children}
            </DataTable>
            {pager}
          </>
        )}
      </section>
    </>
  );
}

/** Where a list stands ("Showing 1–50 of 62 orders"), with Previous and Next page links. */
export function Pager({
  label,
  summary,
  page,
  pageCount,
  hrefFor,
}: {
  label: string;
  summary: ReactNode;
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
}) {
  const linkClass = "px-3 py-1.5";
  return (
    <nav
      aria-label={label}
      className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 px-4 py-3"
    >
      <p className="text-sm text-slate-700">{summary}</p>
      {pageCount > 1 && (
        <div className="flex gap-2">
          {page > 1 && (
            <ButtonLink variant="secondary" className={linkClass} to={hrefFor(page - 1)} rel="prev">
              Previous page
            </ButtonLink>
          )}
          {page < pageCount && (
            <ButtonLink variant="secondary" className={linkClass} to={hrefFor(page + 1)} rel="next">
              Next page
            </ButtonLink>
          )}
        </div>
      )}
    </nav>
  );
}
