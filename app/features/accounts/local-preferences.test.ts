import { describe, expect, it } from "vitest";
import { DEFAULT_LOCAL_PREFERENCES, parseLocalPreferences } from "./local-preferences";

describe("parseLocalPreferences", () => {
  it("has the spec's defaults", () => {
    expect(DEFAULT_LOCAL_PREFERENCES).toEqual({
      timezone: "America/New_York",
      language: "en",
      notifications: {
        emailNotifications: true,
        smsNotifications: false,
        orderUpdates: true,
        marketingEmails: false,
        securityAlerts: true,
      },
    });
  });

  it("reads stored values and repairs corrupt ones field by field", () => {
    const stored = JSON.stringify({
      timezone: "America/Denver",
      language: "klingon",
      notifications: { smsNotifications: true, orderUpdates: "yes" },
    });
    expect(parseLocalPreferences(stored)).toEqual({
      timezone: "America/Denver",
      language: "en",
      notifications: { ...DEFAULT_LOCAL_PREFERENCES.notifications, smsNotifications: true },
    });
    expect(parseLocalPreferences("{not json")).toEqual(DEFAULT_LOCAL_PREFERENCES);
    expect(parseLocalPreferences(null)).toEqual(DEFAULT_LOCAL_PREFERENCES);
  });
});
