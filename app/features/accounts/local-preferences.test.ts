import { describe, expect, it } from "vitest";
import { LANGUAGES, parseLocalPreferences, TIMEZONES } from "./local-preferences";

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
  });

  it("reads stored values and repairs corrupt ones field by field", () => {
    const defaults = parseLocalPreferences(null);
    const stored = JSON.stringify({
      timezone: "America/Denver",
      language: "klingon",
      // Stored by an older version: the switches are saved with the account now, so this is dropped.
      notifications: { smsNotifications: true },
    });
    expect(parseLocalPreferences(stored)).toEqual({
      timezone: "America/Denver",
      language: defaults.language,
    });
  });
});
