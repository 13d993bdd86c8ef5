import { describe, expect, it } from "vitest";
import { isHoneypotFilled } from "./honeypot";

describe("isHoneypotFilled", () => {
  it("catches any non-blank value", () => {
    expect(isHoneypotFilled("https://spam.example")).toBe(true);
    expect(isHoneypotFilled(" x ")).toBe(true);
  });

  it("lets people through: the field absent, empty or blank", () => {
    expect(isHoneypotFilled(undefined)).toBe(false);
    expect(isHoneypotFilled(null)).toBe(false);
    expect(isHoneypotFilled("")).toBe(false);
    expect(isHoneypotFilled("   ")).toBe(false);
  });
});
