import { describe, expect, it } from "vitest";
import {
  decideTaxTreatment,
  NOT_SUBJECT_NOTE,
  REVERSE_CHARGE_NOTE,
  type SellerTaxMode,
  sellerModeWords,
  unconfirmedNote,
} from "./treatment";

const german: SellerTaxMode = {
  kind: "eu-standard",
  country: "DE",
  vatNumber: "DE123456789",
  ratePercent: 19,
};
const buyer = (
  country: string | null,
  vatNumber: string | null = null,
  vatStatus: "valid" | "invalid" | "unconfirmed" | null = null,
) => ({
  country,
  vatNumber,
  vatStatus,
});

describe("decideTaxTreatment for an EU seller at the standard rate", () => {
  it("charges domestic VAT at home, with or without the buyer's number", () => {
    expect(decideTaxTreatment(german, buyer("DE"))).toEqual({
      category: "S",
      ratePercent: 19,
      note: null,
      sellerVatNumber: "DE123456789",
      buyerVatNumber: null,
    });
    expect(decideTaxTreatment(german, buyer("DE", "DE987654321", "valid"))).toMatchObject({
      category: "S",
      ratePercent: 19,
      buyerVatNumber: "DE987654321",
    });
    // A buyer of unknown country is taken as one at home.
    expect(decideTaxTreatment(german, buyer(null)).category).toBe("S");
  });

  it("reverse-charges a business elsewhere in the EU whose number VIES confirmed", () => {
    expect(decideTaxTreatment(german, buyer("FR", "FRXX123456789", "valid"))).toEqual({
      category: "AE",
      ratePercent: 0,
      note: REVERSE_CHARGE_NOTE,
      sellerVatNumber: "DE123456789",
      buyerVatNumber: "FRXX123456789",
    });
  });

  it("charges the seller's rate to a consumer elsewhere in the EU, and says so when VIES could not answer", () => {
    expect(decideTaxTreatment(german, buyer("FR"))).toMatchObject({
      category: "S",
      ratePercent: 19,
      note: null,
    });
    expect(decideTaxTreatment(german, buyer("FR", "FRXX123456789", "unconfirmed"))).toMatchObject({
      category: "S",
      ratePercent: 19,
      note: unconfirmedNote("FRXX123456789"),
    });
    expect(decideTaxTreatment(german, buyer("FR", "FRXX123456789", "invalid"))).toMatchObject({
      category: "S",
      buyerVatNumber: null,
    });
  });

  it("charges nothing outside the EU and prints no VAT numbers (BR-O-02)", () => {
    for (const country of ["US", "CH", "GB", "NO"]) {
      expect(decideTaxTreatment(german, buyer(country, "CHE123", "valid"))).toEqual({
        category: "O",
        ratePercent: 0,
        note: NOT_SUBJECT_NOTE,
        sellerVatNumber: null,
        buyerVatNumber: null,
      });
    }
  });
});

describe("decideTaxTreatment for other sellers", () => {
  it("keeps the flat rate for a seller outside the EU", () => {
    expect(
      decideTaxTreatment({ kind: "flat", ratePercent: 8 }, buyer("FR", "FRXX123456789", "valid")),
    ).toMatchObject({
      category: "S",
      ratePercent: 8,
      note: null,
    });
    expect(decideTaxTreatment({ kind: "flat", ratePercent: 0 }, buyer("US")).category).toBe("O");
  });

  it("exempts every buyer of an exempt seller, with the reason", () => {
    const exempt: SellerTaxMode = {
      kind: "eu-exempt",
      country: "DE",
      vatNumber: null,
      taxNumber: "12/345/67890",
      reason: "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.",
    };
    for (const country of ["DE", "FR", "US"]) {
      expect(decideTaxTreatment(exempt, buyer(country))).toMatchObject({
        category: "E",
        ratePercent: 0,
        note: "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.",
      });
    }
  });

  it("names the mode in words", () => {
    expect(sellerModeWords(german)).toBe(
      "tax: EU seller in DE at 19% VAT; reverse charge for businesses elsewhere in the EU, none outside it",
    );
    expect(sellerModeWords({ kind: "flat", ratePercent: 0 })).toMatch(/^tax: a flat 0% for every buyer/);
  });
});
