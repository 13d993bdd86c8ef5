/**
 * CII documents written by Portico against the official EN 16931 business rules (issue 40, items 4 and
 * 5): a domestic sale, a reverse charge to a French business, a sale outside the EU, an exempt seller, a
 * credit note correcting an invoice, a balance invoice after its deposit, and JPY (no decimals). Each
 * must fail no fatal rule. The rules are compiled once per machine (tests/support/einvoice-rules.ts).
 */
import { describe, expect, it } from "vitest";
import { toCii } from "~/features/einvoice/cii";
import type { EInvoice, EInvoiceParty } from "~/features/einvoice/model";
import { NOT_SUBJECT_NOTE, REVERSE_CHARGE_NOTE } from "~/features/tax/treatment";
import { checkEn16931, ciiSchemaErrors } from "../support/einvoice-rules";

const seller: EInvoiceParty = {
  name: "Portico IT Services GmbH",
  vatNumber: "DE123456789",
  registrationId: "HRB 12345",
  address: { line: "Hauptstraße 1", city: "Berlin", postcode: "10115", country: "DE" },
  email: "billing@portico.example",
};
const buyer = (country: string, vatNumber: string | null = null): EInvoiceParty => ({
  name: "Acme",
  vatNumber,
  address: { line: "1 Rue de Test", city: "Paris", postcode: "75001", country },
  email: "acme@example.com",
});

const base: EInvoice = {
  kind: "invoice",
  number: "INV-2026-0001",
  issueDate: "2026-11-28",
  dueDate: "2026-12-05",
  currency: "EUR",
  decimals: 2,
  buyerReference: null,
  preceding: null,
  notes: [],
  seller,
  buyer: buyer("DE", "DE987654321"),
  lines: [
    { id: "1", name: "SSL & HTTPS Setup — Single Domain", quantity: 1, unitPriceMinor: 1000, netMinor: 1000 },
    { id: "2", name: "Certificate procurement", quantity: 2, unitPriceMinor: 525, netMinor: 1050 },
  ],
  allowances: [],
  tax: { category: "S", ratePercent: 19, exemptionReason: null },
  prepaidMinor: 0,
};

const CASES: Record<string, EInvoice> = {
  domestic: base,
  "reverse-charge": {
    ...base,
    buyer: buyer("FR", "FRXX123456789"),
    tax: { category: "AE", ratePercent: 0, exemptionReason: REVERSE_CHARGE_NOTE },
    notes: [REVERSE_CHARGE_NOTE],
  },
  "outside-eu": {
    ...base,
    buyer: buyer("US"),
    tax: { category: "O", ratePercent: 0, exemptionReason: NOT_SUBJECT_NOTE },
  },
  "exempt-seller": {
    ...base,
    seller: { ...seller, vatNumber: null, taxNumber: "12/345/67890" },
    buyer: buyer("DE"),
    tax: {
      category: "E",
      ratePercent: 0,
      exemptionReason: "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.",
    },
  },
  "credit-note": {
    ...base,
    kind: "credit-note",
    number: "CN-2026-0001",
    dueDate: null,
    preceding: { number: "INV-2026-0001", issueDate: "2026-11-28" },
    lines: [{ id: "1", name: "Refund: SSL & HTTPS Setup", quantity: 1, unitPriceMinor: 400, netMinor: 400 }],
  },
  "balance-after-deposit": {
    ...base,
    number: "INV-2026-0003",
    preceding: { number: "INV-2026-0002", issueDate: "2026-11-01" },
    lines: [
      { id: "1", name: "Custom work (Q-2026-0001)", quantity: 1, unitPriceMinor: 30500, netMinor: 30500 },
    ],
    // The deposit paid: half of the gross.
    prepaidMinor: 18148,
  },
  jpy: {
    ...base,
    currency: "JPY",
    decimals: 0,
    buyer: buyer("JP"),
    lines: [{ id: "1", name: "Per Incident Support", quantity: 3, unitPriceMinor: 1517, netMinor: 4551 }],
    tax: { category: "O", ratePercent: 0, exemptionReason: NOT_SUBJECT_NOTE },
  },
};

describe("CII documents against the EN 16931 rules", () => {
  it("fail no fatal rule, for every treatment, a credit note, a balance and JPY", async () => {
    const verdicts = await checkEn16931(
      Object.fromEntries(Object.entries(CASES).map(([k, v]) => [k, toCii(v)])),
    );
    for (const [name, verdict] of Object.entries(verdicts))
      expect(verdict.ok, `${name}:\n${verdict.report}`).toBe(true);
  }, 240_000);

  it("are valid against the CII D16B schema, and an element out of place is not", async () => {
    for (const [name, doc] of Object.entries(CASES))
      expect(await ciiSchemaErrors(toCii(doc)), name).toEqual([]);
    const misplaced = toCii(base).replace(
      "<ram:TypeCode>380</ram:TypeCode>",
      "<ram:TypeCode>380</ram:TypeCode><ram:Bogus/>",
    );
    expect((await ciiSchemaErrors(misplaced)).join("\n")).toMatch(/Bogus': This element is not expected/);
  });

  it("fail the rules when a reverse charge names no buyer VAT number (the rules really run)", async () => {
    const broken = { ...CASES["reverse-charge"]!, buyer: buyer("FR", null) };
    const { broken: verdict } = await checkEn16931({ broken: toCii(broken) });
    expect(verdict!.ok).toBe(false);
    expect(verdict!.report).toMatch(/BR-AE-02/);
  }, 240_000);

  it("write JPY without decimals and a credit note as type 381 referring to its invoice", () => {
    const jpy = toCii(CASES.jpy!);
    expect(jpy).toContain("<ram:LineTotalAmount>4551</ram:LineTotalAmount>");
    expect(jpy).not.toMatch(/<ram:SpecifiedTaxRegistration>/);
    const credit = toCii(CASES["credit-note"]!);
    expect(credit).toContain("<ram:TypeCode>381</ram:TypeCode>");
    expect(credit).toContain("<ram:IssuerAssignedID>INV-2026-0001</ram:IssuerAssignedID>");
  });
});
