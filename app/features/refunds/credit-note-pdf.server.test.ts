import { PDFParse } from "pdf-parse";
import { describe, expect, it } from "vitest";
import { renderCreditNotePdf } from "./credit-note-pdf.server";
import type { CreditNoteViewInput } from "./credit-note-view";

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

function note(over: Partial<CreditNoteViewInput["creditNote"]> = {}): CreditNoteViewInput {
  return {
    creditNote: {
      id: "n1",
      creditNoteNumber: "CN-2026-0009",
      currency: "INR",
      subtotal: 705.51,
      taxRatePercent: 18,
      taxAmount: 126.99,
      totalAmount: 832.5,
      amountUsd: 10,
      exchangeRate: 83.25,
      reason: "Certificate not needed after all",
      createdAt: new Date("2026-02-03T00:00:00Z"),
      buyer: {
        name: "Ωmega Buyer",
        email: "buyer@example.com",
        company: "Ωmega Ltd",
        address: "5 Ring Road",
        country: "India",
        taxId: "IN-GST-1",
        phone: null,
      },
      seller: {
        name: "Portico As Issued",
        legalName: "Portico As Issued LLP",
        address: "1 Old Street",
        email: "old@portico.example",
        phone: "+1 555 0000",
        taxId: "US-11",
      },
      ...over,
    },
    invoice: { id: "i1", invoiceNumber: "INV-2026-0042" },
    client: { name: "Now Name", email: "now@example.com", phone: null, company: null },
  };
}

async function pdfOf(input: CreditNoteViewInput) {
  const pdf = await renderCreditNotePdf(input, business);
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return { pdf, text: (await parser.getText()).text };
  } finally {
    await parser.destroy();
  }
}

describe("renderCreditNotePdf", () => {
  it("is a PDF with the number, the invoice, the parties as issued, the reason and the amounts in ₹", async () => {
    const { pdf, text } = await pdfOf(note());
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(text).toContain("CREDIT NOTE");
    expect(text).toContain("CN-2026-0009");
    expect(text).toContain("for invoice INV-2026-0042");
    expect(text).toContain("Portico As Issued LLP");
    expect(text).toContain("VAT/Tax ID: US-11");
    expect(text).toContain("Ωmega Buyer");
    expect(text).toContain("VAT/Tax ID: IN-GST-1");
    expect(text).not.toContain("Now Name");
    expect(text).toContain("Certificate not needed after all");
    expect(text).toMatch(/Amount before tax\s+₹705\.51/);
    expect(text).toMatch(/Tax \(18%\)\s+₹126\.99/);
    expect(text).toMatch(/Total credited\s+₹832\.50/);
    expect(text).toContain("Total credited in USD: $10.00 at 83.25 INR per USD");
    expect(text).not.toMatch(/INR\s*[\d,.]+\d/);
  });

  it("has no USD line for a USD note", async () => {
    const { text } = await pdfOf(
      note({
        currency: "USD",
        subtotal: 30,
        taxRatePercent: 0,
        taxAmount: 0,
        totalAmount: 30,
        amountUsd: 30,
      }),
    );
    expect(text).toMatch(/Total credited\s+\$30\.00/);
    expect(text).not.toContain("in USD");
  });
});
