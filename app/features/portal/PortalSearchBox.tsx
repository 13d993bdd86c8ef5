/**
 * The portal header's search box (issue 37, item 14): a plain GET form to /client/search, which works
 * before and without JavaScript; with it, a <datalist> offers the client's own service names and
 * invoice, quote and credit-note numbers as one types, asked for once typing pauses (debounced).
 * The input stays uncontrolled (what is typed before hydration is kept).
 */
import { useEffect, useRef } from "react";
import { Form, useFetcher, useLocation } from "react-router";
import { Icon } from "~/ui/icon";
import { MIN_SUGGESTION_LENGTH, type SearchSuggestion } from "./portal-search";

const SUGGESTIONS = "/client/search/suggestions";
/** How long typing must pause before the box asks for suggestions. */
export const SUGGEST_DELAY_MS = 250;

export function PortalSearchBox() {
  const { pathname, search } = useLocation();
  const q = pathname === "/client/search" ? (new URLSearchParams(search).get("q") ?? "") : "";
  const suggest = useFetcher<{ q: string; suggestions: SearchSuggestion[] }>();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onInput = (e: React.FormEvent<HTMLInputElement>) => {
    // Read the value now: the event is gone when the timer fires.
    const text = e.currentTarget.value.trim();
    clearTimeout(timer.current);
    if (text.length < MIN_SUGGESTION_LENGTH) return;
    timer.current = setTimeout(() => {
      if (text !== suggest.data?.q) suggest.load(`${SUGGESTIONS}?${new URLSearchParams({ q: text })}`);
    }, SUGGEST_DELAY_MS);
  };
  const suggestions = suggest.data?.suggestions ?? [];
  return (
    <Form method="get" action="/client/search" role="search" className="min-w-0 flex-1">
      <label htmlFor="portal-search" className="sr-only">
        Search your orders, invoices, quotes and credit notes
      </label>
      <div className="relative max-w-md">
        <Icon
          name="search"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
        />
        <input
          id="portal-search"
          key={q}
          type="search"
          name="q"
          defaultValue={q}
          maxLength={100}
          list="portal-search-suggestions"
          autoComplete="off"
          onInput={onInput}
          placeholder="Search…"
          className="w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-9 text-sm"
        />
        <datalist id="portal-search-suggestions">
          {suggestions.map((s) => (
            <option key={s.value} value={s.value} label={`${s.label}: ${s.value}`} />
          ))}
        </datalist>
      </div>
    </Form>
  );
}
