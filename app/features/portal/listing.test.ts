import { describe, expect, it } from "vitest";
import { badgeText, isActiveOrder } from "./listing";

describe("rules", () => {
  it("active orders are neither completed nor cancelled", () => {
    expect(["pending", "paid", "in_progress", "completed", "cancelled"].filter(isActiveOrder)).toEqual([
      "pending",
      "paid",
      "in_progress",
    ]);
  });
  it("the badge shows 9+ above nine", () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(9)).toBe("9");
    expect(badgeText(10)).toBe("9+");
  });
});
