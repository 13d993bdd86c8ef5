import { describe, expect, it } from "vitest";
import { daysPhrase, daysUntil, foldFindings, formatDay, worstVerdict } from "./report";

describe("verdicts and reasons", () => {
  it("takes the worst verdict; not-checked never hides a warning", () => {
    expect(worstVerdict([])).toBe("ok");
    expect(worstVerdict(["ok", "not-checked"])).toBe("not-checked");
    expect(worstVerdict(["not-checked", "warning", "ok"])).toBe("warning");
    expect(worstVerdict(["warning", "problem", "not-checked"])).toBe("problem");
  });

  it("folds findings into one reason, the worst first, or one sentence when all is well", () => {
    const folded = foldFindings(
      [
        { verdict: "ok", reason: "It is valid until 1 May" },
        { verdict: "problem", reason: "It is for another name" },
        { verdict: "warning", reason: "It is old." },
      ],
      { n: 1 },
      "All good",
    );
    expect(folded).toEqual({
      verdict: "problem",
      reason: "It is for another name. It is old. It is valid until 1 May.",
      details: { n: 1 },
    });
    expect(foldFindings([{ verdict: "ok", reason: "a" }], null, "All good").reason).toBe("All good.");
    expect(foldFindings([{ verdict: "ok", reason: "a" }], null).reason).toBe("a.");
  });

  it("counts whole days down and words them", () => {
    const now = new Date("2026-11-28T12:00:00Z");
    expect(daysUntil(new Date("2026-11-29T11:00:00Z"), now)).toBe(0);
    expect(daysUntil(new Date("2026-11-29T12:00:00Z"), now)).toBe(1);
    expect(daysUntil(new Date("2026-11-28T11:00:00Z"), now)).toBe(-1);
    expect(daysPhrase(0)).toBe("today");
    expect(daysPhrase(1)).toBe("in 1 day");
    expect(daysPhrase(12)).toBe("in 12 days");
    expect(daysPhrase(-2)).toBe("2 days ago");
    expect(formatDay(new Date("2027-01-05T23:30:00Z"))).toBe("5 January 2027");
  });
});
