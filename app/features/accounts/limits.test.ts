import { describe, expect, it } from "vitest";
import { ACCOUNT_LIMITS, ACCOUNT_SIGN_IN_SLOWDOWN, betterAuthRateRules, signInDelayMs } from "./limits";

describe("betterAuthRateRules", () => {
  it("gives every endpoint the limit of the form in front of it", () => {
    const rules = betterAuthRateRules();
    for (const limit of Object.values(ACCOUNT_LIMITS)) {
      for (const path of limit.endpoints) {
        expect(rules[path]).toEqual({ window: limit.windowMs / 1000, max: limit.max });
      }
    }
  });

  it("covers sign-in, sign-up, verification resends, both halves of a password reset, two-factor and the deletion's password check", () => {
    expect(Object.keys(betterAuthRateRules()).sort()).toEqual([
      "/change-password",
      "/request-password-reset",
      "/reset-password",
      "/send-verification-email",
      "/sign-in/email",
      "/sign-up/email",
      "/two-factor/disable",
      "/two-factor/enable",
      "/two-factor/generate-backup-codes",
      "/two-factor/verify-backup-code",
      "/two-factor/verify-totp",
      "/verify-password",
    ]);
  });
});

describe("signInDelayMs (per-account slow-down)", () => {
  it("costs nothing for the first failures, then doubles up to a ceiling", () => {
    const free = ACCOUNT_SIGN_IN_SLOWDOWN.freeFailures;
    for (let f = 0; f < free; f++) expect(signInDelayMs(f)).toBe(0);
    expect(signInDelayMs(free)).toBe(1000);
    expect(signInDelayMs(free + 1)).toBe(2000);
    expect(signInDelayMs(free + 2)).toBe(4000);
    expect(signInDelayMs(free + 3)).toBe(8000);
    expect(signInDelayMs(free + 50)).toBe(ACCOUNT_SIGN_IN_SLOWDOWN.maxDelayMs);
  });
});
