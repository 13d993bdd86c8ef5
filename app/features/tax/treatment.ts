/**
 * Which VAT an invoice carries (issue 40, item 2): decided from the seller's mode and the buyer's billing
 * country and VAT number, then frozen on the invoice. Pure. The categories are EN 16931's (UNCL 5305):
 * S standard rate, AE reverse charge, E exempt, O not subject to VAT.
 *
 * - A seller outside the EU (or without BUSINESS_COUNTRY): the flat TAX_RATE_PERCENT for everyone, as
 *   before (S, or O at 0 %).
 * - An exempt EU seller (VAT_EXEMPT_REASON, e.g. Germany's §19 UStG small business): E at 0 % with the
 *   reason, for every buyer.
 * - An EU seller at its standard rate (VAT_RATE_PERCENT):
 *   - a buyer in the seller's country: S at the seller's rate;
 *   - a buyer in another member state with a VAT number VIES confirmed: AE at 0 %, the reverse-charge
 *     words and both VAT numbers;
 *   - a buyer there with a number not yet confirmed (VIES unreachable): S at the seller's rate, and the
 *     invoice says why; without a number, or with one VIES refused: S at the seller's rate;
 *   - a buyer outside the EU: O at 0 %, "Not subject to VAT", and no VAT numbers (rule BR-O-02).
 *   A buyer whose country is not known is taken as one in the seller's country.
 */
import { formatDateTime } from "~/ui/format";
import { isEuCountry } from "./vat-numbers";

export type TaxCategory = "S" | "AE" | "E" | "O";

export type SellerTaxMode =
  | {
      kind: "flat";
      ratePercent: number;
      /** BUSINESS_COUNTRY outside the EU, when set (the e-invoice's seller country). */
      country?: string | null;
    }
  | { kind: "eu-standard"; country: string; vatNumber: string | null; ratePercent: number }
  | {
      kind: "eu-exempt";
      country: string;
      vatNumber: string | null;
      taxNumber: string | null;
      reason: string;
    };

/** What VIES said of the buyer's number: confirmed, refused, or not yet asked or answered. */
export type VatNumberStatus = "valid" | "invalid" | "unconfirmed";

export interface TaxBuyer {
  country: string | null;
  vatNumber: string | null;
  vatStatus: VatNumberStatus | null;
}

export interface TaxTreatment {
  category: TaxCategory;
  ratePercent: number;
  /** The words the invoice prints about it, if any. */
  note: string | null;
  /** The VAT numbers the invoice prints (none for category O). */
  sellerVatNumber: string | null;
  buyerVatNumber: string | null;
}

export const REVERSE_CHARGE_NOTE =
  "Reverse charge: VAT to be accounted for by the recipient (Article 196, Directive 2006/112/EC)";
export const NOT_SUBJECT_NOTE = "Not subject to VAT";

export function unconfirmedNote(vatNumber: string): string {
  return `VAT number ${vatNumber} could not yet be confirmed with the EU's VIES service: VAT is charged as for a consumer.`;
}

export function decideTaxTreatment(seller: SellerTaxMode, buyer: TaxBuyer): TaxTreatment {
  if (seller.kind === "flat") {
    return {
      category: seller.ratePercent > 0 ? "S" : "O",
      ratePercent: seller.ratePercent,
      note: null,
      sellerVatNumber: null,
      buyerVatNumber: null,
    };
  }
  if (seller.kind === "eu-exempt") {
    return {
      category: "E",
      ratePercent: 0,
      note: seller.reason,
      sellerVatNumber: seller.vatNumber,
      buyerVatNumber: buyer.vatNumber,
    };
  }
  const country = buyer.country ?? seller.country;
  const standard = (note: string | null = null): TaxTreatment => ({
    category: "S",
    ratePercent: seller.ratePercent,
    note,
    sellerVatNumber: seller.vatNumber,
    buyerVatNumber: buyer.vatNumber,
  });
  if (country === seller.country) return standard();
  if (!isEuCountry(country)) {
    return {
      category: "O",
      ratePercent: 0,
      note: NOT_SUBJECT_NOTE,
      sellerVatNumber: null,
      buyerVatNumber: null,
    };
  }
  if (buyer.vatNumber && buyer.vatStatus === "valid") {
    return {
      category: "AE",
      ratePercent: 0,
      note: REVERSE_CHARGE_NOTE,
      sellerVatNumber: seller.vatNumber,
      buyerVatNumber: buyer.vatNumber,
    };
  }
  if (buyer.vatNumber && buyer.vatStatus === "unconfirmed") return standard(unconfirmedNote(buyer.vatNumber));
  return { ...standard(), buyerVatNumber: buyer.vatStatus === "invalid" ? null : buyer.vatNumber };
}

/** The seller's mode in words, for the start lines and the back office. */
export function sellerModeWords(mode: SellerTaxMode): string {
  switch (mode.kind) {
    case "flat":
      return `tax: a flat ${mode.ratePercent}% for every buyer (no EU VAT rules: BUSINESS_COUNTRY is outside the EU or unset)`;
    case "eu-exempt":
      return `tax: EU seller in ${mode.country}, exempt from VAT (${mode.reason})`;
    case "eu-standard":
      return `tax: EU seller in ${mode.country} at ${mode.ratePercent}% VAT; reverse charge for businesses elsewhere in the EU, none outside it`;
  }
}

/** The owner's words for a client's VAT number and VIES's answer, with the proof (issue 40, item 3). */
export function vatWords(client: {
  taxId: string | null;
  vatStatus: VatNumberStatus | null;
  vatCheckedNumber: string | null;
  vatCheckedAt: Date | null;
  vatRequestId: string | null;
}): string {
  if (!client.taxId) return "—";
  if (client.vatCheckedNumber !== client.taxId || !client.vatStatus) return client.taxId;
  if (client.vatStatus === "unconfirmed") return `${client.taxId} (not yet confirmed by VIES)`;
  if (client.vatStatus === "invalid") return `${client.taxId} (refused by VIES)`;
  const when = client.vatCheckedAt ? ` on ${formatDateTime(client.vatCheckedAt)}` : "";
  return `${client.taxId} (confirmed by VIES${when}${client.vatRequestId ? `, consultation ${client.vatRequestId}` : ""})`;
}
