/**
 * An invoice or credit note as EN 16931 sees it (issue 40, item 4): what the CII, UBL and Factur-X
 * writers take, so each syntax is a mapping of one model. Amounts are in minor units of the document's
 * currency (exact, whatever its decimals: JPY has none). Pure.
 */
import type { TaxCategory } from "~/features/tax/treatment";

export interface EInvoiceAddress {
  line: string | null;
  city: string | null;
  postcode: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface EInvoiceParty {
  name: string;
  /** BT-31 / BT-48: the VAT number with its prefix. */
  vatNumber: string | null;
  /** BT-32: a tax registration number (an exempt seller without a VAT number). */
  taxNumber?: string | null;
  /** BT-30: a legal registration number (trade register). */
  registrationId?: string | null;
  address: EInvoiceAddress;
  email: string | null;
}

export interface EInvoiceLine {
  id: string;
  name: string;
  quantity: number;
  /** The net price of one unit, in minor units. */
  unitPriceMinor: number;
  /** quantity × unit price, in minor units (BT-131). */
  netMinor: number;
}

/** A document-level allowance (BG-20): a quote's discount, in the document's VAT category and rate. */
export interface EInvoiceAllowance {
  /** BT-97: why (e.g. "Discount agreed in quote Q-2026-0001"). */
  reason: string;
  /** BT-92: the amount taken off the lines' net total, in minor units (positive). */
  amountMinor: number;
}

export interface EInvoice {
  kind: "invoice" | "credit-note";
  number: string;
  /** YYYY-MM-DD. */
  issueDate: string;
  dueDate: string | null;
  currency: string;
  /** Decimals of the currency (2 for EUR, 0 for JPY). */
  decimals: number;
  /** BT-10: the buyer's reference (a Leitweg-ID for XRechnung). */
  buyerReference: string | null;
  /** BT-25/26: the invoice a credit note corrects, or the deposit invoice a balance follows. */
  preceding: { number: string; issueDate: string } | null;
  /** Free notes (BT-22). */
  notes: string[];
  seller: EInvoiceParty;
  buyer: EInvoiceParty;
  lines: EInvoiceLine[];
  /** Document-level allowances (BG-20), taken off the lines' total before tax; [] for none. */
  allowances: EInvoiceAllowance[];
  /** One VAT category for the whole document (Portico's invoices have one treatment). */
  tax: { category: TaxCategory; ratePercent: number; exemptionReason: string | null };
  /** Already paid (a deposit deducted from a balance invoice), in minor units (BT-113). */
  prepaidMinor: number;
}

export interface EInvoiceTotals {
  /** BT-106: the sum of the lines' net amounts. */
  lineTotalMinor: number;
  /** BT-107: the sum of the document-level allowances. */
  allowanceTotalMinor: number;
  /** BT-109 (and BT-116, the one category's basis): line total − allowances. */
  taxBasisMinor: number;
  taxMinor: number;
  grandTotalMinor: number;
  dueMinor: number;
}

/**
 * The document's totals from its lines, allowances and tax (BR-CO-10, 11, 13, 14, 15, 16): the tax is
 * the basis (lines − allowances) at the rate, rounded once, half up (away from zero for a negative basis).
 */
export function eInvoiceTotals(
  doc: Pick<EInvoice, "lines" | "allowances" | "tax" | "prepaidMinor">,
): EInvoiceTotals {
  const lineTotalMinor = doc.lines.reduce((sum, l) => sum + l.netMinor, 0);
  const allowanceTotalMinor = doc.allowances.reduce((sum, a) => sum + a.amountMinor, 0);
  const taxBasisMinor = lineTotalMinor - allowanceTotalMinor;
  // In integers (the rate in hundredths of a percent, as written), so a half is a half, not 0.4999….
  const taxMinor = roundHalfAwayFromZero(taxBasisMinor * Math.round(doc.tax.ratePercent * 100), 10_000);
  const grandTotalMinor = taxBasisMinor + taxMinor;
  return {
    lineTotalMinor,
    allowanceTotalMinor,
    taxBasisMinor,
    taxMinor,
    grandTotalMinor,
    dueMinor: grandTotalMinor - doc.prepaidMinor,
  };
}

/** The specification identifier (BT-24): EN 16931, or XRechnung 3.0's CIUS (for a buyer with a Leitweg-ID). */
export const EN16931_ID = "urn:cen.eu:en16931:2017";
export const XRECHNUNG_ID = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0";

/** BT-24 for a writer's options: every syntax names its specification the same way. */
export function specificationId(options: { xrechnung?: boolean } = {}): string {
  return options.xrechnung ? XRECHNUNG_ID : EN16931_ID;
}

/** The VATEX code of a category's exemption (BT-121), where EN 16931 has one. */
export const EXEMPTION_CODES: Partial<Record<TaxCategory, string>> = {
  AE: "VATEX-EU-AE",
  O: "VATEX-EU-O",
};

/** numerator ÷ divisor (a positive integer) to the nearest integer, halves away from zero. */
function roundHalfAwayFromZero(numerator: number, divisor: number): number {
  const remainder = Math.abs(numerator) % divisor; // exact, unlike a division
  const whole = (Math.abs(numerator) - remainder) / divisor;
  const magnitude = remainder * 2 >= divisor ? whole + 1 : whole;
  return numerator < 0 ? -magnitude : magnitude;
}

/** A minor-unit amount as the XML writes it: "1234.50", "1235" (JPY), "-0.05"; never "-0.00". */
export function decimalAmount(minor: number, decimals: number): string {
  if (!Number.isSafeInteger(Math.round(minor)) || !Number.isInteger(decimals) || decimals < 0)
    throw new RangeError(`decimalAmount: ${minor} with ${decimals} decimals`);
  const units = roundHalfAwayFromZero(minor, 1);
  const negative = units < 0;
  const digits = String(Math.abs(units)).padStart(decimals + 1, "0");
  const whole = decimals === 0 ? digits : digits.slice(0, -decimals);
  const fraction = decimals === 0 ? "" : `.${digits.slice(-decimals)}`;
  return `${negative ? "-" : ""}${whole}${fraction}`;
}

/** A percentage as written: "19", "7.5". */
export function percent(rate: number): string {
  return String(Math.round(rate * 100) / 100);
}
