/**
 * Currency maths and display, shared by the server and the browser (no I/O, no React).
 * Prices are stored in USD and converted from USD (public-site.md §9 "Currency"). Minor units,
 * rounding and formatting are money's (features/money); conversion, rates and locations are here.
 */
import { formatMoney } from "~/features/money/format";
import { roundForCurrency } from "~/features/money/minor-units";

export const BASE_CURRENCY = "USD";

/** "Default currency USD." (client-portal.md §9) */
export const DEFAULT_CURRENCY = "USD";

/** "The selectable currencies on the portal are USD, INR, AUD, EUR, GBP, CAD." (public-site.md §9) */
export const SELECTABLE_CURRENCIES = ["USD", "INR", "AUD", "EUR", "GBP", "CAD"] as const;

/** A three-letter currency code, trimmed and uppercased, or null. (No zod here: this module ships to the browser.) */
export function toCurrencyCode(value: string | null | undefined): string | null {
  const code = (value ?? "").trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code) ? code : null;
}

/** A two-letter country code, trimmed and uppercased, or null. */
export function toCountryCode(value: string | null | undefined): string | null {
  const code = (value ?? "").trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) ? code : null;
}

export type Rates = Record<string, number>;

const EURO_COUNTRIES = [
  "AT",
  "BE",
  "CY",
  "DE",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PT",
  "SI",
  "SK",
  "AD",
  "MC",
  "SM",
  "VA",
  "ME",
  "XK",
];

/**
 * "A country-to-currency map covers about 70 countries; euro countries map to EUR; SG, HK and AE map
 * to USD." (public-site.md §9). A country not listed gets USD.
 */
export const COUNTRY_CURRENCY: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({
  ...Object.fromEntries(EURO_COUNTRIES.map((c) => [c, "EUR"])),
  US: "USD",
  PR: "USD",
  EC: "USD",
  SV: "USD",
  PA: "USD",
  SG: "USD",
  HK: "USD",
  AE: "USD",
  GB: "GBP",
  IN: "INR",
  AU: "AUD",
  CA: "CAD",
  NZ: "NZD",
  JP: "JPY",
  KR: "KRW",
  CN: "CNY",
  TW: "TWD",
  CH: "CHF",
  LI: "CHF",
  SE: "SEK",
  NO: "NOK",
  DK: "DKK",
  IS: "ISK",
  PL: "PLN",
  CZ: "CZK",
  HU: "HUF",
  RO: "RON",
  BG: "BGN",
  RS: "RSD",
  UA: "UAH",
  RU: "RUB",
  TR: "TRY",
  IL: "ILS",
  SA: "SAR",
  QA: "QAR",
  KW: "KWD",
  BH: "BHD",
  OM: "OMR",
  EG: "EGP",
  ZA: "ZAR",
  NG: "NGN",
  KE: "KES",
  GH: "GHS",
  MA: "MAD",
  PK: "PKR",
  BD: "BDT",
  LK: "LKR",
  NP: "NPR",
  TH: "THB",
  MY: "MYR",
  ID: "IDR",
  PH: "PHP",
  VN: "VND",
  BR: "BRL",
  MX: "MXN",
  AR: "ARS",
  CL: "CLP",
  CO: "COP",
  PE: "PEN",
});

/**
 * "A built-in fallback rate table covers about 50 currencies, for example INR 83.25, AUD 1.52,
 * EUR 0.92, GBP 0.79, CAD 1.36, JPY 149.5." Units of each currency per 1 USD.
 */
export const FALLBACK_RATES: Readonly<Rates> = /* @__PURE__ */ Object.freeze({
  USD: 1,
  EUR: 0.92,
  GBP: 0.79,
  INR: 83.25,
  AUD: 1.52,
  CAD: 1.36,
  JPY: 149.5,
  NZD: 1.64,
  KRW: 1330,
  CNY: 7.24,
  TWD: 31.9,
  HKD: 7.82,
  SGD: 1.34,
  CHF: 0.88,
  SEK: 10.45,
  NOK: 10.55,
  DKK: 6.87,
  ISK: 137,
  PLN: 3.98,
  CZK: 22.8,
  HUF: 355,
  RON: 4.58,
  BGN: 1.8,
  RSD: 108,
  UAH: 38.5,
  RUB: 92,
  TRY: 32.2,
  ILS: 3.7,
  AED: 3.67,
  SAR: 3.75,
  QAR: 3.64,
  KWD: 0.31,
  BHD: 0.376,
  OMR: 0.385,
  EGP: 47.5,
  ZAR: 18.6,
  NGN: 1450,
  KES: 129,
  GHS: 14.5,
  MAD: 10,
  PKR: 278,
  BDT: 110,
  LKR: 300,
  NPR: 133,
  THB: 35.8,
  MYR: 4.7,
  IDR: 15700,
  PHP: 56,
  VND: 24500,
  BRL: 5.05,
  MXN: 17.1,
  ARS: 870,
  CLP: 930,
  COP: 3950,
  PEN: 3.75,
});

/**
 * Converts a USD amount into `currency` with `rates` (units per USD), rounded for that currency.
 * Null when the conversion is impossible (no usable rate, bad amount): callers then keep USD
 * ("Currency conversion failure: logged; prices stay in USD").
 */
export function convertFromUsd(usd: number, currency: string, rates: Rates): number | null {
  const code = currency.toUpperCase();
  const rate = code === BASE_CURRENCY ? 1 : rates[code];
  if (!Number.isFinite(usd) || rate === undefined || !Number.isFinite(rate) || rate <= 0) return null;
  return roundForCurrency(usd * rate, code);
}

/** What a price shows: the converted amount, or USD when conversion fails. */
export interface DisplayPrice {
  currency: string;
  amount: number;
  text: string;
  /** True when shown in another currency than USD (the USD amount may then go beneath). */
  converted: boolean;
}

export function displayPrice(usd: number, currency: string, rates: Rates): DisplayPrice {
  const code = currency.toUpperCase();
  const amount = code === BASE_CURRENCY ? usd : convertFromUsd(usd, code, rates);
  if (amount === null)
    return { currency: BASE_CURRENCY, amount: usd, text: formatMoney(usd, "USD"), converted: false };
  return { currency: code, amount, text: formatMoney(amount, code), converted: code !== BASE_CURRENCY };
}

/** The currency of a country (ISO 3166-1 alpha-2); USD for countries not in the map. */
export function currencyForCountry(countryCode: string | null | undefined): string {
  if (!countryCode) return DEFAULT_CURRENCY;
  return COUNTRY_CURRENCY[countryCode.toUpperCase()] ?? DEFAULT_CURRENCY;
}

let regionNames: Intl.DisplayNames | null | undefined;

/** The English name of a country ("United Kingdom"); the code itself when unknown. */
export function countryName(countryCode: string): string {
  const code = countryCode.toUpperCase();
  if (code === "US") return "United States";
  if (regionNames === undefined) {
    try {
      regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
    } catch {
      regionNames = null;
    }
  }
  try {
    return regionNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

/** Codes that proxies and GeoIP databases use for "unknown" (Cloudflare XX and T1 for Tor, ZZ). */
const UNKNOWN_COUNTRIES = new Set(["XX", "T1", "ZZ", "EU", "AP"]);

/** A usable two-letter country code, uppercased, or null. */
export function normalizeCountryCode(value: string | null | undefined): string | null {
  const code = toCountryCode(value);
  if (!code || UNKNOWN_COUNTRIES.has(code)) return null;
  return code;
}

/**
 * The region of the most preferred language that names one: "en-GB,en;q=0.9" gives GB,
 * "zh-Hant-TW" gives TW. Null when no language carries a region.
 */
export function regionFromAcceptLanguage(header: string | null | undefined): string | null {
  if (!header) return null;
  const entries = header
    .slice(0, 1000)
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      const weight = q === undefined ? 1 : Number(q);
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((e) => e.tag && e.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of entries) {
    const subtags = tag.split(/[-_]/).slice(1);
    for (const subtag of subtags) {
      if (/^[A-Za-z]{2}$/.test(subtag)) {
        const region = normalizeCountryCode(subtag);
        if (region) return region;
      }
    }
  }
  return null;
}

export interface DetectedLocation {
  country_code: string;
  country_name: string;
  currency: string;
}

/** "on failure the product logs and uses US, United States, USD" (public-site.md §7) */
export const DEFAULT_LOCATION: Readonly<DetectedLocation> = /* @__PURE__ */ Object.freeze({
  country_code: "US",
  country_name: "United States",
  currency: "USD",
});

export function locationForCountry(countryCode: string): DetectedLocation {
  const code = countryCode.toUpperCase();
  return { country_code: code, country_name: countryName(code), currency: currencyForCountry(code) };
}

/**
 * "a saved user preference overrides detection only when auto_detect_currency is false; otherwise the
 * detected location decides. The default currency is USD." (public-site.md §4)
 */
export function resolveCurrency(input: {
  preference?: { preferredCurrency: string; autoDetectCurrency: boolean } | null;
  detected?: string | null;
}): string {
  const { preference, detected } = input;
  if (preference && !preference.autoDetectCurrency) {
    const saved = toCurrencyCode(preference.preferredCurrency);
    if (saved) return saved;
  }
  return toCurrencyCode(detected) ?? DEFAULT_CURRENCY;
}

/** Whether detection found something the saved preference does not hold yet. */
export function detectionChanged(
  saved: { preferredCurrency: string; autoDetectCurrency: boolean; countryCode: string | null } | null,
  detected: DetectedLocation,
): boolean {
  if (!saved) return true;
  if (saved.countryCode !== detected.country_code) return true;
  return saved.autoDetectCurrency && saved.preferredCurrency !== detected.currency;
}
