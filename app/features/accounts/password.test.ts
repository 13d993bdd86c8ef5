import { describe, expect, it } from "vitest";
import {
  PASSWORD_MESSAGES,
  passwordChecklist,
  passwordError,
  passwordErrors,
  passwordStrength,
} from "./password";

describe("passwordError", () => {
  it.each([
    ["Ab1!", PASSWORD_MESSAGES.length],
    ["abcdefg1!", PASSWORD_MESSAGES.uppercase],
    ["ABCDEFG1!", PASSWORD_MESSAGES.lowercase],
    ["Abcdefgh!", PASSWORD_MESSAGES.number],
    ["Abcdefgh1", PASSWORD_MESSAGES.special],
    ["", PASSWORD_MESSAGES.length],
  ])("%j → %s", (password, message) => {
    expect(passwordError(password)).toBe(message);
  });

  it("accepts a password meeting every rule", () => {
    expect(passwordError("Correct-Horse1")).toBeNull();
    expect(passwordErrors("Correct-Horse1")).toEqual([]);
  });

  it("lists every broken rule in the spec's order", () => {
    expect(passwordErrors("abc")).toEqual([
      PASSWORD_MESSAGES.length,
      PASSWORD_MESSAGES.uppercase,
      PASSWORD_MESSAGES.number,
      PASSWORD_MESSAGES.special,
    ]);
  });

  it("refuses the common passwords, whatever their case", () => {
    for (const p of ["password", "PASSWORD123", "Qwerty", "abc123", "123456", "123456789"]) {
      expect(passwordErrors(p)).toContain(PASSWORD_MESSAGES.common);
    }
  });

  it("does not count white space as a special character", () => {
    expect(passwordError("Abcdefg1 ")).toBe(PASSWORD_MESSAGES.special);
  });
});

describe("passwordStrength", () => {
  it("is weak when any rule is broken", () => {
    expect(passwordStrength("abc")).toBe("weak");
    expect(passwordStrength("Abcdefgh1")).toBe("weak");
  });
  it("is medium when valid", () => {
    expect(passwordStrength("Abcdefg1!")).toBe("medium");
    // 12 characters but only one special character
    expect(passwordStrength("Abcdefghij1!")).toBe("medium");
    // two special characters but only 11 characters
    expect(passwordStrength("Abcdefgh1!?")).toBe("medium");
  });
  it("is strong when valid, 12+ characters and 2+ special characters", () => {
    expect(passwordStrength("Abcdefghi1!?")).toBe("strong");
  });
});

describe("passwordChecklist", () => {
  it("lists every rule, none marked, before anything is typed", () => {
    const list = passwordChecklist("");
    expect(list.map((r) => r.key)).toEqual([
      "length",
      "uppercase",
      "lowercase",
      "number",
      "special",
      "common",
    ]);
    expect(list.every((r) => r.met === null)).toBe(true);
  });
  it("marks what is typed, and never ticks 'not common' (the server's list is longer)", () => {
    const marks = Object.fromEntries(passwordChecklist("abc").map((r) => [r.key, r.met]));
    expect(marks).toEqual({
      length: false,
      uppercase: false,
      lowercase: true,
      number: false,
      special: false,
      common: null,
    });
    expect(passwordChecklist("Correct-Horse1").find((r) => r.key === "common")!.met).toBeNull();
    expect(passwordChecklist("Password123").find((r) => r.key === "common")!.met).toBe(false);
  });
});
