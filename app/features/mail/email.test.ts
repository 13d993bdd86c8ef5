import { describe, expect, it } from "vitest";
import { retryDelayMs } from "./email";

describe("retryDelayMs", () => {
  it("doubles from the base delay with each failed attempt", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000]);
  });

  it("never waits more than six hours", () => {
    expect(retryDelayMs(30, 30_000)).toBe(6 * 60 * 60 * 1000);
  });
});
