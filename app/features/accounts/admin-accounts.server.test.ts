import { describe, expect, it } from "vitest";
import { adminCreateInput, generatePassword } from "./admin-accounts.server";
import { passwordError } from "./password";

describe("admin accounts", () => {
  it("generates passwords that meet the site's rules, different each time", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const pw = generatePassword();
      expect(passwordError(pw)).toBeNull();
      expect(pw.length).toBeGreaterThanOrEqual(20);
      seen.add(pw);
    }
    expect(seen.size).toBe(200);
  });
  it("normalises the address and refuses a bad one", () => {
    expect(adminCreateInput.parse({ email: " Owner@Example.COM " }).email).toBe("owner@example.com");
    expect(adminCreateInput.safeParse({ email: "nope" }).success).toBe(false);
  });
});
