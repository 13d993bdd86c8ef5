/**
 * The VAT a document carries, as frozen on it (issue 40, ADR 0542): the treatment decided for its buyer
 * (treatment.ts), kept on the invoice, its credit notes and a sent quote, and read back with a check.
 * What a page, a PDF and an e-invoice print of it comes from here, so they say the same. Pure.
 */
import type { DocumentTax } from "~/db/schema";
import type { TaxTreatment } from "./treatment";

export type { DocumentTax };

/** An EU seller's checkout refuses a buyer without a billing country: the VAT depends on it. */
export const COUNTRY_NEEDED =
  "Before you buy, choose your billing country in your profile: the VAT on your invoice depends on it.";

export function documentTax(treatment: TaxTreatment, vatUnconfirmed = false): DocumentTax {
  return {
    category: treatment.category,
    ratePercent: treatment.ratePercent,
    note: treatment.note,
    sellerVatNumber: treatment.sellerVatNumber,
    buyerVatNumber: treatment.buyerVatNumber,
    vatUnconfirmed,
  };
}

/** A document issued before treatments were frozen: its flat rate, as a seller outside the EU. */
export function legacyTax(ratePercent: number): DocumentTax {
  return {
    category: ratePercent > 0 ? "S" : "O",
    ratePercent,
    note: null,
    sellerVatNumber: null,
    buyerVatNumber: null,
    vatUnconfirmed: false,
  };
}

const CATEGORIES: ReadonlySet<unknown> = new Set(["S", "AE", "E", "O"]);
const textOrNull = (value: unknown, max: number) =>
  value === null || (typeof value === "string" && value.length <= max);

/**
 * The stored treatment, checked (by hand, not with zod: this module is part of the purchase page's
 * script, within its budget); null (issued before issue 40): the document's own flat rate.
 */
export function readDocumentTax(stored: unknown, ratePercent: number): DocumentTax {
  if (stored === null || stored === undefined) return legacyTax(ratePercent);
  const t = stored as Record<string, unknown>;
  const valid =
    typeof stored === "object" &&
    CATEGORIES.has(t.category) &&
    typeof t.ratePercent === "number" &&
    t.ratePercent >= 0 &&
    t.ratePercent <= 100 &&
    textOrNull(t.note, 500) &&
    textOrNull(t.sellerVatNumber, 40) &&
    textOrNull(t.buyerVatNumber, 40) &&
    (t.vatUnconfirmed === undefined || typeof t.vatUnconfirmed === "boolean");
  if (!valid) throw new Error("the document's stored tax is not valid");
  return {
    category: t.category as DocumentTax["category"],
    ratePercent: t.ratePercent as number,
    note: t.note as string | null,
    sellerVatNumber: t.sellerVatNumber as string | null,
    buyerVatNumber: t.buyerVatNumber as string | null,
    vatUnconfirmed: t.vatUnconfirmed === true,
  };
}

/** Whether the document speaks of VAT (an EU seller's) rather than of a flat sales tax. */
const isVat = (tax: DocumentTax) =>
  tax.category === "AE" ||
  tax.category === "E" ||
  tax.note !== null ||
  tax.sellerVatNumber !== null ||
  tax.vatUnconfirmed;

/** The label of the tax line: "Tax (8%)" as before outside the EU; "VAT (19%)", "VAT (0%)" in it. */
export function taxLineLabel(tax: DocumentTax): string {
  return `${isVat(tax) ? "VAT" : "Tax"} (${tax.ratePercent}%)`;
}

/** What the document prints under its totals about its VAT: the treatment's words, if any. */
export function taxNotes(tax: DocumentTax): string[] {
  return tax.note ? [tax.note] : [];
}

/** Whether two treatments charge and print the same. */
export function sameTax(a: DocumentTax, b: DocumentTax): boolean {
  return (
    a.category === b.category &&
    a.ratePercent === b.ratePercent &&
    a.note === b.note &&
    a.sellerVatNumber === b.sellerVatNumber &&
    a.buyerVatNumber === b.buyerVatNumber
  );
}

/** The owner's words for a treatment, with both VAT numbers where the invoice carries them. */
export function taxTreatmentWords(tax: DocumentTax): string {
  const numbers = [
    tax.sellerVatNumber ? `seller ${tax.sellerVatNumber}` : null,
    tax.buyerVatNumber ? `buyer ${tax.buyerVatNumber}` : null,
  ].filter(Boolean);
  const withNumbers = numbers.length > 0 ? ` · ${numbers.join(", ")}` : "";
  switch (tax.category) {
    case "AE":
      return `Reverse charge (AE), 0%${withNumbers}`;
    case "E":
      return `Exempt (E), 0%: ${tax.note ?? "no reason given"}${withNumbers}`;
    case "O":
      return `Not subject to VAT (O), 0%`;
    case "S":
      return `Standard rate (S), ${tax.ratePercent}%${withNumbers}${
        tax.vatUnconfirmed
          ? " · the buyer's VAT number was not yet confirmed by VIES: charged as for a consumer"
          : ""
      }`;
  }
}
