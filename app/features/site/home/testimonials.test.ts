import { describe, expect, it } from "vitest";
import { TESTIMONIALS, wrapIndex } from "./testimonials";

describe("testimonials", () => {
  it("has five five-star testimonials", () => {
    expect(TESTIMONIALS).toHaveLength(5);
    expect(TESTIMONIALS.every((t) => t.rating === 5 && t.text && t.company && t.position)).toBe(true);
  });
  it("wraps around in both directions", () => {
    expect(wrapIndex(4, 1, 5)).toBe(0);
    expect(wrapIndex(0, -1, 5)).toBe(4);
    expect(wrapIndex(2, 1, 5)).toBe(3);
  });
});
