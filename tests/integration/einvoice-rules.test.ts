/**
 * Documents written by Portico, as CII and as UBL, against the official EN 16931 business rules (issue
 * 40, items 4 and 5): a domestic sale, a reverse charge to a French business, a sale outside the EU, an
 * exempt seller, a quote's discount (a document-level allowance), a credit note correcting an invoice
 * (and one with a due date), a balance invoice after its deposit, and JPY (no decimals). Each must fail
 * no fatal rule in either syntax. The rules are compiled once per machine, and every document goes to
 * one run of them (tests/support/einvoice-rules.ts).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { toCii } from "~/features/einvoice/cii";
import type { EInvoice, EInvoiceParty } from "~/features/einvoice/model";
import { toUbl } from "~/features/einvoice/ubl";
import { NOT_SUBJECT_NOTE, REVERSE_CHARGE_NOTE } from "~/features/tax/treatment";
import { checkEn16931, ciiSchemaErrors, type RulesVerdict } from "../support/einvoice-rules";

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
  "quote-discount": {
    ...base,
    number: "INV-2026-0004",
    notes: ["As quoted in Q-2026-0002."],
    lines: [
      { id: "1", name: "Custom work (Q-2026-0002)", quantity: 1, unitPriceMinor: 50000, netMinor: 50000 },
      { id: "2", name: "Hosting setup", quantity: 3, unitPriceMinor: 4000, netMinor: 12000 },
    ],
    allowances: [{ reason: "Discount agreed in quote Q-2026-0002", amountMinor: 6200 }],
  },
  "credit-note": {
    ...base,
    kind: "credit-note",
    number: "CN-2026-0001",
    dueDate: null,
    preceding: { number: "INV-2026-0001", issueDate: "2026-11-28" },
    lines: [{ id: "1", name: "Refund: SSL & HTTPS Setup", quantity: 1, unitPriceMinor: 400, netMinor: 400 }],
  },
  // UBL 2.1's CreditNote has no DueDate: its due date goes in a payment means.
  "credit-note-due": {
    ...base,
    kind: "credit-note",
    number: "CN-2026-0002",
    dueDate: "2026-12-12",
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

const SYNTAXES = { cii: toCii, ubl: toUbl } as const;

/** A reverse charge that names no buyer VAT number: the rules must reject it (BR-AE-02). */
const BROKEN: EInvoice = { ...CASES["reverse-charge"]!, buyer: buyer("FR", null) };

describe("CII and UBL documents against the EN 16931 rules", () => {
  // Every document, the broken ones too, in one validate.mjs run.
  let verdicts: Record<string, RulesVerdict>;
  beforeAll(async () => {
    const documents: Record<string, string> = {};
    for (const [syntax, write] of Object.entries(SYNTAXES)) {
      for (const [name, doc] of Object.entries(CASES)) documents[`${name}.${syntax}`] = write(doc);
      documents[`broken.${syntax}`] = write(BROKEN);
    }
    verdicts = await checkEn16931(documents);
  }, 300_000);

  it("fail no fatal rule, for every treatment, a discount, a credit note, a balance and JPY, in both syntaxes", () => {
    for (const name of Object.keys(CASES)) {
      for (const syntax of Object.keys(SYNTAXES)) {
        const verdict = verdicts[`${name}.${syntax}`]!;
        expect(verdict.ok, `${name} as ${syntax}:\n${verdict.report}`).toBe(true);
        // The rules of the right syntax ran (validate.mjs picks them by the root element).
        expect(verdict.report).toMatch(new RegExp(`: ${syntax.toUpperCase()}, 0 fatal`));
      }
    }
  });

  it("fail the rules when a reverse charge names no buyer VAT number (the rules really run)", () => {
    for (const syntax of Object.keys(SYNTAXES)) {
      const verdict = verdicts[`broken.${syntax}`]!;
      expect(verdict.ok, syntax).toBe(false);
      expect(verdict.report, syntax).toMatch(/BR-AE-02/);
    }
  });

  it("are valid against the CII D16B schema, and an element out of place is not", async () => {
    for (const [name, doc] of Object.entries(CASES))
      expect(await ciiSchemaErrors(toCii(doc)), name).toEqual([]);
    const misplaced = toCii(base).replace(
      "<ram:TypeCode>380</ram:TypeCode>",
      "<ram:TypeCode>380</ram:TypeCode><ram:Bogus/>",
    );
    expect((await ciiSchemaErrors(misplaced)).join("\n")).toMatch(/Bogus': This element is not expected/);
  });

  it("write JPY without decimals, a credit note as type 381 referring to its invoice, and a discount", () => {
    const jpy = toCii(CASES.jpy!);
    expect(jpy).toContain("<ram:LineTotalAmount>4551</ram:LineTotalAmount>");
    expect(jpy).not.toMatch(/<ram:SpecifiedTaxRegistration>/);
    const credit = toCii(CASES["credit-note"]!);
    expect(credit).toContain("<ram:TypeCode>381</ram:TypeCode>");
    expect(credit).toContain("<ram:IssuerAssignedID>INV-2026-0001</ram:IssuerAssignedID>");
    const discount = toCii(CASES["quote-discount"]!);
    expect(discount).toContain("<ram:AllowanceTotalAmount>62.00</ram:AllowanceTotalAmount>");
    expect(discount).toContain("<ram:TaxBasisTotalAmount>558.00</ram:TaxBasisTotalAmount>");
    expect(discount).toContain('<ram:TaxTotalAmount currencyID="EUR">106.02</ram:TaxTotalAmount>');
  });
});
