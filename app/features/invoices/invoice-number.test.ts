import { describe, expect, it } from "vitest";
import { dueDateFor, invoiceNumberFor, invoiceStatusTone } from "./invoice-number";

describe("invoice numbers", () => {
  it("pads the yearly sequence to four digits", () => {
    expect(invoiceNumberFor(2026, 1)).toBe("INV-2026-0001");
    expect(invoiceNumberFor(2026, 42)).toBe("INV-2026-0042");
    expect(invoiceNumberFor(2027, 12345)).toBe("INV-2027-12345");
  });
  it("dates the due date by the term", () => {
    expect(dueDateFor(new Date("2026-01-30T10:00:00Z"), 7).toISOString()).toBe("2026-02-06T10:00:00.000Z");
  });
  it("shows paid green and every other status red", () => {
    expect(invoiceStatusTone("paid")).toBe("paid");
    expect(invoiceStatusTone("sent")).toBe("unpaid");
    expect(invoiceStatusTone("overdue")).toBe("unpaid");
  });
});
