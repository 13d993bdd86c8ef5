/** The back office's small kit: page frame, tables, status badges, filter chips, search and paging. */
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button } from "~/ui/button";
import { Alert } from "~/ui/field";
import { pageCount, pageHref } from "./paging";

/** The outcome of the last action, if any. */
export function Outcome({ result }: { result?: { ok: boolean; message?: string; error?: string } | null }) {
  if (!result) return null;
  return <Alert tone={result.ok ? "success" : "error"}>{result.ok ? result.message : result.error}</Alert>;
}

export function DataTable({
  caption,
  head,
  children,
}: {
  caption: string;
  head: string[];
  children: ReactNode;
}) {
  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="px-4 py-2 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

export function Td({ children, className = "" }: { children: ReactNode; className?: string }) {
  return <td className={`px-4 py-2 align-top ${className}`}>{children}</td>;
}

export function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns} className="px-4 py-6 text-center text-slate-600">
        {children}
      </td>
    </tr>
  );
}

/** Filter links with counts; the current one is marked for assistive technology too. */
export function FilterChips({
  label,
  pathname,
  search,
  param,
  current,
  options,
}: {
  label: string;
  pathname: string;
  search: string;
  param: string;
  current: string;
  options: { value: string; label: string; count?: number }[];
}) {
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-2">
        {options.map((o) => {
          const params = new URLSearchParams(search);
          params.delete("page");
          if (o.value === "all") params.delete(param);
          else params.set(param, o.value);
          const qs = params.toString();
          const active = o.value === current;
          return (
            <li key={o.value}>
              <Link
                to={qs ? `${pathname}?${qs}` : pathname}
                aria-current={active ? "page" : undefined}
                className={`inline-flex items-center gap-1 rounded-full border px-3 py-1 text-sm font-medium ${
                  active
                    ? "border-brand-600 bg-brand-600 text-white"
                    : "border-slate-300 bg-white text-slate-800 hover:bg-slate-50"
                }`}
              >
                {o.label}
                {o.count !== undefined && <span className="tabular-nums">({o.count})</span>}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** A GET search form keeping the other filters (hidden fields), so it works without JavaScript. */
export function SearchBox({
  label,
  q,
  keep,
}: {
  label: string;
  q: string;
  keep: Record<string, string | null>;
}) {
  return (
    <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
      <div>
        <label htmlFor="admin-search" className="block text-sm font-medium text-slate-800">
          {label}
        </label>
        <input
          id="admin-search"
          type="search"
          name="q"
          defaultValue={q}
          className="mt-1 w-72 rounded-lg border border-slate-300 px-3 py-2 text-sm"
        />
      </div>
      {Object.entries(keep).map(([k, v]) => (v ? <input key={k} type="hidden" name={k} value={v} /> : null))}
      <Button type="submit" variant="secondary">
        Search
      </Button>
    </Form>
  );
}

export function Pager({
  pathname,
  search,
  page,
  total,
}: {
  pathname: string;
  search: string;
  page: number;
  total: number;
}) {
  const pages = pageCount(total);
  return (
    <nav aria-label="Pages" className="flex items-center justify-between text-sm text-slate-700">
      <p>
        {total} {total === 1 ? "result" : "results"} · page {Math.min(page, pages)} of {pages}
      </p>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link
            className="rounded-lg border border-slate-300 bg-white px-3 py-1"
            to={pageHref(pathname, search, page - 1)}
            rel="prev"
          >
            Previous
          </Link>
        ) : null}
        {page < pages ? (
          <Link
            className="rounded-lg border border-slate-300 bg-white px-3 py-1"
            to={pageHref(pathname, search, page + 1)}
            rel="next"
          >
            Next
          </Link>
        ) : null}
      </div>
    </nav>
  );
}

export function DefinitionList({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[12rem_1fr]">
      {items.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-medium text-slate-600">{k}</dt>
          <dd className="text-ink">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The audit rows about one thing, shown on its page. */
export function HistoryList({
  entries,
}: {
  entries: { id: string; at: Date | string; actorEmail: string | null; action: string; after: unknown }[];
}) {
  if (entries.length === 0) return <p className="text-sm text-slate-600">No changes yet.</p>;
  return (
    <ol className="space-y-2 text-sm">
      {entries.map((e) => (
        <li key={e.id}>
          <span className="font-mono text-xs text-slate-600">
            {new Date(e.at).toISOString().slice(0, 16).replace("T", " ")} UTC
          </span>{" "}
          <span className="font-semibold">{e.action}</span> by {e.actorEmail ?? "system"}{" "}
          <code className="break-all text-xs text-slate-700">{JSON.stringify(e.after)}</code>
        </li>
      ))}
    </ol>
  );
}
