import { describe, expect, it } from "vitest";
import { TIME_ZONES } from "~/ui/format";
import {
  accountLocaleOf,
  DEFAULT_ACCOUNT_LOCALE,
  LANGUAGES,
  parseLocalPreferences,
  TIMEZONES,
} from "./account-locale";

describe("the account's timezone and language", () => {
  it("reads a never-saved account as the spec's defaults, New York and English", () => {
    expect(accountLocaleOf({ timeZone: null, language: null })).toEqual({
      timeZone: "America/New_York",
      language: "en",
      saved: false,
    });
    expect(DEFAULT_ACCOUNT_LOCALE).toEqual({ timeZone: "America/New_York", language: "en" });
  });

  it("keeps every offered choice and repairs one no longer offered", () => {
    for (const { value } of TIMEZONES) {
      expect(accountLocaleOf({ timeZone: value, language: "fr" })).toEqual({
        timeZone: value,
        language: "fr",
        saved: true,
      });
      expect(TIME_ZONES).toContain(value);
    }
    for (const { value } of LANGUAGES)
      expect(accountLocaleOf({ timeZone: null, language: value }).language).toBe(value);
    expect(accountLocaleOf({ timeZone: "Asia/Kathmandu", language: "fr" }).timeZone).toBe("Asia/Kathmandu");
    expect(accountLocaleOf({ timeZone: "Europe/Narnia", language: "de" })).toEqual({
      timeZone: "America/New_York",
      language: "en",
      saved: true,
    });
  });
});

describe("parseLocalPreferences (an older browser-held choice)", () => {
  it("reads nothing from an empty or corrupt store", () => {
    const none = { timeZone: null, language: null };
    expect(parseLocalPreferences(null)).toEqual(none);
    expect(parseLocalPreferences("{not json")).toEqual(none);
    expect(parseLocalPreferences("")).toEqual(none);
    expect(parseLocalPreferences("{}")).toEqual(none);
    expect(parseLocalPreferences("null")).toEqual(none);
  });

  it("reads stored values and drops corrupt ones field by field", () => {
    const stored = JSON.stringify({
      timezone: "America/Denver",
      language: "klingon",
      // Stored by an older version: the switches are saved with the account now, so this is dropped.
      notifications: { smsNotifications: true },
    });
    expect(parseLocalPreferences(stored)).toEqual({ timeZone: "America/Denver", language: null });
    for (const { value } of LANGUAGES) {
      expect(parseLocalPreferences(JSON.stringify({ language: value })).language).toBe(value);
    }
  });
});
