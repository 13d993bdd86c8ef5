/**
 * The profile's timezone and language (client-portal.md §2, Profile), saved with the account (issue 25,
 * ADR 0521; the spec held them in the browser only). The timezone is the one the portal and the emails to
 * the client write dates and times in; the language is saved and shown again, and changes nothing else
 * yet: every text of the site is English (README, deviations). Pure, shared by browser and server.
 */
import { isOfferedTimeZone } from "./time-zones";

/** The spec's four zones (issue 37 offers every zone: time-zones.ts); the first is the default. */
export const TIMEZONES = [
  { value: "America/New_York", label: "Eastern Time (New York)" },
  { value: "America/Chicago", label: "Central Time (Chicago)" },
  { value: "America/Denver", label: "Mountain Time (Denver)" },
  { value: "America/Los_Angeles", label: "Pacific Time (Los Angeles)" },
] as const;

export const LANGUAGES = [
  { value: "en", label: "English" },
  { value: "es", label: "Spanish" },
  { value: "fr", label: "French" },
] as const;

/** An IANA zone the profile offers (time-zones.ts). */
export type ClientTimeZone = string;
export type ClientLanguage = (typeof LANGUAGES)[number]["value"];

export const LANGUAGE_VALUES = LANGUAGES.map((l) => l.value) as [ClientLanguage, ...ClientLanguage[]];

export interface AccountLocale {
  timeZone: ClientTimeZone;
  language: ClientLanguage;
}

/** The spec's defaults: "default New York", "default English". */
export const DEFAULT_ACCOUNT_LOCALE: AccountLocale = { timeZone: "America/New_York", language: "en" };

/** A stored choice when it is one the screen offers, else the default (no zod: this runs in the browser). */
function oneOf<T extends string>(value: unknown, options: ReadonlyArray<{ value: T }>, fallback: T): T {
  return options.find((o) => o.value === value)?.value ?? fallback;
}

/**
 * The account's choices as saved (the `clients` row's columns), the defaults for one never saved or for a
 * value no longer offered. `saved` says whether the client chose at all (a browser's older local choice
 * may then stand in until the next save: ProfileInformationTab.tsx).
 */
export function accountLocaleOf(row: { timeZone: string | null; language: string | null }): AccountLocale & {
  saved: boolean;
} {
  return {
    timeZone: isOfferedTimeZone(row.timeZone) ? row.timeZone : DEFAULT_ACCOUNT_LOCALE.timeZone,
    language: oneOf(row.language, LANGUAGES, DEFAULT_ACCOUNT_LOCALE.language),
    saved: row.timeZone !== null || row.language !== null,
  };
}

/**
 * Where the profile kept these choices before they were saved with the account. Read once, by a browser
 * whose account has saved none, to show (and then save) the choice made there; removed once saved.
 */
export const LOCAL_PREFERENCES_KEY = "portico.profile.preferences";

/** An older browser-held choice, field by field; null for a field missing or not offered. */
export function parseLocalPreferences(raw: string | null): {
  timeZone: ClientTimeZone | null;
  language: ClientLanguage | null;
} {
  const none = { timeZone: null, language: null };
  if (!raw) return none;
  try {
    const stored: unknown = JSON.parse(raw);
    const fields = (stored && typeof stored === "object" ? stored : {}) as Record<string, unknown>;
    return {
      timeZone: isOfferedTimeZone(fields.timezone) ? fields.timezone : null,
      language: LANGUAGES.find((l) => l.value === fields.language)?.value ?? null,
    };
  } catch {
    return none;
  }
}
