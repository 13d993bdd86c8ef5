/** The back office's own pieces: its list pages (from the list kit in app/ui), action outcomes, details. */
import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { filterHref, pageHref } from "~/features/lists/listing";
import { Badge, StatusBadge } from "~/ui/badge";
import { Alert } from "~/ui/field";
import { type ActionResult, formErrors } from "~/ui/form";
import { formatDateTime } from "~/ui/format";
import { ListView, Pager } from "~/ui/list";
import { FilterChips, type FilterOption, SearchForm } from "~/ui/list-controls";
import { pageCount } from "~/ui/paging";
import { Td } from "~/ui/table";
import { type AuditEntry, auditSentence } from "./audit-sentence";

export interface AdminListFilter {
  label: string;
  /** The query parameter it sets: "status" unless given. */
  param?: string;
  current: string;
  options: readonly FilterOption[];
}

/**
 * A back-office list: search (keeping the filter), filter chips, the table or `empty` when nothing
 * matches, and the pager ("2000 results · page 3 of 40"), its links keeping the list's other filters.
 */
export function AdminList({
  search,
  filter,
  list,
  caption,
  head,
  empty,
  children,
}: {
  search: string;
  filter?: AdminListFilter;
  list: { q: string; page: number; total: number };
  caption: string;
  head: string[];
  empty: string;
  children: ReactNode;
}) {
  const location = useLocation();
  const param = filter?.param ?? "status";
  const pages = pageCount(list.total);
  const page = Math.min(list.page, pages);
  const results = `${list.total} ${list.total === 1 ? "result" : "results"}`;
  return (
    <ListView
      label={caption}
      controls={
        <>
          <SearchForm
            id="admin-search"
            label={search}
            q={list.q}
            keep={filter && filter.current !== "all" ? { [param]: filter.current } : {}}
          />
          {filter && (
            <FilterChips
              label={filter.label}
              current={filter.current}
              options={filter.options}
              hrefFor={(value) => filterHref(location.pathname, location.search, param, value)}
            />
          )}
        </>
      }
      empty={list.total === 0 && { title: empty }}
      caption={caption}
      head={head}
      pager={
        <Pager
          label="Pages"
          summary={`${results} · page ${page} of ${pages}`}
          page={page}
          pageCount={pages}
          hrefFor={(to) => pageHref(location.pathname, location.search, to)}
        />
      }
    >
      {children}
    </ListView>
  );
}

/**
 * A list row that is one link (issue 37, item 8): put `LINKED_ROW` on the `<tr>` and `RowLink` in its
 * first cell. The row's one real `<a>` (in the tab order, with its own text) stretches its click area
 * over the whole row with a pseudo-element, so a click anywhere on the row follows it, the keyboard
 * reaches it as any link, and a focused link outlines the row. Other links in the row (the invoice)
 * take `ABOVE_ROW_LINK` to stay clickable on their own.
 */
export const LINKED_ROW = "relative hover:bg-slate-50 focus-within:bg-slate-50";
export const ABOVE_ROW_LINK = "relative z-10";

export function RowLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      data-row-link
      className="text-brand-700 underline after:absolute after:inset-0 after:content-[''] focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-brand-600"
    >
      {children}
    </Link>
  );
}

/** Who: a name with the email address beneath. */
export function ClientCell({ name, email }: { name: string | null; email: string | null }) {
  return (
    <Td>
      {name ?? "—"}
      <br />
      <span className="wrap-anywhere font-normal text-slate-600">{email}</span>
    </Td>
  );
}

/**
 * The outcome of the last action, if any: a success's message, or the refusal's (the back office shows
 * it above the page even when a field shows it too).
 */
export function Outcome({ result }: { result?: ActionResult<object, object> | null }) {
  const { error, message } = formErrors(result);
  // A step with nothing to say (a form's confirmation step) shows no alert.
  const said = message ?? error;
  if (!result || !said) return null;
  return <Alert tone={result.ok ? "success" : "error"}>{said}</Alert>;
}

export function DefinitionList({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[12rem_1fr]">
      {items.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-medium text-slate-600">{k}</dt>
          <dd className="text-ink wrap-anywhere">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The audit rows about one thing, shown on its page: when, a plain sentence, and who. */
export function HistoryList({
  entries,
}: {
  entries: (AuditEntry & { id: string; at: Date | string; actorEmail: string | null })[];
}) {
  if (entries.length === 0) return <p className="text-sm text-slate-600">No changes yet.</p>;
  return (
    <ol className="space-y-2 text-sm">
      {entries.map((e) => (
        <li key={e.id} data-testid="history-entry">
          <span className="text-slate-600">{formatDateTime(e.at)}</span> ·{" "}
          <span className="wrap-anywhere">{auditSentence(e)}</span>{" "}
          <span className="text-slate-600">by {e.actorEmail ?? "the system"}</span>
        </li>
      ))}
    </ol>
  );
}

/** An order's status in a list, with "Brief missing" beside it while the client owes the brief. */
export function OrderStatusCell({
  status,
  briefBadge,
  label,
}: {
  status: string;
  briefBadge: string | null;
  /** The list's word for the status when it is not the status's own ("Deposit paid"). */
  label?: string;
}) {
  return (
    <Td>
      <span className="flex flex-wrap gap-1">
        <StatusBadge status={status} label={label} />
        {briefBadge && (
          <Badge tone="warning" data-brief="missing">
            {briefBadge}
          </Badge>
        )}
      </span>
    </Td>
  );
}
