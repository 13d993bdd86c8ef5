import { describe, expect, it } from "vitest";
import { CURRENCY_LOCALES } from "~/features/money/format";
import { decimalsFor } from "~/features/money/minor-units";
import {
  COUNTRY_CURRENCY,
  convertFromUsd,
  countryName,
  currencyForCountry,
  DEFAULT_LOCATION,
  detectionChanged,
  displayPrice,
  FALLBACK_RATES,
  locationForCountry,
  normalizeCountryCode,
  regionFromAcceptLanguage,
  resolveCurrency,
  SELECTABLE_CURRENCIES,
} from "./currency";
import { parseProviderRates } from "./currency-schemas";

describe("country to currency map", () => {
  it("covers about 70 countries", () => {
    expect(Object.keys(COUNTRY_CURRENCY).length).toBeGreaterThanOrEqual(65);
    expect(Object.keys(COUNTRY_CURRENCY).length).toBeLessThanOrEqual(90);
    for (const [country, currency] of Object.entries(COUNTRY_CURRENCY)) {
      expect(country).toMatch(/^[A-Z]{2}$/);
      expect(FALLBACK_RATES[currency], `${country} → ${currency} has a fallback rate`).toBeGreaterThan(0);
    }
  });

  it("maps euro countries to EUR and SG, HK and AE to USD", () => {
    for (const c of ["DE", "FR", "IT", "ES", "NL", "IE", "AT", "BE", "PT", "FI", "GR"]) {
      expect(currencyForCountry(c)).toBe("EUR");
    }
    for (const c of ["SG", "HK", "AE", "US"]) expect(currencyForCountry(c)).toBe("USD");
    expect(currencyForCountry("GB")).toBe("GBP");
    expect(currencyForCountry("in")).toBe("INR");
    expect(currencyForCountry("AU")).toBe("AUD");
    expect(currencyForCountry("CA")).toBe("CAD");
    expect(currencyForCountry("JP")).toBe("JPY");
  });

  it("gives USD for unknown or missing countries", () => {
    expect(currencyForCountry("AQ")).toBe("USD");
    expect(currencyForCountry(null)).toBe("USD");
    expect(currencyForCountry("")).toBe("USD");
  });

  it("names countries in English", () => {
    expect(countryName("GB")).toBe("United Kingdom");
    expect(countryName("us")).toBe("United States");
    expect(countryName("IN")).toBe("India");
    expect(locationForCountry("de")).toEqual({
      country_code: "DE",
      country_name: "Germany",
      currency: "EUR",
    });
    expect(DEFAULT_LOCATION).toEqual({ country_code: "US", country_name: "United States", currency: "USD" });
  });
});

describe("fallback rate table", () => {
  it("has about 50 currencies with the spec's examples", () => {
    expect(Object.keys(FALLBACK_RATES).length).toBeGreaterThanOrEqual(45);
    expect(FALLBACK_RATES).toMatchObject({
      USD: 1,
      INR: 83.25,
      AUD: 1.52,
      EUR: 0.92,
      GBP: 0.79,
      CAD: 1.36,
      JPY: 149.5,
    });
    for (const rate of Object.values(FALLBACK_RATES)) expect(rate).toBeGreaterThan(0);
  });

  it("has a rate for every selectable and every displayable currency", () => {
    expect(SELECTABLE_CURRENCIES).toEqual(["USD", "INR", "AUD", "EUR", "GBP", "CAD"]);
    for (const c of [...SELECTABLE_CURRENCIES, ...Object.keys(CURRENCY_LOCALES)]) {
      expect(FALLBACK_RATES[c], c).toBeGreaterThan(0);
    }
  });
});

describe("convertFromUsd", () => {
  it("rounds to 2 decimals", () => {
    expect(convertFromUsd(25, "INR", FALLBACK_RATES)).toBe(2081.25);
    expect(convertFromUsd(4, "GBP", FALLBACK_RATES)).toBe(3.16);
    expect(convertFromUsd(7, "EUR", FALLBACK_RATES)).toBe(6.44);
    expect(convertFromUsd(1, "EUR", { EUR: 0.123456 })).toBe(0.12);
    expect(convertFromUsd(1, "EUR", { EUR: 1.005 })).toBe(1.01);
    expect(convertFromUsd(10, "USD", {})).toBe(10);
  });

  it("uses 0 decimals for JPY, KRW and every zero-decimal currency", () => {
    expect(convertFromUsd(25, "JPY", FALLBACK_RATES)).toBe(3738); // 3737.5
    expect(convertFromUsd(4, "KRW", { KRW: 1330.4 })).toBe(5322); // 5321.6
    expect(convertFromUsd(3, "VND", { VND: 24500.3 })).toBe(73501);
    expect(convertFromUsd(1, "CLP", { CLP: 930.6 })).toBe(931);
    expect(decimalsFor("jpy")).toBe(0);
    expect(decimalsFor("GBP")).toBe(2);
  });

  it("returns null when no usable rate exists", () => {
    expect(convertFromUsd(10, "XYZ", FALLBACK_RATES)).toBeNull();
    expect(convertFromUsd(10, "EUR", { EUR: 0 })).toBeNull();
    expect(convertFromUsd(10, "EUR", { EUR: Number.NaN })).toBeNull();
    expect(convertFromUsd(Number.NaN, "EUR", FALLBACK_RATES)).toBeNull();
  });
});

describe("formatting", () => {
  it("keeps USD when conversion fails", () => {
    expect(displayPrice(25, "GBP", FALLBACK_RATES)).toEqual({
      currency: "GBP",
      amount: 19.75,
      text: "£19.75",
      converted: true,
    });
    expect(displayPrice(25, "GBP", {})).toEqual({
      currency: "USD",
      amount: 25,
      text: "$25.00",
      converted: false,
    });
    expect(displayPrice(25, "USD", {}).converted).toBe(false);
  });
});

describe("Accept-Language region", () => {
  it("takes the region of the most preferred language that has one", () => {
    expect(regionFromAcceptLanguage("en-GB,en;q=0.9")).toBe("GB");
    expect(regionFromAcceptLanguage("en;q=0.9,de-AT;q=0.8,fr-FR;q=0.85")).toBe("FR");
    expect(regionFromAcceptLanguage("zh-Hant-TW")).toBe("TW");
    expect(regionFromAcceptLanguage("en_in")).toBe("IN");
    expect(regionFromAcceptLanguage("de-CH;q=0, en-AU")).toBe("AU");
  });

  it("gives null without a region", () => {
    expect(regionFromAcceptLanguage("en")).toBeNull();
    expect(regionFromAcceptLanguage("*")).toBeNull();
    expect(regionFromAcceptLanguage("es-419")).toBeNull();
    expect(regionFromAcceptLanguage("")).toBeNull();
    expect(regionFromAcceptLanguage(undefined)).toBeNull();
  });

  it("normalizes country codes and drops unknown markers", () => {
    expect(normalizeCountryCode(" gb ")).toBe("GB");
    expect(normalizeCountryCode("XX")).toBeNull();
    expect(normalizeCountryCode("T1")).toBeNull();
    expect(normalizeCountryCode("GBR")).toBeNull();
  });
});

describe("provider rates", () => {
  it("accepts common shapes", () => {
    expect(parseProviderRates({ base: "USD", rates: { USD: 1, GBP: 0.8 } })).toEqual({
      ok: true,
      rates: { USD: 1, GBP: 0.8 },
    });
    expect(parseProviderRates({ base_code: "USD", conversion_rates: { USD: 1, EUR: 0.9 } })).toEqual({
      ok: true,
      rates: { USD: 1, EUR: 0.9 },
    });
    expect(parseProviderRates({ GBP: 0.8, USD: 1 })).toEqual({ ok: true, rates: { GBP: 0.8, USD: 1 } });
    expect(parseProviderRates({ rates: { GBP: 0.8 } })).toEqual({ ok: true, rates: { GBP: 0.8, USD: 1 } });
  });

  it("rejects invalid, non-positive or non-USD rates", () => {
    expect(parseProviderRates({ rates: { USD: 1, GBP: 0 } }).ok).toBe(false);
    expect(parseProviderRates({ rates: { USD: 1, GBP: -1 } }).ok).toBe(false);
    expect(parseProviderRates({ rates: { USD: 1, GBP: "0.8" } }).ok).toBe(false);
    expect(parseProviderRates({ rates: { USD: 1, GBP: null } }).ok).toBe(false);
    expect(parseProviderRates({ rates: { USD: 1.1, GBP: 0.8 } }).ok).toBe(false);
    expect(parseProviderRates({ base: "EUR", rates: { USD: 1, GBP: 0.8 } }).ok).toBe(false);
    expect(parseProviderRates({ rates: {} }).ok).toBe(false);
    expect(parseProviderRates(null).ok).toBe(false);
    expect(parseProviderRates("rates").ok).toBe(false);
    expect(parseProviderRates([1, 2]).ok).toBe(false);
  });
});

describe("resolveCurrency", () => {
  it("lets a saved preference win only when auto-detect is off", () => {
    expect(
      resolveCurrency({
        preference: { preferredCurrency: "INR", autoDetectCurrency: false },
        detected: "GBP",
      }),
    ).toBe("INR");
    expect(
      resolveCurrency({
        preference: { preferredCurrency: "INR", autoDetectCurrency: true },
        detected: "GBP",
      }),
    ).toBe("GBP");
  });

  it("uses the detected location, else USD", () => {
    expect(resolveCurrency({ detected: "EUR" })).toBe("EUR");
    expect(resolveCurrency({})).toBe("USD");
    expect(
      resolveCurrency({ preference: { preferredCurrency: "INR", autoDetectCurrency: true }, detected: null }),
    ).toBe("USD");
    expect(
      resolveCurrency({
        preference: { preferredCurrency: "bad!", autoDetectCurrency: false },
        detected: "CAD",
      }),
    ).toBe("CAD");
  });
});

describe("detectionChanged (the root loader writes the preference only then)", () => {
  const gb = { country_code: "GB", country_name: "United Kingdom", currency: "GBP" };
  it("is true when nothing is saved yet", () => {
    expect(detectionChanged(null, gb)).toBe(true);
  });
  it("is false when the saved row already holds what was detected", () => {
    expect(
      detectionChanged({ preferredCurrency: "GBP", autoDetectCurrency: true, countryCode: "GB" }, gb),
    ).toBe(false);
  });
  it("is true when the country moved", () => {
    expect(
      detectionChanged({ preferredCurrency: "GBP", autoDetectCurrency: true, countryCode: "IE" }, gb),
    ).toBe(true);
  });
  it("ignores the currency of a client who chose one, but not the country", () => {
    const chosen = { preferredCurrency: "INR", autoDetectCurrency: false, countryCode: "GB" };
    expect(detectionChanged(chosen, gb)).toBe(false);
    expect(detectionChanged({ ...chosen, countryCode: "US" }, gb)).toBe(true);
  });
  it("is true when auto-detection is on and the currency differs", () => {
    expect(
      detectionChanged({ preferredCurrency: "USD", autoDetectCurrency: true, countryCode: "GB" }, gb),
    ).toBe(true);
  });
});
