/**
 * EU VAT numbers (issue 40, item 3): the member states as VIES names them, a number normalised from what
 * people type ("de 123 456 789", "GR-123.456.789") and its format checked per state before VIES is asked.
 * Pure: the profile form checks the format in the browser too.
 *
 * The formats are the European Commission's "VAT number structure" for VIES. Greece is `EL` in VIES
 * (ISO says GR); Northern Ireland's traders have `XI` numbers under the Windsor Framework.
 */

/** The 27 member states by ISO 3166-1 code. */
export const EU_COUNTRIES = [
  "AT",
  "BE",
  "BG",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "HU",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SE",
  "SI",
  "SK",
] as const;
export type EuCountry = (typeof EU_COUNTRIES)[number];

export function isEuCountry(code: string | null | undefined): code is EuCountry {
  return !!code && (EU_COUNTRIES as readonly string[]).includes(code);
}

/** VIES's prefix for a country (EL for Greece); XI is Northern Ireland (GB in ISO). */
export function viesPrefix(country: string): string {
  return country === "GR" ? "EL" : country;
}

/** The number's body after its prefix, by VIES prefix. */
const FORMATS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  // A letter first, last or both; never digits at both ends.
  ES: /^(?:[A-Z]\d{7}[A-Z0-9]|\d{8}[A-Z])$/,
  FI: /^\d{8}$/,
  FR: /^[0-9A-HJ-NP-Z]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(?:\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(?:\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^[1-9]\d{1,9}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(?:\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
};

/** What one example of each looks like, for the message. */
const EXAMPLES: Readonly<Record<string, string>> = {
  AT: "ATU12345678",
  BE: "BE0123456789",
  DE: "DE123456789",
  EL: "EL123456789",
  ES: "ESA1234567B",
  FR: "FRXX123456789",
  IE: "IE1234567WA",
  NL: "NL123456789B01",
  SE: "SE123456789001",
};

export type VatNumberResult =
  | { ok: true; prefix: string; body: string /** "DE123456789" */; number: string }
  | { ok: false; error: string };

/**
 * Normalises and checks a VAT number: spaces, dots, dashes and slashes go, letters are upper-cased, the
 * country's prefix is read from the number (GR read as EL) or, when the number has none, from
 * `country` (the billing country). Only the EU's and Northern Ireland's numbers are VAT numbers here.
 */
export function parseVatNumber(input: string, country?: string | null): VatNumberResult {
  const compact = input.toUpperCase().replace(/[\s.\-/]/g, "");
  if (compact === "") return { ok: false, error: "Enter the VAT number, such as DE123456789." };
  if (compact.length > 20 || !/^[A-Z0-9+*]+$/.test(compact)) {
    return { ok: false, error: "A VAT number has letters and digits only, such as DE123456789." };
  }
  let prefix = compact.slice(0, 2);
  let body = compact.slice(2);
  if (prefix === "GR") prefix = "EL";
  if (!FORMATS[prefix]) {
    // No prefix written: the billing country's.
    const fromCountry = country ? viesPrefix(country) : null;
    if (fromCountry && FORMATS[fromCountry] && /^[0-9]/.test(compact)) {
      prefix = fromCountry;
      body = compact;
    } else {
      return {
        ok: false,
        error: "Start the VAT number with its EU country code, such as DE123456789 or FR12345678901.",
      };
    }
  }
  if (!FORMATS[prefix]!.test(body)) {
    const example = EXAMPLES[prefix];
    return {
      ok: false,
      error: `“${prefix}${body}” is not a ${prefix} VAT number${example ? ` (they look like ${example})` : ""}.`,
    };
  }
  return { ok: true, prefix, body, number: `${prefix}${body}` };
}

/** The ISO country a VIES prefix belongs to (EL → GR, XI → GB). */
export function countryOfPrefix(prefix: string): string {
  if (prefix === "EL") return "GR";
  if (prefix === "XI") return "GB";
  return prefix;
}
