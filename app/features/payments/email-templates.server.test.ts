import { describe, expect, it } from "vitest";
import { formatMoney } from "~/features/money/format";
import { paymentReceiptEmail } from "./email-templates.server";

const business = {
  name: "Portico IT Services",
  legalName: "Portico IT Services",
  email: "support@portico.example",
  phone: "+1 (555) 010-2030",
  whatsapp: "15550102030",
  address: "100 Main Street",
  hours: { weekdays: "", saturday: "", sunday: "", emergency: "" },
  social: {},
} as never;

describe("paymentReceiptEmail", () => {
  it("writes the amount with the page's formatter: symbol and the currency's own style", () => {
    const receipt = (currency: string, total: number) =>
      paymentReceiptEmail({
        business,
        publicUrl: "https://portico.example",
        name: "Emmy",
        invoiceId: "i1",
        invoiceNumber: "INV-2026-0009",
        description: "SSL & HTTPS Setup — Single Domain",
        total,
        currency,
        amountUsd: 15,
        paidAt: new Date("2026-01-02T00:00:00Z"),
      });
    const eur = receipt("EUR", 1234.5);
    expect(formatMoney(1234.5, "EUR")).toBe("1.234,50\u00a0€");
    expect(eur.text).toContain("We received 1.234,50\u00a0€ ($15.00) for invoice INV-2026-0009");
    expect(eur.html).toContain("1.234,50\u00a0€");
    expect(receipt("INR", 1248.75).text).toContain("We received ₹1,248.75 ($15.00)");
    expect(receipt("KRW", 19950).text).toContain("We received ₩19,950 ($15.00)");
    expect(receipt("USD", 15).text).toContain("We received $15.00 for invoice");
  });

  it("writes the day of the payment in the client's timezone", () => {
    const at = (timeZone?: "America/Los_Angeles" | "America/New_York") =>
      paymentReceiptEmail({
        business,
        publicUrl: "https://portico.example",
        name: "Emmy",
        invoiceId: "i1",
        invoiceNumber: "INV-2026-0009",
        description: "SSL & HTTPS Setup — Single Domain",
        total: 15,
        currency: "USD",
        amountUsd: 15,
        paidAt: new Date("2026-03-01T03:30:00Z"),
        timeZone,
      });
    expect(at("America/Los_Angeles").text).toContain("for invoice INV-2026-0009 on Feb 28, 2026.");
    expect(at("America/Los_Angeles").html).toContain("on Feb 28, 2026");
    expect(at("America/New_York").text).toContain("on Feb 28, 2026.");
    expect(at().text).toContain("on Mar 1, 2026.");
  });
});
