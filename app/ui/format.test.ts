import { afterEach, describe, expect, it, vi } from "vitest";
import { dateFormatter, formatCount, formatDate, formatDateTime, formatMoment } from "./format";

describe("date and count formatting", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("writes a date in UTC in each style, the same on server and browser", () => {
    const lateEvening = new Date("2026-03-04T23:59:00Z");
    expect(formatDate(lateEvening)).toBe("Mar 4, 2026");
    expect(formatDate("2026-03-05T00:00:00Z", "long")).toBe("March 5, 2026");
    expect(formatDate(lateEvening, "iso")).toBe("2026-03-04");
    expect(formatDateTime("2026-03-04T05:06:07Z")).toBe("2026-03-04 05:06 UTC");
    expect(formatMoment("2026-03-04T17:06:07Z")).toBe("Mar 4, 2026, 17:06 UTC");
  });

  it("writes a dash when there is no date", () => {
    expect(formatDate(null)).toBe("—");
    expect(formatDate(undefined, "iso")).toBe("—");
    expect(formatDateTime(null)).toBe("—");
    expect(formatMoment(null)).toBe("—");
  });

  it("builds one formatter per locale and options, and reuses it", () => {
    const built = vi.spyOn(Intl, "DateTimeFormat");
    // A style no other test has used yet, so its formatter is built here.
    const options = { month: "short", year: "numeric" } as const;
    const first = dateFormatter(options, "en-GB");
    expect(dateFormatter({ ...options }, "en-GB")).toBe(first);
    expect(built).toHaveBeenCalledTimes(1);
    expect(dateFormatter(options, "en-US")).not.toBe(first);
    expect(built).toHaveBeenCalledTimes(2);

    formatDate("2026-01-01");
    formatDate("2026-01-01", "long");
    built.mockClear();
    for (let i = 0; i < 100; i++) {
      formatDate(new Date(Date.UTC(2026, 0, 1 + i)));
      formatDate(new Date(Date.UTC(2026, 0, 1 + i)), "long");
    }
    expect(built).not.toHaveBeenCalled();
  });

  it("groups thousands in counts", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(10_000)).toBe("10,000");
  });
});
