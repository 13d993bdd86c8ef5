import { describe, expect, it } from "vitest";
import { isCommonPassword, serverPasswordError } from "./common-passwords.server";
import { PASSWORD_MESSAGES } from "./password";

describe("the large common-password list", () => {
  it("holds tens of thousands of passwords, checked case-insensitively", () => {
    expect(isCommonPassword("dragon")).toBe(true);
    expect(isCommonPassword("TrustNo1")).toBe(true);
    expect(isCommonPassword("Str0ng!Passw0rd")).toBe(false);
  });

  it("refuses a password that passes every rule but is on the list", () => {
    // 'p@ssw0rd' and 'pa$$w0rd' are on the list; capitalised they meet every character rule.
    expect(serverPasswordError("P@ssw0rd")).toBe(PASSWORD_MESSAGES.common);
    expect(serverPasswordError("Pa$$w0rd")).toBe(PASSWORD_MESSAGES.common);
    expect(serverPasswordError("1qaz@Wsx")).toBe(PASSWORD_MESSAGES.common);
  });

  it("keeps the spec's rules first and accepts a strong password", () => {
    expect(serverPasswordError("short")).toBe(PASSWORD_MESSAGES.length);
    expect(serverPasswordError("Str0ng!Passw0rd")).toBeNull();
  });
});
