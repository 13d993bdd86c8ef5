import { describe, expect, it } from "vitest";
import { formatMoney } from "~/features/money/format";
import { monthLabel } from "./month-label";

describe("back-office formatting", () => {
  it("formats money as the portal and the emails do, in its currency's own format", () => {
    expect(formatMoney(1234.5, "USD")).toBe("$1,234.50");
    expect(formatMoney(10, "EUR")).toBe("10,00\u00a0€");
  });
  it("names a month", () => {
    // The back office's dates ("2026-03-04", "2026-03-04 05:06 UTC") are app/ui/format.ts's (format.test.ts).
    expect(monthLabel("2026-11")).toBe("Nov 2026");
  });
});
