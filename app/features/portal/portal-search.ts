/** The header search box's suggestions (issue 37, item 14), pure: the box and the server share them. */

/** What a search found, as far as its suggestions read it. */
export interface FoundForSuggestions {
  orders: ReadonlyArray<{ serviceName: string }>;
  invoices: ReadonlyArray<{ invoiceNumber: string; serviceName: string | null }>;
  quotes: ReadonlyArray<{ number: string }>;
  creditNotes: ReadonlyArray<{ creditNoteNumber: string }>;
}

/** A suggestion of the search box: the text it puts in the box, and what it is. */
export interface SearchSuggestion {
  value: string;
  label: string;
}

/** How many suggestions the box offers, and the shortest text it suggests for. */
export const MAX_SUGGESTIONS = 8;
export const MIN_SUGGESTION_LENGTH = 2;

/**
 * What the box suggests for `q`: service names, invoice, quote and credit-note numbers of the client's
 * that contain it (a browser shows only the options that contain what was typed), each once.
 */
export function suggestionsOf(q: string, found: FoundForSuggestions): SearchSuggestion[] {
  const needle = q.toLowerCase();
  const out = new Map<string, SearchSuggestion>();
  const add = (value: string | null | undefined, label: string) => {
    if (!value || out.has(value) || !value.toLowerCase().includes(needle)) return;
    out.set(value, { value, label });
  };
  for (const o of found.orders) add(o.serviceName, "Service");
  for (const i of found.invoices) {
    add(i.invoiceNumber, "Invoice");
    add(i.serviceName, "Service");
  }
  for (const x of found.quotes) add(x.number, "Quote");
  for (const n of found.creditNotes) add(n.creditNoteNumber, "Credit note");
  return [...out.values()].slice(0, MAX_SUGGESTIONS);
}
