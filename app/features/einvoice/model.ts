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
  /** One VAT category for the whole document (Portico's invoices have one treatment). */
  tax: { category: TaxCategory; ratePercent: number; exemptionReason: string | null };
  /** Already paid (a deposit deducted from a balance invoice), in minor units (BT-113). */
  prepaidMinor: number;
}

export interface EInvoiceTotals {
  lineTotalMinor: number;
  taxBasisMinor: number;
  taxMinor: number;
  grandTotalMinor: number;
  dueMinor: number;
}

/** The document's totals from its lines and tax (BR-CO-10, 13, 14, 15, 16), rounded half up once. */
export function eInvoiceTotals(doc: Pick<EInvoice, "lines" | "tax" | "prepaidMinor">): EInvoiceTotals {
  const lineTotalMinor = doc.lines.reduce((sum, l) => sum + l.netMinor, 0);
  const taxMinor = Math.round((lineTotalMinor * doc.tax.ratePercent) / 100);
  const grandTotalMinor = lineTotalMinor + taxMinor;
  return {
    lineTotalMinor,
    taxBasisMinor: lineTotalMinor,
    taxMinor,
    grandTotalMinor,
    dueMinor: grandTotalMinor - doc.prepaidMinor,
  };
}

/** A minor-unit amount as the XML writes it: "1234.50", "1235" (JPY). */
export function decimalAmount(minor: number, decimals: number): string {
  const negative = minor < 0;
  const digits = String(Math.abs(Math.round(minor))).padStart(decimals + 1, "0");
  const whole = decimals === 0 ? digits : digits.slice(0, -decimals);
  const fraction = decimals === 0 ? "" : `.${digits.slice(-decimals)}`;
  return `${negative ? "-" : ""}${whole}${fraction}`;
}

/** A percentage as written: "19", "7.5". */
export function percent(rate: number): string {
  return String(Math.round(rate * 100) / 100);
}
