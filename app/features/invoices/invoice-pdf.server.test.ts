import { PDFParse } from "pdf-parse";
import { describe, expect, it } from "vitest";
import { pdfMoney, renderInvoicePdf } from "./invoice-pdf.server";

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

describe("renderInvoicePdf", () => {
  it("makes a PDF whose text holds the number, the client, the line and the total", async () => {
    const pdf = await renderInvoicePdf(
      {
        invoice: {
          id: "i1",
          invoiceNumber: "INV-2026-0007",
          status: "paid",
          currency: "EUR",
          subtotal: 73.6,
          taxRatePercent: 0,
          taxAmount: 0,
          totalAmount: 73.6,
          amountUsd: 80,
          exchangeRate: 0.92,
          dueDate: new Date("2026-01-08T00:00:00Z"),
          paidAt: new Date("2026-01-02T00:00:00Z"),
          createdAt: new Date("2026-01-01T00:00:00Z"),
        },
        order: {
          serviceName: "Email Migration & Setup",
          packageName: "Per Mailbox",
          quantity: 20,
          unitPriceUsd: 4,
          serviceCategory: "Email",
        },
        client: {
          name: "Ada Lovelace",
          email: "ada@example.com",
          phone: null,
          company: "Analytical Engines",
        },
      },
      business,
    );
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const parser = new PDFParse({ data: new Uint8Array(pdf) });
    const { text } = await parser.getText();
    await parser.destroy();
    expect(text).toContain("INV-2026-0007");
    expect(text).toContain("Ada Lovelace");
    expect(text).toContain("Email Migration & Setup");
    expect(text).toContain("73,60 €");
    expect(text).toContain("PAID");
  });

  it("writes symbols Helvetica lacks as the currency code", () => {
    expect(pdfMoney(80, "USD")).toBe("$80.00");
    expect(pdfMoney(6660, "INR")).toBe("INR 6,660.00");
  });
});
