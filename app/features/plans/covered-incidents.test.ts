import { describe, expect, it } from "vitest";
import { COVERED_MESSAGES, incidentsLeftText } from "./covered-incidents";

describe("covered incidents' words", () => {
  it("says how many incidents are left of the period's allowance", () => {
    expect(incidentsLeftText(3, 3)).toBe("3 of 3 incidents left this period");
    expect(incidentsLeftText(1, 1)).toBe("1 of 1 incident left this period");
    expect(incidentsLeftText(0, 2)).toBe("0 of 2 incidents left this period");
  });

  it("names the plan in each refusal that concerns it", () => {
    expect(COVERED_MESSAGES.noneLeft).toBe("No covered incidents are left this period");
    expect(COVERED_MESSAGES.notCovering("Care Plus", "suspended until its invoice is paid")).toBe(
      "Care Plus is suspended until its invoice is paid: it covers no incidents now.",
    );
    expect(COVERED_MESSAGES.unpaid("Care Plus")).toContain("Care Plus is not paid yet");
  });
});
