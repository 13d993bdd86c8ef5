import { describe, expect, it } from "vitest";
import { notificationPreferencesSchema } from "./forms";
import {
  type ClientEmailTopic,
  DEFAULT_NOTIFICATION_PREFERENCES,
  emailAllowed,
  NOTIFICATION_KEYS,
  NOTIFICATION_SWITCHES,
  type NotificationPreferences,
} from "./notification-preferences";

const prefs = (changes: Partial<NotificationPreferences>): NotificationPreferences => ({
  ...DEFAULT_NOTIFICATION_PREFERENCES,
  ...changes,
});
const allowed = (p: NotificationPreferences) =>
  (["orderUpdate", "orderMessage", "securityAlert", "invoice", "account"] as ClientEmailTopic[]).filter((t) =>
    emailAllowed(p, t),
  );

describe("notification preferences", () => {
  it("has the spec's defaults and one switch per preference", () => {
    expect(DEFAULT_NOTIFICATION_PREFERENCES).toEqual({
      emailNotifications: true,
      smsNotifications: false,
      orderUpdates: true,
      marketingEmails: false,
      securityAlerts: true,
    });
    expect(NOTIFICATION_SWITCHES.map((s) => s.key)).toEqual([...NOTIFICATION_KEYS]);
    // No text-message provider: only that switch is unavailable.
    expect(NOTIFICATION_SWITCHES.filter((s) => s.unavailable).map((s) => s.key)).toEqual([
      "smsNotifications",
    ]);
  });

  it("lets every email through with the defaults", () => {
    expect(allowed(DEFAULT_NOTIFICATION_PREFERENCES)).toEqual([
      "orderUpdate",
      "orderMessage",
      "securityAlert",
      "invoice",
      "account",
    ]);
  });

  it("stops order and message emails when order updates are off", () => {
    expect(allowed(prefs({ orderUpdates: false }))).toEqual(["securityAlert", "invoice", "account"]);
  });

  it("treats email notifications as the master switch of the optional emails, never of security, invoices or the account", () => {
    expect(allowed(prefs({ emailNotifications: false }))).toEqual(["securityAlert", "invoice", "account"]);
  });

  it("stops only the security alerts when they are off", () => {
    expect(allowed(prefs({ securityAlerts: false }))).toEqual([
      "orderUpdate",
      "orderMessage",
      "invoice",
      "account",
    ]);
  });

  it("changes no email with the switches that are saved only (marketing, text messages)", () => {
    const base = allowed(DEFAULT_NOTIFICATION_PREFERENCES);
    expect(allowed(prefs({ marketingEmails: true, smsNotifications: true }))).toEqual(base);
    expect(allowed(prefs({ marketingEmails: false, smsNotifications: false }))).toEqual(base);
  });

  it("reads the form: a checked box is posted as 'on', an unchecked one not at all", () => {
    expect(notificationPreferencesSchema.parse({ intent: "notifications", orderUpdates: "on" })).toEqual({
      emailNotifications: false,
      smsNotifications: false,
      orderUpdates: true,
      marketingEmails: false,
      securityAlerts: false,
    });
    expect(notificationPreferencesSchema.safeParse({ orderUpdates: "yes please" }).success).toBe(false);
  });
});
