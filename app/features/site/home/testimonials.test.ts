import { describe, expect, it } from "vitest";
import { wrapIndex } from "./testimonials";

describe("wrapIndex (the carousel's next and previous)", () => {
  it("wraps past either end", () => {
    expect(wrapIndex(4, 1, 5)).toBe(0);
    expect(wrapIndex(0, -1, 5)).toBe(4);
    expect(wrapIndex(2, 1, 5)).toBe(3);
  });

  it("visits every slide once per round, forwards and backwards", () => {
    for (const step of [1, -1]) {
      const seen: number[] = [];
      let i = 0;
      for (let n = 0; n < 5; n++) {
        seen.push(i);
        i = wrapIndex(i, step, 5);
      }
      expect(new Set(seen).size).toBe(5);
      expect(i).toBe(0);
    }
  });

  it("stays in range for jumps longer than the list", () => {
    expect(wrapIndex(1, 12, 5)).toBe(3);
    expect(wrapIndex(1, -12, 5)).toBe(4);
  });
});
