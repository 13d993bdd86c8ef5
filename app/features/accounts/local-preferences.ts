/**
 * Profile settings the spec keeps in the browser only (client-portal.md §2, Profile): timezone and
 * language. (The notification switches are saved with the account: notification-preferences.ts; an
 * older stored value's `notifications` is ignored.) Pure parsing, so a corrupt stored value falls back
 * to defaults.
 */
import * as z from "zod/mini";

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

// zod/mini: this runs in the browser (the profile page), where the full library would cost ~20 KB.
export const localPreferencesSchema = z.object({
  timezone: z.catch(z.enum(TIMEZONES.map((t) => t.value) as [string, ...string[]]), "America/New_York"),
  language: z.catch(z.enum(LANGUAGES.map((l) => l.value) as [string, ...string[]]), "en"),
});

export type LocalPreferences = z.infer<typeof localPreferencesSchema>;

export const LOCAL_PREFERENCES_KEY = "portico.profile.preferences";

export const DEFAULT_LOCAL_PREFERENCES: LocalPreferences = localPreferencesSchema.parse({});

export function parseLocalPreferences(raw: string | null): LocalPreferences {
  if (!raw) return DEFAULT_LOCAL_PREFERENCES;
  try {
    return localPreferencesSchema.parse(JSON.parse(raw));
  } catch {
    return DEFAULT_LOCAL_PREFERENCES;
  }
}
