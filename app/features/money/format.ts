/**
 * Money as people read it: each currency in its own locale ("₹2,08,125.00", "23,00 €", "¥3,738"), one
 * cached Intl formatter per locale and currency, and a plain fallback when Intl cannot format. Shared by
 * the pages, the PDFs and the emails; an amount is formatted from its major units (minor-units.ts).
 */
import { decimalsFor } from "./minor-units";

/** The locale each currency is displayed in ("Display formats are defined for 28 currencies"). */
export const CURRENCY_LOCALES: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({
  USD: "en-US",
  EUR: "de-DE",
  GBP: "en-GB",
  INR: "en-IN",
  AUD: "en-AU",
  CAD: "en-CA",
  JPY: "ja-JP",
  NZD: "en-NZ",
  KRW: "ko-KR",
  CNY: "zh-CN",
  HKD: "zh-HK",
  SGD: "en-SG",
  CHF: "de-CH",
  SEK: "sv-SE",
  NOK: "nb-NO",
  DKK: "da-DK",
  PLN: "pl-PL",
  CZK: "cs-CZ",
  HUF: "hu-HU",
  TRY: "tr-TR",
  ILS: "he-IL",
  AED: "en-AE",
  SAR: "en-SA",
  ZAR: "en-ZA",
  BRL: "pt-BR",
  MXN: "es-MX",
  THB: "th-TH",
  MYR: "ms-MY",
  IDR: "id-ID",
  PHP: "en-PH",
  RUB: "ru-RU",
});

/** Symbols for the fallback format, when Intl cannot format ("the currency symbol followed by the number"). */
const SYMBOLS: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({
  USD: "$",
  EUR: "€",
  GBP: "£",
  INR: "₹",
  AUD: "A$",
  CAD: "C$",
  JPY: "¥",
  NZD: "NZ$",
  KRW: "₩",
  CNY: "¥",
  HKD: "HK$",
  SGD: "S$",
  CHF: "CHF ",
  SEK: "kr ",
  NOK: "kr ",
  DKK: "kr ",
  PLN: "zł ",
  CZK: "Kč ",
  HUF: "Ft ",
  TRY: "₺",
  ILS: "₪",
  AED: "AED ",
  SAR: "SAR ",
  ZAR: "R ",
  BRL: "R$",
  MXN: "MX$",
  THB: "฿",
  MYR: "RM ",
  IDR: "Rp ",
  PHP: "₱",
  RUB: "₽",
  VND: "₫",
});

/** "Currency formatting failure: falls back to the currency symbol followed by the number." */
export function fallbackFormat(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  const symbol = SYMBOLS[code] ?? `${code} `;
  const decimals = decimalsFor(code);
  const [whole, fraction] = Math.abs(amount).toFixed(decimals).split(".");
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${amount < 0 ? "-" : ""}${symbol}${grouped}${fraction ? `.${fraction}` : ""}`;
}

const formatters = new Map<string, Intl.NumberFormat>();

/** Formats an amount already in `currency`, in that currency's locale. Never throws. */
export function formatMoney(amount: number, currency: string, locale?: string): string {
  const code = currency.toUpperCase();
  const useLocale = locale ?? CURRENCY_LOCALES[code] ?? "en-US";
  const key = `${useLocale}|${code}`;
  try {
    let formatter = formatters.get(key);
    if (!formatter) {
      const decimals = decimalsFor(code);
      formatter = new Intl.NumberFormat(useLocale, {
        style: "currency",
        currency: code,
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
      });
      formatters.set(key, formatter);
    }
    return formatter.format(amount);
  } catch {
    return fallbackFormat(amount, code);
  }
}
