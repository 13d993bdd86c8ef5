import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatMoney, monthLabel } from "./format";

describe("back-office formatting", () => {
  it("formats money in its currency", () => {
    expect(formatMoney(1234.5)).toBe("$1,234.50");
    expect(formatMoney(10, "EUR")).toBe("€10.00");
  });
  it("prints UTC dates the same everywhere", () => {
    expect(formatDateTime("2026-03-04T05:06:07Z")).toBe("2026-03-04 05:06 UTC");
    expect(formatDate(new Date("2026-03-04T23:59:00Z"))).toBe("2026-03-04");
    expect(formatDate(null)).toBe("—");
    expect(monthLabel("2026-11")).toBe("Nov 2026");
  });
});
