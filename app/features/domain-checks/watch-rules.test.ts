import { describe, expect, it } from "vitest";
import { DAY_MS, domainWatchStates, listLimit, nextCheckAt, WEEK_MS, watchAllowance } from "./watch-rules";

describe("watchAllowance", () => {
  it("gives a client without a live plan their first domain weekly", () => {
    expect(watchAllowance([])).toEqual({ domains: 1, cadence: "weekly", planName: null });
    expect(watchAllowance([{ status: "suspended", planName: "Care Pro", watchedDomains: 5 }])).toMatchObject({
      domains: 1,
      cadence: "weekly",
    });
    expect(watchAllowance([{ status: "active", planName: "Care Lite", watchedDomains: 0 }]).cadence).toBe(
      "weekly",
    );
  });

  it("gives an active or past-due plan its count, daily, summed over plans", () => {
    expect(
      watchAllowance([
        { status: "active", planName: "Care Essentials", watchedDomains: 3 },
        { status: "past_due", planName: "Care Pro", watchedDomains: 2 },
        { status: "cancelled", planName: "Care Old", watchedDomains: 9 },
      ]),
    ).toEqual({ domains: 5, cadence: "daily", planName: "Care Essentials and Care Pro" });
  });
});

describe("domainWatchStates", () => {
  it("watches the first ones and pauses the rest with a reason", () => {
    const plan = domainWatchStates(3, { domains: 2, cadence: "daily", planName: "Care Essentials" });
    expect(plan.slice(0, 2)).toEqual([
      { kind: "watched", cadence: "daily", intervalMs: DAY_MS },
      { kind: "watched", cadence: "daily", intervalMs: DAY_MS },
    ]);
    expect(plan[2]).toEqual({
      kind: "paused",
      why: "Paused: your Care Essentials plan watches 2 domains. Remove another domain or choose a larger plan to watch this one.",
    });
    const none = domainWatchStates(2, { domains: 1, cadence: "weekly", planName: null });
    expect(none[0]).toEqual({ kind: "watched", cadence: "weekly", intervalMs: WEEK_MS });
    expect(none[1]).toMatchObject({ kind: "paused", why: expect.stringMatching(/without a care plan/) });
  });

  it("lets a client list 20 domains, or their plan's count if larger", () => {
    expect(listLimit({ domains: 1, cadence: "weekly", planName: null })).toBe(20);
    expect(listLimit({ domains: 50, cadence: "daily", planName: "Big" })).toBe(50);
  });
});

describe("nextCheckAt", () => {
  it("adds the interval and up to a tenth of it as jitter", () => {
    const from = new Date("2027-01-01T00:00:00Z");
    expect(nextCheckAt(from, DAY_MS, () => 0).getTime()).toBe(from.getTime() + DAY_MS);
    expect(nextCheckAt(from, DAY_MS, () => 0.999).getTime()).toBeLessThan(from.getTime() + DAY_MS * 1.1);
    expect(nextCheckAt(from, DAY_MS, () => 0.5).getTime()).toBe(from.getTime() + DAY_MS + DAY_MS * 0.05);
  });
});
