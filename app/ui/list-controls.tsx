/** A list's search form and status filter chips (app/ui/list.tsx shows them above the list). */
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button } from "./button";
import { cn } from "./cn";
import { inputClass } from "./field";
import { formatCount } from "./format";

/**
 * A GET search form, so it works without JavaScript. `keep` carries the list's other filters as hidden
 * fields; `children` go between the search field and the button (a status select).
 */
export function SearchForm({
  id,
  label,
  formLabel,
  q,
  keep = {},
  children,
}: {
  id: string;
  label: string;
  formLabel?: string;
  q: string;
  keep?: Record<string, string | null | undefined>;
  children?: ReactNode;
}) {
  return (
    <Form method="get" role="search" aria-label={formLabel} className="flex flex-wrap items-end gap-3">
      {Object.entries(keep).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
      <div className="min-w-48 flex-1">
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          {label}
        </label>
        <input
          id={id}
          type="search"
          name="q"
          defaultValue={q}
          // A new search (a link, Back) shows its own text, not what was typed before.
          key={q}
          maxLength={100}
          className={cn(inputClass, "mt-1 border-slate-300 text-sm")}
        />
      </div>
      {children}
      <Button type="submit">Search</Button>
    </Form>
  );
}

export interface FilterOption {
  value: string;
  label: string;
  count?: number;
}

/** Filter links with their counts; the current one is marked for assistive technology too. */
export function FilterChips({
  label,
  current,
  options,
  hrefFor,
}: {
  label: string;
  current: string;
  options: readonly FilterOption[];
  hrefFor: (value: string) => string;
}) {
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-2">
        {options.map((o) => {
          const active = o.value === current;
          return (
            <li key={o.value}>
              <Link
                to={hrefFor(o.value)}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-sm font-medium",
                  active
                    ? "border-brand-600 bg-brand-600 text-white"
                    : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50",
                )}
              >
                {o.label}
                {o.count !== undefined && (
                  <span className="tabular-nums" data-count={o.value}>
                    ({formatCount(o.count)})
                  </span>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
