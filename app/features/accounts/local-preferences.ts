/**
 * Profile settings the spec keeps in the browser only (client-portal.md §2, Profile): timezone and
 * language. (The notification switches are saved with the account: notification-preferences.ts; an
 * older stored value's `notifications` is ignored.) Pure parsing, so a corrupt stored value falls back
 * to defaults.
 */
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

export interface LocalPreferences {
  timezone: string;
  language: string;
}

export const DEFAULT_LOCAL_PREFERENCES: LocalPreferences = { timezone: "America/New_York", language: "en" };

/** A stored choice when it is one the screen offers, else the default (no zod: this runs in the browser). */
function oneOf(value: unknown, options: ReadonlyArray<{ value: string }>, fallback: string): string {
  return options.some((o) => o.value === value) ? (value as string) : fallback;
}

export const LOCAL_PREFERENCES_KEY = "portico.profile.preferences";

export function parseLocalPreferences(raw: string | null): LocalPreferences {
  if (!raw) return DEFAULT_LOCAL_PREFERENCES;
  try {
    const stored: unknown = JSON.parse(raw);
    const fields = (stored && typeof stored === "object" ? stored : {}) as Record<string, unknown>;
    return {
      timezone: oneOf(fields.timezone, TIMEZONES, DEFAULT_LOCAL_PREFERENCES.timezone),
      language: oneOf(fields.language, LANGUAGES, DEFAULT_LOCAL_PREFERENCES.language),
    };
  } catch {
    return DEFAULT_LOCAL_PREFERENCES;
  }
}
