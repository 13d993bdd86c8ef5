import { describe, expect, it } from "vitest";
import {
  dateFormatter,
  dateFormatterCount,
  formatCount,
  formatDate,
  formatDateTime,
  formatMoment,
  formatTime,
  TIME_ZONES,
  timeZoneOf,
} from "./format";

describe("date and count formatting", () => {
  it("writes a date in UTC in each style, the same on server and browser", () => {
    const lateEvening = new Date("2026-03-04T23:59:00Z");
    expect(formatDate(lateEvening)).toBe("Mar 4, 2026");
    expect(formatDate("2026-03-05T00:00:00Z", "long")).toBe("March 5, 2026");
    expect(formatDate(lateEvening, "iso")).toBe("2026-03-04");
    expect(formatDateTime("2026-03-04T05:06:07Z")).toBe("Mar 4, 2026, 05:06 UTC");
    expect(formatMoment("2026-03-04T17:06:07Z")).toBe("Mar 4, 2026, 17:06 UTC");
  });

  it("writes a moment in the client's zone: the day and the time move with it", () => {
    const moment = "2026-03-01T03:30:00Z";
    expect(formatDate(moment, "medium", "America/Los_Angeles")).toBe("Feb 28, 2026");
    expect(formatDate(moment, "long", "America/New_York")).toBe("February 28, 2026");
    expect(formatDate(moment, "iso", "America/Chicago")).toBe("2026-02-28");
    expect(formatDate(moment, "medium", "UTC")).toBe("Mar 1, 2026");
    expect(formatMoment(moment, "America/New_York")).toBe("Feb 28, 2026, 22:30 EST");
    expect(formatMoment(moment, "America/Chicago")).toBe("Feb 28, 2026, 21:30 CST");
    expect(formatMoment(moment, "America/Denver")).toBe("Feb 28, 2026, 20:30 MST");
    expect(formatMoment(moment, "America/Los_Angeles")).toBe("Feb 28, 2026, 19:30 PST");
    // Summer time has its own abbreviation; midnight is 00, not 24.
    expect(formatMoment("2026-07-01T04:00:00Z", "America/New_York")).toBe("Jul 1, 2026, 00:00 EDT");
    expect(formatTime("2026-07-01T04:00:00Z", "America/Los_Angeles")).toBe("21:00 PDT");
  });

  it("shows an unknown zone in the seller's (UTC) rather than failing", () => {
    expect(timeZoneOf("Europe/Narnia")).toBe("UTC");
    expect(timeZoneOf("x".repeat(100))).toBe("UTC");
    // Any zone the engine knows (issue 37: the profile offers every one), under the engine's name for it.
    expect(timeZoneOf("Europe/Paris")).toBe("Europe/Paris");
    expect(formatMoment("2026-03-01T03:30:00Z", "Asia/Kathmandu")).toBe("Mar 1, 2026, 09:15 GMT+5:45");
    expect(timeZoneOf(null)).toBe("UTC");
    expect(timeZoneOf("America/Denver")).toBe("America/Denver");
    expect(formatMoment("2026-03-01T03:30:00Z", "Mars/Olympus" as never)).toBe("Mar 1, 2026, 03:30 UTC");
  });

  it("writes a dash when there is no date", () => {
    expect(formatDate(null)).toBe("—");
    expect(formatDate(undefined, "iso")).toBe("—");
    expect(formatDateTime(null)).toBe("—");
    expect(formatMoment(null)).toBe("—");
    expect(formatMoment("", "America/Denver")).toBe("—");
  });

  it("builds one formatter per kind and zone, reuses it, and never holds more than the fixed lists", () => {
    // A kind and zone no other test has used yet, so its formatter is built here.
    const before = dateFormatterCount();
    const first = dateFormatter("numeric", "America/Denver");
    expect(dateFormatter("numeric", "America/Denver")).toBe(first);
    expect(dateFormatterCount()).toBe(before + 1);
    expect(dateFormatter("numeric", "America/Los_Angeles")).not.toBe(first);
    expect(dateFormatterCount()).toBe(before + 2);

    for (let i = 0; i < 100; i++) {
      for (const zone of TIME_ZONES) {
        const day = new Date(Date.UTC(2026, 0, 1 + i, i % 24));
        formatDate(day, "medium", zone);
        formatDate(day, "long", zone);
        formatDate(day, "iso", zone);
        formatMoment(day, zone);
      }
    }
    // medium, long, numeric and time in five zones at most, however many dates were written.
    const all = dateFormatterCount();
    // (and Asia/Kathmandu, written by a test above: the cache grows by zone used, not by date)
    expect(all).toBeLessThanOrEqual(4 * (TIME_ZONES.length + 1));
    for (let i = 0; i < 100; i++) formatMoment(new Date(Date.UTC(2026, 5, 1 + i)), "America/Los_Angeles");
    expect(dateFormatterCount()).toBe(all);
    expect(dateFormatter("time", "America/Los_Angeles")).toBe(dateFormatter("time", "America/Los_Angeles"));
  });

  it("groups thousands in counts", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(10_000)).toBe("10,000");
  });
});
