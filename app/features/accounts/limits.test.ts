import { describe, expect, it } from "vitest";
import { ACCOUNT_LIMITS, betterAuthRateRules } from "./limits";

describe("betterAuthRateRules", () => {
  it("gives every endpoint the limit of the form in front of it", () => {
    const rules = betterAuthRateRules();
    for (const limit of Object.values(ACCOUNT_LIMITS)) {
      for (const path of limit.endpoints) {
        expect(rules[path]).toEqual({ window: limit.windowMs / 1000, max: limit.max });
      }
    }
  });

  it("covers sign-in, sign-up, verification resends and both halves of a password reset", () => {
    expect(Object.keys(betterAuthRateRules()).sort()).toEqual([
      "/change-password",
      "/request-password-reset",
      "/reset-password",
      "/send-verification-email",
      "/sign-in/email",
      "/sign-up/email",
    ]);
  });
});
