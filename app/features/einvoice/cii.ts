/**
 * An EN 16931 document in UN/CEFACT Cross Industry Invoice (CII D16B) syntax, the XML inside Factur-X /
 * ZUGFeRD and XRechnung-CII (issue 40, item 4). Written with xmlbuilder2 (ADR 0543) in the schema's
 * element order; what each business term maps to is named beside it (BT-n). Pure.
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
  rsm: "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
  ram: "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
  qdt: "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
  udt: "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
};

const day = (iso: string) => iso.replaceAll("-", "");

function dateTime(parent: XMLBuilder, name: string, iso: string, prefix: "udt" | "qdt" = "udt"): void {
  parent
    .ele(NS.ram, `ram:${name}`)
    .ele(NS[prefix], `${prefix}:DateTimeString`, { format: "102" })
    .txt(day(iso));
}

function party(parent: XMLBuilder, name: string, p: EInvoiceParty, showVat: boolean): void {
  const node = parent.ele(NS.ram, `ram:${name}`);
  node.ele(NS.ram, "ram:Name").txt(p.name);
  if (p.registrationId)
    node.ele(NS.ram, "ram:SpecifiedLegalOrganization").ele(NS.ram, "ram:ID").txt(p.registrationId);
  const address = node.ele(NS.ram, "ram:PostalTradeAddress");
  if (p.address.postcode) address.ele(NS.ram, "ram:PostcodeCode").txt(p.address.postcode);
  if (p.address.line) address.ele(NS.ram, "ram:LineOne").txt(p.address.line);
  if (p.address.city) address.ele(NS.ram, "ram:CityName").txt(p.address.city);
  address.ele(NS.ram, "ram:CountryID").txt(p.address.country);
  if (p.email)
    node
      .ele(NS.ram, "ram:URIUniversalCommunication")
      .ele(NS.ram, "ram:URIID", { schemeID: "EM" })
      .txt(p.email);
  if (showVat && p.vatNumber) {
    node
      .ele(NS.ram, "ram:SpecifiedTaxRegistration")
      .ele(NS.ram, "ram:ID", { schemeID: "VA" })
      .txt(p.vatNumber);
  }
  if (p.taxNumber) {
    node
      .ele(NS.ram, "ram:SpecifiedTaxRegistration")
      .ele(NS.ram, "ram:ID", { schemeID: "FC" })
      .txt(p.taxNumber);
  }
}

/** The document's one VAT category: a line's or an allowance's (no amounts), or the breakdown's (BG-23). */
function tradeTax(
  parent: XMLBuilder,
  doc: EInvoice,
  amounts?: { tax: string; basis: string },
  name = "ApplicableTradeTax",
): void {
  const tax = parent.ele(NS.ram, `ram:${name}`);
  if (amounts) tax.ele(NS.ram, "ram:CalculatedAmount").txt(amounts.tax);
  tax.ele(NS.ram, "ram:TypeCode").txt("VAT");
  if (amounts && doc.tax.exemptionReason) tax.ele(NS.ram, "ram:ExemptionReason").txt(doc.tax.exemptionReason);
  if (amounts) tax.ele(NS.ram, "ram:BasisAmount").txt(amounts.basis);
  tax.ele(NS.ram, "ram:CategoryCode").txt(doc.tax.category);
  const code = EXEMPTION_CODES[doc.tax.category];
  if (amounts && code) tax.ele(NS.ram, "ram:ExemptionReasonCode").txt(code);
  // Category O carries no rate (BR-O-05, BR-O-06 on lines).
  if (doc.tax.category !== "O")
    tax.ele(NS.ram, "ram:RateApplicablePercent").txt(percent(doc.tax.ratePercent));
}

/** The document as CII XML (UTF-8, with the XML declaration). `xrechnung` names XRechnung's CIUS. */
export function toCii(doc: EInvoice, options: { xrechnung?: boolean } = {}): string {
  const amount = (minor: number) => decimalAmount(minor, doc.decimals);
  const totals = eInvoiceTotals(doc);
  // Category O: neither party's VAT number (BR-O-02, BR-O-03, BR-O-04).
  const showVat = doc.tax.category !== "O";
  const root = create({ version: "1.0", encoding: "UTF-8" }).ele(NS.rsm, "rsm:CrossIndustryInvoice", {
    "xmlns:rsm": NS.rsm,
    "xmlns:ram": NS.ram,
    "xmlns:qdt": NS.qdt,
    "xmlns:udt": NS.udt,
  });
  root
    .ele(NS.rsm, "rsm:ExchangedDocumentContext")
    .ele(NS.ram, "ram:GuidelineSpecifiedDocumentContextParameter")
    .ele(NS.ram, "ram:ID")
    .txt(specificationId(options));

  const header = root.ele(NS.rsm, "rsm:ExchangedDocument");
  header.ele(NS.ram, "ram:ID").txt(doc.number); // BT-1
  header.ele(NS.ram, "ram:TypeCode").txt(doc.kind === "invoice" ? "380" : "381"); // BT-3
  dateTime(header, "IssueDateTime", doc.issueDate); // BT-2
  for (const note of doc.notes) header.ele(NS.ram, "ram:IncludedNote").ele(NS.ram, "ram:Content").txt(note);

  const transaction = root.ele(NS.rsm, "rsm:SupplyChainTradeTransaction");
  for (const line of doc.lines) {
    const item = transaction.ele(NS.ram, "ram:IncludedSupplyChainTradeLineItem");
    item.ele(NS.ram, "ram:AssociatedDocumentLineDocument").ele(NS.ram, "ram:LineID").txt(line.id); // BT-126
    item.ele(NS.ram, "ram:SpecifiedTradeProduct").ele(NS.ram, "ram:Name").txt(line.name); // BT-153
    item
      .ele(NS.ram, "ram:SpecifiedLineTradeAgreement")
      .ele(NS.ram, "ram:NetPriceProductTradePrice")
      .ele(NS.ram, "ram:ChargeAmount")
      .txt(amount(line.unitPriceMinor)); // BT-146
    item
      .ele(NS.ram, "ram:SpecifiedLineTradeDelivery")
      .ele(NS.ram, "ram:BilledQuantity", { unitCode: "C62" })
      .txt(String(line.quantity)); // BT-129, BT-130
    const settlement = item.ele(NS.ram, "ram:SpecifiedLineTradeSettlement");
    tradeTax(settlement, doc); // BT-151, BT-152
    settlement
      .ele(NS.ram, "ram:SpecifiedTradeSettlementLineMonetarySummation")
      .ele(NS.ram, "ram:LineTotalAmount")
      .txt(amount(line.netMinor)); // BT-131
  }

  const agreement = transaction.ele(NS.ram, "ram:ApplicableHeaderTradeAgreement");
  if (doc.buyerReference) agreement.ele(NS.ram, "ram:BuyerReference").txt(doc.buyerReference); // BT-10
  party(agreement, "SellerTradeParty", doc.seller, showVat);
  party(agreement, "BuyerTradeParty", doc.buyer, showVat);
  transaction.ele(NS.ram, "ram:ApplicableHeaderTradeDelivery");

  const settlement = transaction.ele(NS.ram, "ram:ApplicableHeaderTradeSettlement");
  settlement.ele(NS.ram, "ram:InvoiceCurrencyCode").txt(doc.currency); // BT-5
  tradeTax(settlement, doc, { tax: amount(totals.taxMinor), basis: amount(totals.taxBasisMinor) }); // BG-23
  for (const allowance of doc.allowances) {
    // BG-20: a document-level allowance, in the document's VAT category (BT-95, BT-96).
    const node = settlement.ele(NS.ram, "ram:SpecifiedTradeAllowanceCharge");
    node.ele(NS.ram, "ram:ChargeIndicator").ele(NS.udt, "udt:Indicator").txt("false");
    node.ele(NS.ram, "ram:ActualAmount").txt(amount(allowance.amountMinor)); // BT-92
    node.ele(NS.ram, "ram:Reason").txt(allowance.reason); // BT-97
    tradeTax(node, doc, undefined, "CategoryTradeTax");
  }
  if (doc.dueDate)
    dateTime(settlement.ele(NS.ram, "ram:SpecifiedTradePaymentTerms"), "DueDateDateTime", doc.dueDate); // BT-9
  const sums = settlement.ele(NS.ram, "ram:SpecifiedTradeSettlementHeaderMonetarySummation");
  sums.ele(NS.ram, "ram:LineTotalAmount").txt(amount(totals.lineTotalMinor)); // BT-106
  if (doc.allowances.length)
    sums.ele(NS.ram, "ram:AllowanceTotalAmount").txt(amount(totals.allowanceTotalMinor)); // BT-107
  sums.ele(NS.ram, "ram:TaxBasisTotalAmount").txt(amount(totals.taxBasisMinor)); // BT-109
  sums.ele(NS.ram, "ram:TaxTotalAmount", { currencyID: doc.currency }).txt(amount(totals.taxMinor)); // BT-110
  sums.ele(NS.ram, "ram:GrandTotalAmount").txt(amount(totals.grandTotalMinor)); // BT-112
  if (doc.prepaidMinor) sums.ele(NS.ram, "ram:TotalPrepaidAmount").txt(amount(doc.prepaidMinor)); // BT-113
  sums.ele(NS.ram, "ram:DuePayableAmount").txt(amount(totals.dueMinor)); // BT-115
  if (doc.preceding) {
    const ref = settlement.ele(NS.ram, "ram:InvoiceReferencedDocument");
    ref.ele(NS.ram, "ram:IssuerAssignedID").txt(doc.preceding.number); // BT-25
    dateTime(ref, "FormattedIssueDateTime", doc.preceding.issueDate, "qdt"); // BT-26
  }
  return root.end({ prettyPrint: true });
}
