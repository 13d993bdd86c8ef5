import { describe, expect, it } from "vitest";
import { LANGUAGES, NOTIFICATION_SWITCHES, parseLocalPreferences, TIMEZONES } from "./local-preferences";

describe("parseLocalPreferences", () => {
  it("gives a first-time visitor the same settings as a corrupt store", () => {
    expect(parseLocalPreferences(null)).toEqual(parseLocalPreferences("{not json"));
    expect(parseLocalPreferences("")).toEqual(parseLocalPreferences("{}"));
  });

  it("keeps every choice the profile screen offers, after a round trip through storage", () => {
    const base = parseLocalPreferences(null);
    for (const { value } of TIMEZONES) {
      expect(parseLocalPreferences(JSON.stringify({ ...base, timezone: value })).timezone).toBe(value);
    }
    for (const { value } of LANGUAGES) {
      expect(parseLocalPreferences(JSON.stringify({ ...base, language: value })).language).toBe(value);
    }
    for (const { key } of NOTIFICATION_SWITCHES) {
      const flipped = { ...base, notifications: { ...base.notifications, [key]: !base.notifications[key] } };
      expect(parseLocalPreferences(JSON.stringify(flipped))).toEqual(flipped);
    }
  });

  it("reads stored values and repairs corrupt ones field by field", () => {
    const defaults = parseLocalPreferences(null);
    const stored = JSON.stringify({
      timezone: "America/Denver",
      language: "klingon",
      notifications: { smsNotifications: !defaults.notifications.smsNotifications, orderUpdates: "yes" },
    });
    expect(parseLocalPreferences(stored)).toEqual({
      timezone: "America/Denver",
      language: defaults.language,
      notifications: {
        ...defaults.notifications,
        smsNotifications: !defaults.notifications.smsNotifications,
      },
    });
  });
});
