import { describe, expect, it } from "vitest";
import {
  addDays,
  addMonthsClamped,
  cardExpiredBy,
  daysBetween,
  isCalendarDay,
  periodContaining,
  periodStart,
  planPeriod,
  renewalIssueDay,
} from "./periods";

describe("periods anchored to the start day", () => {
  it("a monthly plan started on 31 January renews on the month's last day, then on the 31st again", () => {
    const starts = Array.from({ length: 14 }, (_, i) => periodStart("2027-01-31", "monthly", i));
    expect(starts).toEqual([
      "2027-01-31",
      "2027-02-28",
      "2027-03-31",
      "2027-04-30",
      "2027-05-31",
      "2027-06-30",
      "2027-07-31",
      "2027-08-31",
      "2027-09-30",
      "2027-10-31",
      "2027-11-30",
      "2027-12-31",
      "2028-01-31",
      "2028-02-29",
    ]);
  });

  it("a plan started on the 30th keeps the 30th after February", () => {
    expect(periodStart("2027-01-30", "monthly", 1)).toBe("2027-02-28");
    expect(periodStart("2027-01-30", "monthly", 2)).toBe("2027-03-30");
  });

  it("a yearly plan started on 29 February renews on 28 February, and on the 29th in a leap year", () => {
    expect(periodStart("2028-02-29", "yearly", 1)).toBe("2029-02-28");
    expect(periodStart("2028-02-29", "yearly", 3)).toBe("2031-02-28");
    expect(periodStart("2028-02-29", "yearly", 4)).toBe("2032-02-29");
  });

  it("a period ends where the next begins", () => {
    expect(planPeriod("2027-01-31", "monthly", 1)).toEqual({
      index: 1,
      start: "2027-02-28",
      end: "2027-03-31",
    });
    expect(planPeriod("2027-06-15", "yearly", 0)).toEqual({
      index: 0,
      start: "2027-06-15",
      end: "2028-06-15",
    });
  });

  it("finds the period containing a day, on its first and last days", () => {
    expect(periodContaining("2027-01-31", "monthly", "2027-03-30").index).toBe(1);
    expect(periodContaining("2027-01-31", "monthly", "2027-03-31").index).toBe(2);
    expect(periodContaining("2027-01-31", "monthly", "2027-01-31").index).toBe(0);
    expect(periodContaining("2027-01-31", "monthly", "2026-12-01").index).toBe(0);
    expect(periodContaining("2028-02-29", "yearly", "2029-02-27").index).toBe(0);
    expect(periodContaining("2028-02-29", "yearly", "2029-02-28").index).toBe(1);
    // Every day of 30 months falls in the period whose bounds hold it.
    for (let d = 0; d < 900; d++) {
      const day = addDays("2027-01-31", d);
      const period = periodContaining("2027-01-31", "monthly", day);
      expect(period.start <= day && day < period.end, `${day} in ${period.start}..${period.end}`).toBe(true);
    }
  });

  it("issues the renewal invoice the notice's days before the period, never before the previous began", () => {
    expect(renewalIssueDay("2027-01-31", "monthly", 1, 7)).toBe("2027-02-21");
    expect(renewalIssueDay("2027-01-31", "monthly", 2, 7)).toBe("2027-03-24");
    expect(renewalIssueDay("2027-01-31", "monthly", 1, 60)).toBe("2027-01-31");
    expect(renewalIssueDay("2027-01-31", "monthly", 1, 0)).toBe("2027-02-28");
    expect(() => renewalIssueDay("2027-01-31", "monthly", 0, 7)).toThrow(RangeError);
  });
});

describe("calendar days", () => {
  it("adds months across years, forwards and back", () => {
    expect(addMonthsClamped("2027-11-30", 3)).toBe("2028-02-29");
    expect(addMonthsClamped("2027-03-31", -1)).toBe("2027-02-28");
    expect(addMonthsClamped("2027-01-15", -13)).toBe("2025-12-15");
  });

  it("adds days and counts them across a leap day", () => {
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
    expect(daysBetween("2028-02-01", "2028-03-01")).toBe(29);
    expect(daysBetween("2027-03-01", "2027-02-01")).toBe(-28);
  });

  it("refuses what is not a calendar day", () => {
    for (const bad of ["2027-02-29", "2027-13-01", "2027-1-01", "27-01-01", "", "2027-01-32"]) {
      expect(isCalendarDay(bad), bad).toBe(false);
      expect(() => addDays(bad, 1)).toThrow(RangeError);
    }
    expect(isCalendarDay("2028-02-29")).toBe(true);
    expect(() => periodStart("2027-01-01", "monthly", -1)).toThrow(RangeError);
    expect(() => periodStart("2027-01-01", "monthly", 1.5)).toThrow(RangeError);
  });

  it("a card is valid through the last day of its expiry month", () => {
    expect(cardExpiredBy(2, 2028, "2028-02-29")).toBe(false);
    expect(cardExpiredBy(2, 2028, "2028-03-01")).toBe(true);
    expect(cardExpiredBy(12, 2027, "2028-01-01")).toBe(true);
    expect(cardExpiredBy(1, 2029, "2028-12-31")).toBe(false);
  });
});
