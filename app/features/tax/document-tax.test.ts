import { describe, expect, it } from "vitest";
import {
  legacyTax,
  readDocumentTax,
  sameTax,
  taxLineLabel,
  taxNotes,
  taxTreatmentWords,
} from "./document-tax";
import { REVERSE_CHARGE_NOTE } from "./treatment";

const reverse = {
  category: "AE" as const,
  ratePercent: 0,
  note: REVERSE_CHARGE_NOTE,
  sellerVatNumber: "DE123456789",
  buyerVatNumber: "FRXX123456789",
  vatUnconfirmed: false,
};

describe("the VAT a document carries", () => {
  it("reads a stored treatment, an old document's flat rate, and refuses anything else", () => {
    expect(readDocumentTax(reverse, 0)).toEqual(reverse);
    expect(readDocumentTax({ ...reverse, vatUnconfirmed: undefined }, 0).vatUnconfirmed).toBe(false);
    expect(readDocumentTax(null, 8)).toEqual(legacyTax(8));
    expect(legacyTax(0).category).toBe("O");
    expect(() => readDocumentTax({ ...reverse, category: "Z" }, 0)).toThrow(/stored tax/);
    expect(() => readDocumentTax({ ...reverse, ratePercent: "19" }, 0)).toThrow(/stored tax/);
    expect(() => readDocumentTax("AE", 0)).toThrow(/stored tax/);
  });

  it("labels flat tax as before and EU VAT as VAT, with the treatment's words", () => {
    expect(taxLineLabel(legacyTax(8))).toBe("Tax (8%)");
    expect(taxLineLabel(legacyTax(0))).toBe("Tax (0%)");
    expect(taxLineLabel(reverse)).toBe("VAT (0%)");
    expect(taxLineLabel({ ...legacyTax(19), sellerVatNumber: "DE123456789" })).toBe("VAT (19%)");
    expect(taxNotes(reverse)).toEqual([REVERSE_CHARGE_NOTE]);
    expect(taxNotes(legacyTax(8))).toEqual([]);
  });

  it("tells the owner the treatment with both numbers, and compares treatments", () => {
    expect(taxTreatmentWords(reverse)).toBe(
      "Reverse charge (AE), 0% · seller DE123456789, buyer FRXX123456789",
    );
    expect(taxTreatmentWords({ ...legacyTax(19), vatUnconfirmed: true })).toMatch(
      /not yet confirmed by VIES/,
    );
    expect(sameTax(reverse, { ...reverse })).toBe(true);
    expect(sameTax(reverse, { ...reverse, buyerVatNumber: null })).toBe(false);
  });
});
