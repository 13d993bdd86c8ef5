/**
 * Profile settings the spec keeps in the browser only (client-portal.md §2, Profile): timezone,
 * language and notification switches. Pure parsing, so a corrupt stored value falls back to defaults.
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

export const NOTIFICATION_SWITCHES = [
  { key: "emailNotifications", label: "Email notifications", description: "Receive updates by email" },
  {
    key: "smsNotifications",
    label: "SMS notifications",
    description: "Receive urgent updates by text message",
  },
  { key: "orderUpdates", label: "Order updates", description: "When an order changes status" },
  { key: "marketingEmails", label: "Marketing emails", description: "News and offers" },
  { key: "securityAlerts", label: "Security alerts", description: "Sign-ins and password changes" },
] as const;

const DEFAULT_NOTIFICATIONS = {
  emailNotifications: true,
  smsNotifications: false,
  orderUpdates: true,
  marketingEmails: false,
  securityAlerts: true,
};

// zod/mini: this runs in the browser (the profile page), where the full library would cost ~20 KB.
export const localPreferencesSchema = z.object({
  timezone: z.catch(z.enum(TIMEZONES.map((t) => t.value) as [string, ...string[]]), "America/New_York"),
  language: z.catch(z.enum(LANGUAGES.map((l) => l.value) as [string, ...string[]]), "en"),
  notifications: z.catch(
    z.object({
      emailNotifications: z.catch(z.boolean(), true),
      smsNotifications: z.catch(z.boolean(), false),
      orderUpdates: z.catch(z.boolean(), true),
      marketingEmails: z.catch(z.boolean(), false),
      securityAlerts: z.catch(z.boolean(), true),
    }),
    DEFAULT_NOTIFICATIONS,
  ),
});

export type LocalPreferences = z.infer<typeof localPreferencesSchema>;

export const LOCAL_PREFERENCES_KEY = "portico.profile.preferences";

export const DEFAULT_LOCAL_PREFERENCES: LocalPreferences = localPreferencesSchema.parse({
  notifications: {},
});

export function parseLocalPreferences(raw: string | null): LocalPreferences {
  if (!raw) return DEFAULT_LOCAL_PREFERENCES;
  try {
    return localPreferencesSchema.parse(JSON.parse(raw));
  } catch {
    return DEFAULT_LOCAL_PREFERENCES;
  }
}
