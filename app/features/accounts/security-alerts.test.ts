import { describe, expect, it } from "vitest";
import { loadConfig } from "~/config.server";
import { securityAlertEmail } from "./email-templates.server";
import {
  ipFamily,
  isUnknownDevice,
  MAX_USER_AGENT_LENGTH,
  type SecurityEvent,
  signInDevice,
} from "./security-alerts";

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Safari/604.1";

describe("ipFamily", () => {
  it("tells IPv4 from IPv6, IPv4-mapped IPv6 counting as IPv4", () => {
    expect(ipFamily("198.51.100.7")).toBe("v4");
    expect(ipFamily("::ffff:198.51.100.7")).toBe("v4");
    expect(ipFamily("2001:db8::1")).toBe("v6");
    expect(ipFamily("::1")).toBe("v6");
    expect(ipFamily(null)).toBe("unknown");
    expect(ipFamily("")).toBe("unknown");
    expect(ipFamily("not an address")).toBe("unknown");
  });
});

describe("isUnknownDevice", () => {
  const laptop = signInDevice(FIREFOX, "198.51.100.7");

  it("is never unknown for a user seen nowhere yet (their first sign-in)", () => {
    expect(isUnknownDevice(laptop, [])).toBe(false);
  });

  it("knows a device by its user agent and address family, whatever the address itself", () => {
    expect(isUnknownDevice(signInDevice(FIREFOX, "203.0.113.9"), [laptop])).toBe(false);
  });

  it("flags another browser, or the same one on the other address family", () => {
    expect(isUnknownDevice(signInDevice(SAFARI, "198.51.100.7"), [laptop])).toBe(true);
    expect(isUnknownDevice(signInDevice(FIREFOX, "2001:db8::1"), [laptop])).toBe(true);
    expect(
      isUnknownDevice(signInDevice(FIREFOX, "2001:db8::1"), [laptop, signInDevice(FIREFOX, "::2")]),
    ).toBe(false);
  });

  it("compares user agents as stored: trimmed and cut to the stored length", () => {
    const long = `${FIREFOX}${"x".repeat(MAX_USER_AGENT_LENGTH)}`;
    expect(signInDevice(long, null).userAgent).toHaveLength(MAX_USER_AGENT_LENGTH);
    expect(isUnknownDevice(signInDevice(`  ${FIREFOX} `, "198.51.100.1"), [laptop])).toBe(false);
    expect(isUnknownDevice(signInDevice(null, null), [laptop])).toBe(true);
  });
});

describe("securityAlertEmail", () => {
  const { business } = loadConfig({});
  const events: SecurityEvent[] = [
    "newSignIn",
    "passwordChanged",
    "twoFactorEnabled",
    "twoFactorDisabled",
    "backupCodesRegenerated",
  ];

  it("says what happened and when, and where to change the password if it was not them", () => {
    for (const event of events) {
      const mail = securityAlertEmail({
        business,
        publicUrl: "https://portico.example",
        name: "Ada",
        event,
        at: new Date("2026-03-04T05:06:07Z"),
      });
      expect(mail.subject).toContain(business.name);
      expect(mail.text).toContain("Hello Ada,");
      expect(mail.text).toContain("When: Mar 4, 2026, 05:06 UTC.");
      expect(mail.text).toContain(
        "If this wasn't you, change your password: https://portico.example/client/profile?tab=security",
      );
      expect(mail.html).toContain("https://portico.example/client/profile?tab=security");
    }
  });

  it("says when in the client's saved timezone", () => {
    const alert = (timeZone: "America/New_York" | "America/Los_Angeles") =>
      securityAlertEmail({
        business,
        publicUrl: "https://portico.example",
        name: "Ada",
        event: "passwordChanged",
        at: new Date("2026-03-01T03:30:00Z"),
        timeZone,
      });
    expect(alert("America/New_York").text).toContain("When: Feb 28, 2026, 22:30 EST.");
    expect(alert("America/Los_Angeles").text).toContain("When: Feb 28, 2026, 19:30 PST.");
    expect(alert("America/Los_Angeles").html).toContain("When: Feb 28, 2026, 19:30 PST.");
  });
});
