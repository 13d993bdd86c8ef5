/**
 * The seller's VAT mode from its settings (issue 40, ADR 0542), or the sentence naming the setting an
 * invoice could not be issued with. Pure: loadConfig turns the sentence into its configuration error.
 */
import type { SellerTaxMode } from "./treatment";
import { countryOfPrefix, isEuCountry, parseVatNumber } from "./vat-numbers";

/** The settings, as loadConfig read them (BUSINESS_COUNTRY, TAX_RATE_PERCENT, VAT_*, BUSINESS_TAX_*). */
export interface SellerTaxSettings {
  country: string | undefined;
  taxRatePercent: number;
  vatRatePercent: number | undefined;
  exemptReason: string | undefined;
  taxId: string | undefined;
  taxNumber: string | undefined;
}

/**
 * The seller's VAT mode from its settings: outside the EU (or without BUSINESS_COUNTRY) the flat
 * TAX_RATE_PERCENT; in the EU, VAT_EXEMPT_REASON (exempt) or VAT_RATE_PERCENT with the seller's own VAT
 * number in BUSINESS_TAX_ID. What an e-invoice of that mode cannot do without is required here.
 */
export function sellerTaxMode(e: SellerTaxSettings): SellerTaxMode | string {
  const country = e.country;
  if (!country || !isEuCountry(country)) {
    if (e.vatRatePercent !== undefined || e.exemptReason) {
      return "VAT_RATE_PERCENT and VAT_EXEMPT_REASON apply to a seller in the EU: set BUSINESS_COUNTRY to its country (or use TAX_RATE_PERCENT)";
    }
    return { kind: "flat", ratePercent: e.taxRatePercent, country: country ?? null };
  }
  if (e.taxRatePercent !== 0) {
    return `BUSINESS_COUNTRY=${country} is in the EU, where VAT follows the buyer: set VAT_RATE_PERCENT instead of TAX_RATE_PERCENT`;
  }
  const vat = e.taxId ? parseVatNumber(e.taxId, country) : null;
  if (vat && !vat.ok) return `BUSINESS_TAX_ID ${vat.error}`;
  if (vat?.ok && countryOfPrefix(vat.prefix) !== country) {
    return `BUSINESS_TAX_ID ${vat.number} is not a VAT number of BUSINESS_COUNTRY=${country}`;
  }
  const vatNumber = vat?.ok ? vat.number : null;
  if (e.exemptReason) {
    if (e.vatRatePercent !== undefined) {
      return "set VAT_RATE_PERCENT or VAT_EXEMPT_REASON, not both";
    }
    // EN 16931 BR-E-02: an exempt invoice names the seller's VAT number or tax registration number.
    if (!vatNumber && !e.taxNumber) {
      return "an exempt seller's invoices must name its VAT number (BUSINESS_TAX_ID) or tax number (BUSINESS_TAX_NUMBER)";
    }
    return {
      kind: "eu-exempt",
      country,
      vatNumber,
      taxNumber: e.taxNumber ?? null,
      reason: e.exemptReason,
    };
  }
  if (e.vatRatePercent === undefined) {
    return `BUSINESS_COUNTRY=${country} is in the EU: set VAT_RATE_PERCENT (your standard rate) or VAT_EXEMPT_REASON (an exemption printed on every invoice)`;
  }
  // Reverse charge names both VAT numbers (EN 16931 BR-AE-02).
  if (!vatNumber) {
    return "an EU seller charging VAT needs its VAT number in BUSINESS_TAX_ID (reverse-charge invoices name it)";
  }
  return { kind: "eu-standard", country, vatNumber, ratePercent: e.vatRatePercent };
}
