/**
 * Dates and counts as every page, PDF and email shows them: pure, fixed to UTC and en-US, so server and
 * browser render the same text. Each Intl formatter is built once per (locale, options) and reused: a
 * new `Intl.DateTimeFormat` per date cost a signed-in page tens of milliseconds (ARCHITECTURE.md,
 * "Build expensive things once"). Money is `formatMoney` in features/currency/currency.ts.
 */

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The formatter for these options, built on first use. */
export function dateFormatter(options: Intl.DateTimeFormatOptions, locale = "en-US"): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let formatter = dateFormats.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { timeZone: "UTC", ...options });
    dateFormats.set(key, formatter);
  }
  return formatter;
}

/**
 * - `medium`: "Mar 5, 2026" (the portal's lists)
 * - `long`: "March 5, 2026" (invoices, blog articles)
 * - `iso`: "2026-03-05" (the back office: sortable, unambiguous)
 */
export type DateStyle = "medium" | "long" | "iso";

const INTL_STYLES = {
  medium: { dateStyle: "medium" },
  long: { dateStyle: "long" },
} as const satisfies Record<Exclude<DateStyle, "iso">, Intl.DateTimeFormatOptions>;

type DateValue = Date | string | number | null | undefined;

/** A calendar date in UTC; "—" when there is none. */
export function formatDate(value: DateValue, style: DateStyle = "medium"): string {
  if (value === null || value === undefined || value === "") return "—";
  const date = new Date(value);
  if (style === "iso") return date.toISOString().slice(0, 10);
  return dateFormatter(INTL_STYLES[style]).format(date);
}

/** A moment as UTC date and time: "2026-03-04 05:06 UTC" (the back office, audit trails); "—" when none. */
export function formatDateTime(value: DateValue): string {
  if (value === null || value === undefined || value === "") return "—";
  const iso = new Date(value).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/**
 * A moment as the portal shows it: "Mar 5, 2026, 17:06 UTC"; "—" when none. The time is written out by
 * hand: engines differ in the space before AM/PM, and server and browser must render the same text.
 */
export function formatMoment(value: DateValue): string {
  if (value === null || value === undefined || value === "") return "—";
  const date = new Date(value);
  return `${formatDate(date)}, ${date.toISOString().slice(11, 16)} UTC`;
}

let countFormat: Intl.NumberFormat | undefined;

/** A count with thousands separators: "10,000". */
export function formatCount(n: number): string {
  countFormat ??= new Intl.NumberFormat("en-US");
  return countFormat.format(n);
}
