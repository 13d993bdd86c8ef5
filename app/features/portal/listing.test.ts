import { describe, expect, it } from "vitest";
import { badgeText } from "./listing";

describe("rules", () => {
  it("the badge shows 9+ above nine", () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(9)).toBe("9");
    expect(badgeText(10)).toBe("9+");
  });
});
