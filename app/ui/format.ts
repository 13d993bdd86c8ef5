/**
 * Dates and counts as every page, PDF and email shows them: pure, so server and browser render the same
 * text from the same inputs. The one module that builds date formatters (ADR 0521):
 *
 * - The words are English (en-US) everywhere: the site's texts are English only, so the client's language
 *   choice does not change how a date is written (a Spanish month inside an English sentence would read
 *   worse than either).
 * - The time zone is a parameter. The portal and the emails to a client pass the client's saved zone; the
 *   back office, the public site and the documents (invoices, credit notes, quotes: the seller's calendar)
 *   use `BUSINESS_TIME_ZONE`, UTC. A page never reads the browser's zone, so hydration sees the server's
 *   text.
 * - Each Intl formatter is built once per (style, zone) and reused: a new `Intl.DateTimeFormat` per date
 *   cost a signed-in page tens of milliseconds (ARCHITECTURE.md, "Build expensive things once"). The
 *   styles are a fixed list and a zone is one the engine knows (a finite list, keyed by the engine's own
 *   name for it), so the cache holds at most `DATE_KINDS ×` the zones actually used.
 *
 * Money is `formatMoney` in features/money/format.ts (its own per-currency cache).
 */

const LOCALE = "en-US";

/** The seller's calendar: the back office, the documents (invoices, credit notes, quotes), the public site. */
export const BUSINESS_TIME_ZONE = "UTC";

/**
 * The seller's zone and the spec's four US zones (the profile offers every zone: accounts/time-zones.ts);
 * any zone the engine knows may be passed.
 */
export const TIME_ZONES = [
  BUSINESS_TIME_ZONE,
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Los_Angeles",
] as const;

/** An IANA zone name ("Asia/Kathmandu"); one the engine does not know is written as UTC. */
export type TimeZone = string;

/** Names already checked, to the engine's own name for the zone (bounded: past it, checked each time). */
const zoneNames = new Map<string, string | null>();
const ZONE_NAMES_KEPT = 2000;

/** The zone a stored or posted value names (the engine's name for it), or the seller's when it names none. */
export function timeZoneOf(value: unknown): string {
  if (typeof value !== "string" || value.length > 64) return BUSINESS_TIME_ZONE;
  let name = zoneNames.get(value);
  if (name === undefined) {
    try {
      name = new Intl.DateTimeFormat(LOCALE, { timeZone: value }).resolvedOptions().timeZone;
    } catch {
      name = null;
    }
    if (zoneNames.size < ZONE_NAMES_KEPT) zoneNames.set(value, name);
  }
  return name ?? BUSINESS_TIME_ZONE;
}

const DATE_KINDS = {
  /** "Mar 5, 2026" */
  medium: { dateStyle: "medium" },
  /** "March 5, 2026" */
  long: { dateStyle: "long" },
  /** 03/05/2026, read back as parts for the ISO style in a zone other than UTC */
  numeric: { year: "numeric", month: "2-digit", day: "2-digit" },
  /** 17:06 EST, read back as parts (engines differ in the spaces they put around a time) */
  time: { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateKind = keyof typeof DATE_KINDS;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The formatter of one kind in one zone, built on first use and kept. */
export function dateFormatter(kind: DateKind, timeZone: TimeZone = BUSINESS_TIME_ZONE): Intl.DateTimeFormat {
  const zone = timeZoneOf(timeZone);
  const key = `${kind}|${zone}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(LOCALE, { timeZone: zone, ...DATE_KINDS[kind] });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** How many date formatters exist now (tests check the cache stays bounded). */
export const dateFormatterCount = () => formatters.size;

/**
 * - `medium`: "Mar 5, 2026" (the portal's lists)
 * - `long`: "March 5, 2026" (invoices, blog articles)
 * - `iso`: "2026-03-05" (the back office: sortable, unambiguous)
 */
export type DateStyle = "medium" | "long" | "iso";

type DateValue = Date | string | number | null | undefined;

const part = (parts: Intl.DateTimeFormatPart[], type: Intl.DateTimeFormatPartTypes) =>
  parts.find((p) => p.type === type)?.value ?? "";

/** The calendar day a moment falls on in `timeZone` (UTC unless told); "—" when there is none. */
export function formatDate(
  value: DateValue,
  style: DateStyle = "medium",
  timeZone: TimeZone = BUSINESS_TIME_ZONE,
): string {
  if (value === null || value === undefined || value === "") return "—";
  const date = new Date(value);
  if (style !== "iso") return dateFormatter(style, timeZone).format(date);
  if (timeZoneOf(timeZone) === "UTC") return date.toISOString().slice(0, 10);
  const parts = dateFormatter("numeric", timeZone).formatToParts(date);
  return `${part(parts, "year")}-${part(parts, "month")}-${part(parts, "day")}`;
}

/** The month and year of a moment in a zone: "November 2026" (the portal's "Client since"). */
export function formatMonthYear(
  value: Date | string | number,
  timeZone: TimeZone = BUSINESS_TIME_ZONE,
): string {
  const parts = dateFormatter("long", timeZone).formatToParts(new Date(value));
  return `${part(parts, "month")} ${part(parts, "year")}`;
}

/**
 * A moment as the back office shows it, in the seller's zone (UTC): "Mar 4, 2026, 05:06 UTC", the same
 * words as the portal's dates (issue 37: no ISO dates for the owner either); "—" when none.
 */
export function formatDateTime(value: DateValue): string {
  return formatMoment(value, BUSINESS_TIME_ZONE);
}

/** The time of day with the zone's abbreviation, 24-hour: "19:30 PST", "17:06 UTC". */
export function formatTime(value: Date | string | number, timeZone: TimeZone = BUSINESS_TIME_ZONE): string {
  const parts = dateFormatter("time", timeZone).formatToParts(new Date(value));
  // hourCycle h23 writes midnight "00"; the abbreviation is CLDR's ("EST", "PDT", "UTC").
  return `${part(parts, "hour")}:${part(parts, "minute")} ${part(parts, "timeZoneName")}`;
}

/**
 * A moment as the portal and the client's emails show it, in the client's zone: "Feb 28, 2026, 19:30 PST";
 * "—" when none. The time is assembled from parts: engines differ in the space before AM/PM, and server
 * and browser must render the same text.
 */
export function formatMoment(value: DateValue, timeZone: TimeZone = BUSINESS_TIME_ZONE): string {
  if (value === null || value === undefined || value === "") return "—";
  const date = new Date(value);
  return `${formatDate(date, "medium", timeZone)}, ${formatTime(date, timeZone)}`;
}

let countFormat: Intl.NumberFormat | undefined;

/** A count with thousands separators: "10,000". */
export function formatCount(n: number): string {
  countFormat ??= new Intl.NumberFormat(LOCALE);
  return countFormat.format(n);
}
