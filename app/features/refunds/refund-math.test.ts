import { describe, expect, it } from "vitest";
import { invoiceDisplayStatus, invoiceStatusLabel, refundedLine } from "./refund-math";

describe("how a refunded invoice reads", () => {
  it("labels refund states in the words the pages use, other statuses with a capital", () => {
    expect(invoiceStatusLabel("partially_refunded")).toBe("Partially refunded");
    expect(invoiceStatusLabel("refunded")).toBe("Refunded");
    expect(invoiceStatusLabel("paid")).toBe("Paid");
    expect(invoiceStatusLabel("sent")).toBe("Sent");
    expect(invoiceStatusLabel("overdue")).toBe("Overdue");
  });

  it("derives the shown status from the stored one and the refunded amount, exactly in minor units", () => {
    expect(invoiceDisplayStatus("paid", 80, 0, "USD")).toBe("paid");
    expect(invoiceDisplayStatus("paid", 80, 30, "USD")).toBe("partially_refunded");
    expect(invoiceDisplayStatus("paid", 80, 79.99, "USD")).toBe("partially_refunded");
    expect(invoiceDisplayStatus("paid", 80, 80, "USD")).toBe("refunded");
    expect(invoiceDisplayStatus("paid", 0.3, 0.1 + 0.2, "USD")).toBe("refunded");
    expect(invoiceDisplayStatus("sent", 80, 0, "USD")).toBe("sent");
  });

  it("writes the refunded line in the invoice's currency", () => {
    expect(refundedLine(80, 30, "USD")).toBe("$30.00 of $80.00 refunded");
    expect(refundedLine(12000, 2000, "JPY")).toBe("￥2,000 of ￥12,000 refunded");
  });
});
