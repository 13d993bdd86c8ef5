/**
 * The UBL writer's shape. The EN 16931 rules themselves run in tests/integration/einvoice-rules.test.ts;
 * here: the element order UBL 2.1's schema requires (the rules do not check it), currencyID on every
 * amount, and what each VAT category and document kind writes.
 */

import { describe, expect, it } from "vitest";
import { create } from "xmlbuilder2";
import { type EInvoice, EN16931_ID, XRECHNUNG_ID } from "./model";
import { toUbl } from "./ubl";

const doc: EInvoice = {
  kind: "invoice",
  number: "INV-2026-0004",
  issueDate: "2026-11-28",
  dueDate: "2026-12-05",
  currency: "EUR",
  decimals: 2,
  buyerReference: "04011000-12345-03",
  preceding: { number: "INV-2026-0002", issueDate: "2026-11-01" },
  notes: ["As quoted in Q-2026-0002."],
  seller: {
    name: "Portico IT Services GmbH",
    vatNumber: "DE123456789",
    registrationId: "HRB 12345",
    address: { line: "Hauptstraße 1", city: "Berlin", postcode: "10115", country: "DE" },
    email: "billing@portico.example",
  },
  buyer: {
    name: "Acme",
    vatNumber: "DE987654321",
    address: { line: "1 Rue de Test", city: "Paris", postcode: "75001", country: "DE" },
    email: "acme@example.com",
  },
  lines: [
    { id: "1", name: "Custom work", quantity: 1, unitPriceMinor: 50000, netMinor: 50000 },
    { id: "2", name: "Hosting setup", quantity: 3, unitPriceMinor: 4000, netMinor: 12000 },
  ],
  allowances: [{ reason: "Discount agreed in quote Q-2026-0002", amountMinor: 6200 }],
  tax: { category: "S", ratePercent: 19, exemptionReason: null },
  prepaidMinor: 10000,
};
const creditNote: EInvoice = { ...doc, kind: "credit-note", number: "CN-2026-0001" };

/**
 * Each parent's children in the order of its UBL 2.1 xsd:sequence (UBL-Invoice-2.1.xsd,
 * UBL-CreditNote-2.1.xsd, UBL-CommonAggregateComponents-2.1.xsd), cut to what the writer may write.
 */
const SEQUENCES: Record<string, string[]> = {
  Invoice: [
    "CustomizationID",
    "ID",
    "IssueDate",
    "DueDate",
    "InvoiceTypeCode",
    "Note",
    "DocumentCurrencyCode",
    "BuyerReference",
    "BillingReference",
    "AccountingSupplierParty",
    "AccountingCustomerParty",
    "PaymentMeans",
    "AllowanceCharge",
    "TaxTotal",
    "LegalMonetaryTotal",
    "InvoiceLine",
  ],
  CreditNote: [
    "CustomizationID",
    "ID",
    "IssueDate",
    "CreditNoteTypeCode",
    "Note",
    "DocumentCurrencyCode",
    "BuyerReference",
    "BillingReference",
    "AccountingSupplierParty",
    "AccountingCustomerParty",
    "PaymentMeans",
    "AllowanceCharge",
    "TaxTotal",
    "LegalMonetaryTotal",
    "CreditNoteLine",
  ],
  BillingReference: ["InvoiceDocumentReference"],
  InvoiceDocumentReference: ["ID", "IssueDate"],
  AccountingSupplierParty: ["Party"],
  AccountingCustomerParty: ["Party"],
  Party: ["EndpointID", "PostalAddress", "PartyTaxScheme", "PartyLegalEntity"],
  PostalAddress: ["StreetName", "CityName", "PostalZone", "Country"],
  Country: ["IdentificationCode"],
  PartyTaxScheme: ["CompanyID", "TaxScheme"],
  TaxScheme: ["ID"],
  PartyLegalEntity: ["RegistrationName", "CompanyID"],
  PaymentMeans: ["PaymentMeansCode", "PaymentDueDate"],
  AllowanceCharge: ["ChargeIndicator", "AllowanceChargeReason", "Amount", "TaxCategory"],
  TaxTotal: ["TaxAmount", "TaxSubtotal"],
  TaxSubtotal: ["TaxableAmount", "TaxAmount", "TaxCategory"],
  TaxCategory: ["ID", "Percent", "TaxExemptionReasonCode", "TaxExemptionReason", "TaxScheme"],
  ClassifiedTaxCategory: ["ID", "Percent", "TaxExemptionReasonCode", "TaxExemptionReason", "TaxScheme"],
  LegalMonetaryTotal: [
    "LineExtensionAmount",
    "TaxExclusiveAmount",
    "TaxInclusiveAmount",
    "AllowanceTotalAmount",
    "PrepaidAmount",
    "PayableAmount",
  ],
  InvoiceLine: ["ID", "InvoicedQuantity", "LineExtensionAmount", "Item", "Price"],
  CreditNoteLine: ["ID", "CreditedQuantity", "LineExtensionAmount", "Item", "Price"],
  Item: ["Name", "ClassifiedTaxCategory"],
  Price: ["PriceAmount"],
};

interface ElementLike {
  nodeType: number;
  localName: string;
  childNodes: ArrayLike<ElementLike>;
}

/** Every child out of its parent's schema order (or under a parent not listed), as "Parent/Child". */
function orderProblems(xml: string): string[] {
  const problems: string[] = [];
  const visit = (element: ElementLike) => {
    const children = Array.from(element.childNodes).filter((n) => n.nodeType === 1);
    if (!children.length) return;
    const sequence = SEQUENCES[element.localName];
    let last = -1;
    for (const child of children) {
      const at = sequence?.indexOf(child.localName) ?? -1;
      if (at < last || at === -1) problems.push(`${element.localName}/${child.localName}`);
      last = Math.max(last, at);
      visit(child);
    }
  };
  visit(create(xml).root().node as unknown as ElementLike);
  return problems;
}

describe("toUbl", () => {
  it("writes an Invoice (380) in the UBL 2.1 schema's order", () => {
    const xml = toUbl(doc);
    expect(xml).toContain('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"');
    expect(xml).toContain(`<cbc:CustomizationID>${EN16931_ID}</cbc:CustomizationID>`);
    expect(xml).toContain("<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>");
    expect(xml).toContain("<cbc:DueDate>2026-12-05</cbc:DueDate>");
    expect(orderProblems(xml)).toEqual([]);
  });

  it("writes a CreditNote (381) with credited quantities and its due date in a payment means", () => {
    const xml = toUbl(creditNote);
    expect(xml).toContain('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"');
    expect(xml).toContain("<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>");
    expect(xml).toContain('<cbc:CreditedQuantity unitCode="C62">3</cbc:CreditedQuantity>');
    expect(xml).not.toContain("<cbc:DueDate>");
    expect(xml).toMatch(/<cbc:PaymentMeansCode>1<\/cbc:PaymentMeansCode>\s*<cbc:PaymentDueDate>2026-12-05</);
    expect(xml).not.toMatch(/InvoiceLine|InvoicedQuantity/);
    expect(orderProblems(xml)).toEqual([]);
    expect(toUbl({ ...creditNote, dueDate: null })).not.toContain("PaymentMeans");
  });

  it("the order check finds an element out of place", () => {
    const misplaced = toUbl(doc).replace(
      /(<cbc:DueDate>.*<\/cbc:DueDate>)(\s*)(<cbc:InvoiceTypeCode>.*<\/cbc:InvoiceTypeCode>)/,
      "$3$2$1",
    );
    expect(orderProblems(misplaced)).toEqual(["Invoice/DueDate"]);
  });

  it("names XRechnung's CIUS when asked", () => {
    expect(toUbl(doc, { xrechnung: true })).toContain(
      `<cbc:CustomizationID>${XRECHNUNG_ID}</cbc:CustomizationID>`,
    );
  });

  it("puts currencyID on every amount, and the allowance in the totals", () => {
    const xml = toUbl(doc);
    const amounts = [...xml.matchAll(/<cbc:(\w*Amount)([^>]*)>/g)];
    expect(amounts.length).toBeGreaterThan(10);
    for (const [, name, attributes] of amounts) expect(attributes, name).toBe(' currencyID="EUR"');
    expect(xml).toMatch(
      /<cbc:ChargeIndicator>false<\/cbc:ChargeIndicator>\s*<cbc:AllowanceChargeReason>Discount agreed in quote Q-2026-0002<\/cbc:AllowanceChargeReason>\s*<cbc:Amount currencyID="EUR">62.00<\/cbc:Amount>/,
    );
    expect(xml).toContain('<cbc:LineExtensionAmount currencyID="EUR">620.00</cbc:LineExtensionAmount>');
    expect(xml).toContain('<cbc:TaxExclusiveAmount currencyID="EUR">558.00</cbc:TaxExclusiveAmount>');
    expect(xml).toContain('<cbc:TaxInclusiveAmount currencyID="EUR">664.02</cbc:TaxInclusiveAmount>');
    expect(xml).toContain('<cbc:AllowanceTotalAmount currencyID="EUR">62.00</cbc:AllowanceTotalAmount>');
    expect(xml).toContain('<cbc:PrepaidAmount currencyID="EUR">100.00</cbc:PrepaidAmount>');
    expect(xml).toContain('<cbc:PayableAmount currencyID="EUR">564.02</cbc:PayableAmount>');
    const plain = toUbl({ ...doc, allowances: [], prepaidMinor: 0 });
    expect(plain).not.toMatch(/AllowanceCharge|AllowanceTotalAmount|PrepaidAmount/);
  });

  it("writes JPY without decimals", () => {
    const xml = toUbl({ ...doc, currency: "JPY", decimals: 0, allowances: [], prepaidMinor: 0 });
    expect(xml).toContain('<cbc:PriceAmount currencyID="JPY">50000</cbc:PriceAmount>');
    expect(xml).toContain('<cbc:TaxInclusiveAmount currencyID="JPY">73780</cbc:TaxInclusiveAmount>');
    expect(xml).not.toMatch(/currencyID="JPY">\d+\./);
  });

  it("category O: no VAT numbers, no rate, VATEX-EU-O with its words", () => {
    const xml = toUbl({
      ...doc,
      tax: { category: "O", ratePercent: 0, exemptionReason: "Not subject to VAT" },
    });
    expect(xml).not.toContain("DE123456789");
    expect(xml).not.toContain("DE987654321");
    expect(xml).not.toContain("<cbc:Percent>");
    expect(xml).toMatch(
      /<cbc:TaxExemptionReasonCode>VATEX-EU-O<\/cbc:TaxExemptionReasonCode>\s*<cbc:TaxExemptionReason>Not subject to VAT</,
    );
    expect(orderProblems(xml)).toEqual([]);
  });

  it("category AE: both VAT numbers and VATEX-EU-AE", () => {
    const xml = toUbl({ ...doc, tax: { category: "AE", ratePercent: 0, exemptionReason: "Reverse charge" } });
    expect(xml).toContain("<cbc:CompanyID>DE987654321</cbc:CompanyID>");
    expect(xml).toContain("<cbc:TaxExemptionReasonCode>VATEX-EU-AE</cbc:TaxExemptionReasonCode>");
    // Only the breakdown carries the exemption, not the lines' or the allowance's category.
    expect(xml.match(/TaxExemptionReasonCode>VATEX/g)).toHaveLength(1);
  });

  it("an exempt seller (E): its tax number under a scheme other than VAT, and the reason", () => {
    const xml = toUbl({
      ...doc,
      seller: { ...doc.seller, vatNumber: null, taxNumber: "12/345/67890" },
      tax: {
        category: "E",
        ratePercent: 0,
        exemptionReason: "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.",
      },
    });
    expect(xml).toMatch(
      /<cbc:CompanyID>12\/345\/67890<\/cbc:CompanyID>\s*<cac:TaxScheme>\s*<cbc:ID>FC<\/cbc:ID>/,
    );
    expect(xml).toContain("<cbc:TaxExemptionReason>Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.<");
    expect(xml).not.toContain("TaxExemptionReasonCode");
    expect(orderProblems(xml)).toEqual([]);
  });

  it("parties: the email as EndpointID (scheme EM), the legal name and registration", () => {
    const xml = toUbl(doc);
    expect(xml).toContain('<cbc:EndpointID schemeID="EM">billing@portico.example</cbc:EndpointID>');
    expect(xml).toMatch(
      /<cbc:RegistrationName>Portico IT Services GmbH<\/cbc:RegistrationName>\s*<cbc:CompanyID>HRB 12345</,
    );
    const noEmail = toUbl({ ...doc, buyer: { ...doc.buyer, email: null } });
    expect(noEmail.match(/<cbc:EndpointID/g)).toHaveLength(1);
  });
});
