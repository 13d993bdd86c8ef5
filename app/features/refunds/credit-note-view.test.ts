import { describe, expect, it } from "vitest";
import { type CreditNoteViewInput, creditNoteView } from "./credit-note-view";

const business = {
  name: "Portico IT Services",
  legalName: "Portico IT Services LLC",
  email: "support@portico.example",
  phone: "+1 555",
  whatsapp: "1555",
  address: "100 Main Street",
  hours: { weekdays: "", saturday: "", sunday: "", emergency: "" },
  social: {},
} as never;

const base: CreditNoteViewInput = {
  creditNote: {
    id: "n1",
    creditNoteNumber: "CN-2026-0003",
    currency: "USD",
    subtotal: 25.42,
    taxRatePercent: 18,
    taxAmount: 4.58,
    totalAmount: 30,
    amountUsd: 30,
    exchangeRate: 1,
    reason: "Two mailboxes fewer than ordered",
    createdAt: "2026-03-05T10:00:00Z",
  },
  invoice: { id: "i1", invoiceNumber: "INV-2026-0017" },
  client: { name: "Ada Now", email: "ada@new.example", phone: null, company: null },
};

describe("creditNoteView", () => {
  it("shows the number, date, invoice, reason and the amounts with the tax rate; no USD line for USD", () => {
    expect(creditNoteView(base, business)).toMatchObject({
      id: "n1",
      number: "CN-2026-0003",
      issued: "March 5, 2026",
      currency: "USD",
      invoice: { id: "i1", number: "INV-2026-0017" },
      reason: "Two mailboxes fewer than ordered",
      subtotal: "$25.42",
      taxLabel: "Tax (18%)",
      tax: "$4.58",
      total: "$30.00",
      usdNote: null,
    });
  });

  it("writes another currency with its symbol and gives the USD value at the invoice's rate", () => {
    const v = creditNoteView(
      {
        ...base,
        creditNote: {
          ...base.creditNote,
          currency: "INR",
          subtotal: 1000,
          taxRatePercent: 0,
          taxAmount: 0,
          totalAmount: 1000,
          amountUsd: 12.01,
          exchangeRate: 83.25,
        },
      },
      business,
    );
    expect(v.total).toBe("₹1,000.00");
    expect(v.taxLabel).toBe("Tax (0%)");
    expect(v.usdNote).toBe("$12.01 at 83.25 INR per USD");
  });

  it("prints the buyer and seller frozen on the note, not the client and business as they are now", () => {
    const v = creditNoteView(
      {
        ...base,
        creditNote: {
          ...base.creditNote,
          buyer: {
            name: "Ada Lovelace",
            email: "ada@old.example",
            company: "Engines Ltd",
            address: "1 Analytical Way",
            country: "United Kingdom",
            taxId: "GB123",
            phone: null,
          },
          seller: {
            name: "Portico Old",
            legalName: "Portico Old LLC",
            address: "1 Old Street",
            email: "old@portico.example",
            phone: "+1 555 0000",
            taxId: null,
          },
        },
      },
      business,
    );
    expect(v.billTo).toEqual({
      name: "Ada Lovelace",
      company: "Engines Ltd",
      addressLines: ["1 Analytical Way", "United Kingdom"],
      email: "ada@old.example",
      phone: null,
      taxLine: "VAT/Tax ID: GB123",
    });
    expect(v.business).toMatchObject({ name: "Portico Old", legalName: "Portico Old LLC", taxLine: null });
  });

  it("falls back to the client and business as now for a note without frozen copies", () => {
    const v = creditNoteView(base, business);
    expect(v.billTo.name).toBe("Ada Now");
    expect(v.billTo.email).toBe("ada@new.example");
    expect(v.business.legalName).toBe("Portico IT Services LLC");
  });
});
