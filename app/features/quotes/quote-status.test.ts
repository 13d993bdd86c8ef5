import { describe, expect, it } from "vitest";
import { quoteStatuses } from "~/db/schema";
import { isAcceptable, shownQuoteStatus } from "./quote-status";

describe("quote validity", () => {
  it("a sent quote is acceptable through its valid-until day (UTC), and nothing else is", () => {
    const day = new Date("2026-12-01T23:59:59Z");
    expect(isAcceptable("sent", "2026-12-01", day)).toBe(true);
    expect(isAcceptable("sent", "2026-11-30", day)).toBe(false);
    for (const status of ["draft", "accepted", "declined", "expired", "superseded"]) {
      expect(isAcceptable(status, "2027-01-01", day)).toBe(false);
    }
  });

  it("shows a sent quote past its valid-until day (UTC) as expired, and every other status as stored", () => {
    const day = new Date("2026-12-01T23:59:59Z");
    expect(shownQuoteStatus({ status: "sent", validUntil: "2026-12-01" }, day)).toBe("sent");
    expect(shownQuoteStatus({ status: "sent", validUntil: "2026-11-30" }, day)).toBe("expired");
    for (const status of quoteStatuses.filter((s) => s !== "sent")) {
      expect(shownQuoteStatus({ status, validUntil: "2026-11-30" }, day)).toBe(status);
    }
  });
});
