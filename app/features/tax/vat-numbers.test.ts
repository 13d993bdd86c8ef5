import { describe, expect, it } from "vitest";
import { countryOfPrefix, EU_COUNTRIES, isEuCountry, parseVatNumber, viesPrefix } from "./vat-numbers";

/** One well-formed and one malformed number per VIES prefix (the Commission's structures). */
const CASES: Record<string, { good: string[]; bad: string[] }> = {
  AT: { good: ["ATU12345678"], bad: ["AT12345678", "ATU1234567"] },
  BE: { good: ["BE0123456789", "BE1234567890"], bad: ["BE2234567890", "BE123456789"] },
  BG: { good: ["BG123456789", "BG1234567890"], bad: ["BG12345678"] },
  CY: { good: ["CY12345678L"], bad: ["CY123456789"] },
  CZ: { good: ["CZ12345678", "CZ123456789", "CZ1234567890"], bad: ["CZ1234567"] },
  DE: { good: ["DE123456789"], bad: ["DE12345678", "DE1234567890"] },
  DK: { good: ["DK12345678"], bad: ["DK1234567"] },
  EE: { good: ["EE123456789"], bad: ["EE12345678"] },
  EL: { good: ["EL123456789"], bad: ["EL12345678"] },
  ES: { good: ["ESA1234567B", "ESX12345678", "ES12345678Z"], bad: ["ES123456789"] },
  FI: { good: ["FI12345678"], bad: ["FI123456789"] },
  FR: { good: ["FRXX123456789", "FR12123456789", "FRA1123456789"], bad: ["FRIO123456789", "FR1234567890"] },
  HR: { good: ["HR12345678901"], bad: ["HR1234567890"] },
  HU: { good: ["HU12345678"], bad: ["HU123456789"] },
  IE: { good: ["IE1234567WA", "IE1234567T", "IE1A23456T", "IE1+23456T"], bad: ["IE12345678"] },
  IT: { good: ["IT12345678901"], bad: ["IT1234567890"] },
  LT: { good: ["LT123456789", "LT123456789012"], bad: ["LT1234567890"] },
  LU: { good: ["LU12345678"], bad: ["LU1234567"] },
  LV: { good: ["LV12345678901"], bad: ["LV1234567890"] },
  MT: { good: ["MT12345678"], bad: ["MT1234567"] },
  NL: { good: ["NL123456789B01"], bad: ["NL123456789", "NL123456789X01"] },
  PL: { good: ["PL1234567890"], bad: ["PL123456789"] },
  PT: { good: ["PT123456789"], bad: ["PT12345678"] },
  RO: { good: ["RO12", "RO1234567890"], bad: ["RO0123", "RO12345678901"] },
  SE: { good: ["SE123456789001"], bad: ["SE123456789012"] },
  SI: { good: ["SI12345678"], bad: ["SI123456789"] },
  SK: { good: ["SK1234567890"], bad: ["SK123456789"] },
  XI: { good: ["XI123456789", "XI123456789012", "XIGD123", "XIHA123"], bad: ["XI12345678"] },
};

describe("parseVatNumber", () => {
  it("knows every member state and Northern Ireland", () => {
    const prefixes = [...EU_COUNTRIES.map(viesPrefix), "XI"].sort();
    expect(Object.keys(CASES).sort()).toEqual(prefixes);
  });

  for (const [prefix, { good, bad }] of Object.entries(CASES)) {
    it(`takes ${prefix}'s format and refuses others`, () => {
      for (const number of good)
        expect(parseVatNumber(number), number).toMatchObject({ ok: true, prefix, number });
      for (const number of bad) {
        const result = parseVatNumber(number);
        expect(result.ok, number).toBe(false);
        if (!result.ok) expect(result.error).toMatch(new RegExp(`is not a ${prefix} VAT number`));
      }
    });
  }

  it("normalises what people type: spaces, dots, dashes, lower case, GR for Greece", () => {
    expect(parseVatNumber(" de 123.456-789 ")).toMatchObject({ ok: true, number: "DE123456789" });
    expect(parseVatNumber("gr123456789")).toMatchObject({ ok: true, prefix: "EL", number: "EL123456789" });
    expect(parseVatNumber("nl 1234.56.789.b01")).toMatchObject({ ok: true, number: "NL123456789B01" });
  });

  it("takes the billing country's prefix when the number has none", () => {
    expect(parseVatNumber("123456789", "DE")).toMatchObject({ ok: true, number: "DE123456789" });
    expect(parseVatNumber("123456789", "GR")).toMatchObject({ ok: true, number: "EL123456789" });
    expect(parseVatNumber("123456789", "US")).toMatchObject({ ok: false });
  });

  it("refuses, in words, what cannot be a VAT number", () => {
    expect(parseVatNumber("")).toEqual({ ok: false, error: "Enter the VAT number, such as DE123456789." });
    expect(parseVatNumber("CHE-123.456.789")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/EU country code/),
    });
    expect(parseVatNumber("DE12345678<script>")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/letters and digits/),
    });
    expect(parseVatNumber("DE".padEnd(40, "1")).ok).toBe(false);
  });
});

describe("the member states", () => {
  it("are 27, with Greece as EL in VIES and XI as Northern Ireland", () => {
    expect(EU_COUNTRIES).toHaveLength(27);
    expect(isEuCountry("GR")).toBe(true);
    expect(isEuCountry("GB")).toBe(false);
    expect(isEuCountry(null)).toBe(false);
    expect(viesPrefix("GR")).toBe("EL");
    expect(countryOfPrefix("EL")).toBe("GR");
    expect(countryOfPrefix("XI")).toBe("GB");
    expect(countryOfPrefix("DE")).toBe("DE");
  });
});
