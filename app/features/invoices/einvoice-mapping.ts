/**
 * A stored invoice or credit note as an EN 16931 document (issue 40, item 4): its frozen buyer, seller
 * and VAT treatment, its lines as the printed invoice shows them, its amounts exact in minor units. The
 * writers (einvoice/cii.ts, ubl.ts, factur-x.server.ts) turn the result into XML. Pure.
 *
 * Before anything is written, `eInvoiceProblems` names what EN 16931 needs that the document lacks (a
 * buyer's country, the seller's identifiers for its category): such a document is not offered, and an
 * EU seller's checkout refuses to issue one (orders/orders.server.ts), telling the owner what is missing.
 */
import type { InvoiceBuyer, InvoiceSeller, OrderAddon } from "~/db/schema";
import { type EInvoice, type EInvoiceParty, eInvoiceTotals } from "~/features/einvoice/model";
import { decimalsFor, toMinorUnits } from "~/features/money/minor-units";
import type { DocumentTax } from "~/features/tax/document-tax";
import { isEuCountry } from "~/features/tax/vat-numbers";
import { invoicePartLabel } from "./invoice-kind";

/** An ISO day (YYYY-MM-DD) of a stored moment, in UTC as the invoice number's year is. */
export const isoDay = (value: Date | string) => new Date(value).toISOString().slice(0, 10);

export interface EInvoiceSource {
  number: string;
  issuedAt: Date | string;
  dueDate: Date | string | null;
  currency: string;
  subtotal: number;
  taxAmount: number;
  totalAmount: number;
  buyer: InvoiceBuyer;
  seller: InvoiceSeller;
  tax: DocumentTax;
}

function sellerParty(seller: InvoiceSeller, tax: DocumentTax): EInvoiceParty {
  // BUSINESS_TAX_ID of a seller outside the EU is a tax registration (BT-32); an EU seller's is its VAT
  // number, printed only where its category allows (never on O: rule BR-O-02).
  const outsideEu = !isEuCountry(seller.countryCode ?? null);
  const taxNumber = seller.taxNumber ?? (outsideEu ? seller.taxId : null);
  return {
    name: seller.legalName || seller.name,
    vatNumber: tax.category === "O" ? null : tax.sellerVatNumber,
    taxNumber: taxNumber || null,
    registrationId: seller.registrationId ?? null,
    address: { line: seller.address || null, city: null, postcode: null, country: seller.countryCode ?? "" },
    email: seller.email || null,
  };
}

function buyerParty(buyer: InvoiceBuyer, tax: DocumentTax): EInvoiceParty {
  return {
    name: buyer.company ?? buyer.name,
    vatNumber: tax.category === "O" ? null : tax.buyerVatNumber,
    address: { line: buyer.address, city: null, postcode: null, country: buyer.countryCode ?? "" },
    email: buyer.email,
  };
}

function header(source: EInvoiceSource, kind: EInvoice["kind"]) {
  return {
    kind,
    number: source.number,
    issueDate: isoDay(source.issuedAt),
    dueDate: source.dueDate ? isoDay(source.dueDate) : null,
    currency: source.currency,
    decimals: decimalsFor(source.currency),
    buyerReference: source.buyer.reference ?? null,
    notes: source.tax.note ? [source.tax.note] : [],
    seller: sellerParty(source.seller, source.tax),
    buyer: buyerParty(source.buyer, source.tax),
    allowances: [],
    tax: {
      category: source.tax.category,
      ratePercent: source.tax.ratePercent,
      exemptionReason: source.tax.category === "S" ? null : source.tax.note,
    },
    prepaidMinor: 0,
  } satisfies Omit<EInvoice, "lines" | "preceding">;
}

/** A line of `netMinor` for `quantity` units: per unit when it divides exactly, else the whole as one. */
function line(id: string, name: string, quantity: number, netMinor: number) {
  const exact = quantity > 0 && netMinor % quantity === 0;
  return exact
    ? { id, name, quantity, unitPriceMinor: netMinor / quantity, netMinor }
    : { id, name: `${name} (× ${quantity})`, quantity: 1, unitPriceMinor: netMinor, netMinor };
}

export function invoiceEInvoice(
  source: EInvoiceSource & { kind: string },
  order: {
    serviceName: string;
    packageName: string;
    serviceCategory: string;
    quantity: number;
    addons?: readonly OrderAddon[] | null;
  },
  /** A balance invoice's deposit invoice (BT-25/26). */
  deposit: { number: string; issuedAt: Date | string } | null,
): EInvoice {
  const minor = (amount: number) => toMinorUnits(amount, source.currency);
  const subtotalMinor = minor(source.subtotal);
  const part = invoicePartLabel(source.kind);
  let lines: EInvoice["lines"];
  if (part) {
    lines = [line("1", `${order.serviceName}: ${part} of ${order.packageName}`, 1, subtotalMinor)];
  } else {
    const addons = order.addons ?? [];
    const addonLines = addons.map((a, i) =>
      line(
        String(i + 2),
        `${a.name} (add-on to ${order.serviceName})`,
        a.quantity,
        minor(a.amountInCurrency),
      ),
    );
    const packageMinor = addonLines.reduce((rest, l) => rest - l.netMinor, subtotalMinor);
    lines = [
      line(
        "1",
        `${order.serviceName}: ${order.packageName} (${order.serviceCategory})`,
        order.quantity,
        packageMinor,
      ),
      ...addonLines,
    ];
  }
  return {
    ...header(source, "invoice"),
    preceding: deposit ? { number: deposit.number, issueDate: isoDay(deposit.issuedAt) } : null,
    lines,
  };
}

export function creditNoteEInvoice(
  source: EInvoiceSource & { reason: string },
  invoice: { number: string; issuedAt: Date | string },
): EInvoice {
  return {
    ...header(source, "credit-note"),
    preceding: { number: invoice.number, issueDate: isoDay(invoice.issuedAt) },
    lines: [
      line(
        "1",
        `Credit for invoice ${invoice.number}: ${source.reason}`,
        1,
        toMinorUnits(source.subtotal, source.currency),
      ),
    ],
  };
}

/**
 * What EN 16931 needs that the document lacks, in the owner's words (empty: it can be written). Checks
 * the rules the data decides: the countries (BR-09, BR-11), the seller's identifiers (BR-CO-26) and those
 * each category needs (BR-S-02, BR-AE-02, BR-E-02; BR-O-02 leaves the VAT numbers out), the buyer's VAT number for a reverse charge, and
 * that the lines, tax and total add up to the amounts stored.
 */
export function eInvoiceProblems(doc: EInvoice, stored: { taxMinor: number; totalMinor: number }): string[] {
  const problems: string[] = [];
  const { seller, buyer, tax } = doc;
  if (!seller.address.country)
    problems.push("the seller's country is not set (BUSINESS_COUNTRY): e-invoices need it (rule BR-09)");
  if (!buyer.address.country)
    problems.push("the client's billing country is not set: e-invoices need it (rule BR-11)");
  if (tax.category === "S" && !seller.vatNumber && !seller.taxNumber)
    problems.push(
      "an invoice with VAT needs the seller's VAT number (BUSINESS_TAX_ID) or tax number (BUSINESS_TAX_NUMBER) (rule BR-S-02)",
    );
  if (tax.category === "AE" && (!seller.vatNumber || !buyer.vatNumber))
    problems.push("a reverse charge needs both VAT numbers, the seller's and the buyer's (rule BR-AE-02)");
  if (tax.category === "E" && !seller.vatNumber && !seller.taxNumber)
    problems.push("an exempt invoice needs the seller's VAT number or tax number (rule BR-E-02)");
  if (tax.category === "E" && !tax.exemptionReason)
    problems.push("an exempt invoice needs its reason (VAT_EXEMPT_REASON) (rule BR-E-10)");
  if (!seller.vatNumber && !seller.registrationId)
    problems.push(
      tax.category === "O"
        ? "an invoice outside the scope of VAT carries no VAT number, so it needs the seller's registration number (BUSINESS_REGISTRATION_ID) (rule BR-CO-26)"
        : "the seller needs a VAT number (BUSINESS_TAX_ID) or a registration number (BUSINESS_REGISTRATION_ID) (rule BR-CO-26)",
    );
  const totals = eInvoiceTotals(doc);
  if (totals.taxMinor !== stored.taxMinor || totals.grandTotalMinor !== stored.totalMinor)
    problems.push("its lines and tax do not add up to the amounts stored (rules BR-CO-14, BR-CO-15)");
  return problems;
}
