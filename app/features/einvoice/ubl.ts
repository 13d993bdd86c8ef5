/**
 * An EN 16931 document in OASIS UBL 2.1 syntax (issue 40, item 4): an `Invoice` or a `CreditNote` as
 * Peppol BIS Billing 3.0 and XRechnung-UBL carry them. Written with xmlbuilder2 like the CII (ADR 0543),
 * in the UBL 2.1 schema's element order (UBL is order-sensitive: each parent's children below are in
 * its xsd:sequence), what each business term maps to named beside it (BT-n). Pure.
 */
import { create } from "xmlbuilder2";
import type { XMLBuilder } from "xmlbuilder2/lib/interfaces";
import {
  decimalAmount,
  type EInvoice,
  type EInvoiceParty,
  EXEMPTION_CODES,
  eInvoiceTotals,
  percent,
  specificationId,
} from "./model";

const NS = {
  invoice: "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
  creditNote: "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2",
  cac: "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
  cbc: "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
};

/** UNCL 4461 "instrument not defined": the payment means a credit note's due date needs (see below). */
const PAYMENT_MEANS_NOT_DEFINED = "1";

const cac = (parent: XMLBuilder, name: string) => parent.ele(NS.cac, `cac:${name}`);
const cbc = (parent: XMLBuilder, name: string, text: string, attributes?: Record<string, string>) =>
  parent.ele(NS.cbc, `cbc:${name}`, attributes).txt(text);

/** The VAT scheme every TaxCategory and the VAT number's PartyTaxScheme name. */
function vatScheme(parent: XMLBuilder): void {
  cbc(cac(parent, "TaxScheme"), "ID", "VAT");
}

/**
 * The document's one VAT category, as a line's ClassifiedTaxCategory (BT-151, 152), an allowance's
 * TaxCategory (BT-95, 96) or the breakdown's (BT-118 to 121, `breakdown`: with the exemption).
 */
function taxCategory(parent: XMLBuilder, name: string, doc: EInvoice, breakdown = false): void {
  const node = cac(parent, name);
  cbc(node, "ID", doc.tax.category);
  // Category O carries no rate (BR-O-05, 06, 09).
  if (doc.tax.category !== "O") cbc(node, "Percent", percent(doc.tax.ratePercent));
  const code = EXEMPTION_CODES[doc.tax.category];
  if (breakdown && code) cbc(node, "TaxExemptionReasonCode", code); // BT-121
  if (breakdown && doc.tax.exemptionReason) cbc(node, "TaxExemptionReason", doc.tax.exemptionReason); // BT-120
  vatScheme(node);
}

/**
 * A party (BG-4 seller, BG-7 buyer). Its email is its electronic address (BT-34 / BT-49, scheme "EM"
 * of the EAS code list, which rule BR-CL-25 accepts), as the CII's URIUniversalCommunication.
 */
function party(
  parent: XMLBuilder,
  role: "AccountingSupplierParty" | "AccountingCustomerParty",
  p: EInvoiceParty,
  showVat: boolean,
): void {
  const node = cac(cac(parent, role), "Party");
  if (p.email) cbc(node, "EndpointID", p.email, { schemeID: "EM" });
  const address = cac(node, "PostalAddress"); // BG-5 / BG-8
  if (p.address.line) cbc(address, "StreetName", p.address.line); // BT-35 / BT-50
  if (p.address.city) cbc(address, "CityName", p.address.city); // BT-37 / BT-52
  if (p.address.postcode) cbc(address, "PostalZone", p.address.postcode); // BT-38 / BT-53
  cbc(cac(address, "Country"), "IdentificationCode", p.address.country); // BT-40 / BT-55
  if (showVat && p.vatNumber) {
    const vat = cac(node, "PartyTaxScheme"); // BT-31 / BT-48
    cbc(vat, "CompanyID", p.vatNumber);
    vatScheme(vat);
  }
  // BT-32: the seller's tax number (an exempt seller's), under a tax scheme other than VAT (UBL-SR-13).
  if (role === "AccountingSupplierParty" && p.taxNumber) {
    const tax = cac(node, "PartyTaxScheme");
    cbc(tax, "CompanyID", p.taxNumber);
    cbc(cac(tax, "TaxScheme"), "ID", "FC");
  }
  const legal = cac(node, "PartyLegalEntity");
  cbc(legal, "RegistrationName", p.name); // BT-27 / BT-44
  if (p.registrationId) cbc(legal, "CompanyID", p.registrationId); // BT-30 / BT-47
}

/** The document as UBL 2.1 XML (UTF-8, with the XML declaration). `xrechnung` names XRechnung's CIUS. */
export function toUbl(doc: EInvoice, options: { xrechnung?: boolean } = {}): string {
  const money = (minor: number) => decimalAmount(minor, doc.decimals);
  const amount = (parent: XMLBuilder, name: string, minor: number) =>
    cbc(parent, name, money(minor), { currencyID: doc.currency });
  const totals = eInvoiceTotals(doc);
  const invoice = doc.kind === "invoice";
  // Category O: neither party's VAT number (BR-O-02, BR-O-03, BR-O-04).
  const showVat = doc.tax.category !== "O";

  const root = create({ version: "1.0", encoding: "UTF-8" }).ele(
    invoice ? NS.invoice : NS.creditNote,
    invoice ? "Invoice" : "CreditNote",
    { "xmlns:cac": NS.cac, "xmlns:cbc": NS.cbc },
  );
  cbc(root, "CustomizationID", specificationId(options)); // BT-24
  cbc(root, "ID", doc.number); // BT-1
  cbc(root, "IssueDate", doc.issueDate); // BT-2
  if (invoice && doc.dueDate) cbc(root, "DueDate", doc.dueDate); // BT-9
  cbc(root, invoice ? "InvoiceTypeCode" : "CreditNoteTypeCode", invoice ? "380" : "381"); // BT-3
  for (const note of doc.notes) cbc(root, "Note", note); // BT-22
  cbc(root, "DocumentCurrencyCode", doc.currency); // BT-5
  if (doc.buyerReference) cbc(root, "BuyerReference", doc.buyerReference); // BT-10
  if (doc.preceding) {
    const ref = cac(cac(root, "BillingReference"), "InvoiceDocumentReference"); // BG-3
    cbc(ref, "ID", doc.preceding.number); // BT-25
    cbc(ref, "IssueDate", doc.preceding.issueDate); // BT-26
  }
  party(root, "AccountingSupplierParty", doc.seller, showVat);
  party(root, "AccountingCustomerParty", doc.buyer, showVat);
  if (!invoice && doc.dueDate) {
    // UBL 2.1's CreditNote has no DueDate: EN 16931 puts a credit note's BT-9 in its payment means,
    // whose code (BT-81) is then "instrument not defined".
    const means = cac(root, "PaymentMeans");
    cbc(means, "PaymentMeansCode", PAYMENT_MEANS_NOT_DEFINED);
    cbc(means, "PaymentDueDate", doc.dueDate);
  }
  for (const allowance of doc.allowances) {
    const node = cac(root, "AllowanceCharge"); // BG-20
    cbc(node, "ChargeIndicator", "false");
    cbc(node, "AllowanceChargeReason", allowance.reason); // BT-97
    amount(node, "Amount", allowance.amountMinor); // BT-92
    taxCategory(node, "TaxCategory", doc); // BT-95, BT-96
  }

  const taxTotal = cac(root, "TaxTotal");
  amount(taxTotal, "TaxAmount", totals.taxMinor); // BT-110
  const subtotal = cac(taxTotal, "TaxSubtotal"); // BG-23
  amount(subtotal, "TaxableAmount", totals.taxBasisMinor); // BT-116
  amount(subtotal, "TaxAmount", totals.taxMinor); // BT-117
  taxCategory(subtotal, "TaxCategory", doc, true);

  const sums = cac(root, "LegalMonetaryTotal"); // BG-22
  amount(sums, "LineExtensionAmount", totals.lineTotalMinor); // BT-106
  amount(sums, "TaxExclusiveAmount", totals.taxBasisMinor); // BT-109
  amount(sums, "TaxInclusiveAmount", totals.grandTotalMinor); // BT-112
  if (doc.allowances.length) amount(sums, "AllowanceTotalAmount", totals.allowanceTotalMinor); // BT-107
  if (doc.prepaidMinor) amount(sums, "PrepaidAmount", doc.prepaidMinor); // BT-113
  amount(sums, "PayableAmount", totals.dueMinor); // BT-115

  for (const line of doc.lines) {
    const node = cac(root, invoice ? "InvoiceLine" : "CreditNoteLine"); // BG-25
    cbc(node, "ID", line.id); // BT-126
    cbc(node, invoice ? "InvoicedQuantity" : "CreditedQuantity", String(line.quantity), {
      unitCode: "C62",
    }); // BT-129, BT-130
    amount(node, "LineExtensionAmount", line.netMinor); // BT-131
    const item = cac(node, "Item");
    cbc(item, "Name", line.name); // BT-153
    taxCategory(item, "ClassifiedTaxCategory", doc);
    amount(cac(node, "Price"), "PriceAmount", line.unitPriceMinor); // BT-146
  }
  return root.end({ prettyPrint: true });
}
