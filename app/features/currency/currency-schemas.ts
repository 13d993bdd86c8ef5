/**
 * zod schemas of the currency feature, for the server: codes in requests and rows, and the rates a
 * live provider answers with. Kept apart from currency.ts, which ships to the browser without zod.
 */
import { z } from "zod";
import { BASE_CURRENCY, type Rates, toCountryCode, toCurrencyCode } from "./currency";

export const currencyCodeSchema = z.string().transform((value, ctx) => {
  const code = toCurrencyCode(value);
  if (code) return code;
  ctx.addIssue({ code: "custom", message: "must be a three-letter currency code" });
  return z.NEVER;
});

export const countryCodeSchema = z.string().transform((value, ctx) => {
  const code = toCountryCode(value);
  if (code) return code;
  ctx.addIssue({ code: "custom", message: "must be a two-letter country code" });
  return z.NEVER;
});

/**
 * Validates rates from a provider: an object of currency code to a finite, positive number, with
 * USD = 1. Accepts `{rates: {...}}`, `{conversion_rates: {...}}`, `{data: {...}}` or the bare map.
 * Entries that are not valid currency codes are dropped; a bad rate for a valid code rejects all.
 */
const rateMapSchema = z.record(z.string(), z.unknown()).transform((raw, ctx) => {
  const rates: Rates = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!/^[A-Z]{3}$/.test(key)) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      ctx.addIssue({ code: "custom", message: `rate for ${key} must be a finite positive number` });
      return z.NEVER;
    }
    rates[key] = value;
  }
  if (rates.USD === undefined) rates.USD = 1;
  if (Math.abs(rates.USD - 1) > 1e-9) {
    ctx.addIssue({ code: "custom", message: "USD must be 1 (rates must be against USD)" });
    return z.NEVER;
  }
  if (Object.keys(rates).length < 2) {
    ctx.addIssue({ code: "custom", message: "no rates" });
    return z.NEVER;
  }
  return rates;
});

const ratesPayloadSchema = z.union([
  z.object({ rates: rateMapSchema, base: z.string().optional() }),
  z.object({ conversion_rates: rateMapSchema, base_code: z.string().optional() }),
  z.object({ data: rateMapSchema }),
]);

export type ParsedRates = { ok: true; rates: Rates } | { ok: false; error: string };

export function parseProviderRates(payload: unknown): ParsedRates {
  const wrapped = ratesPayloadSchema.safeParse(payload);
  if (wrapped.success) {
    const w = wrapped.data;
    const base = "base" in w ? w.base : "base_code" in w ? w.base_code : undefined;
    if (base !== undefined && base.toUpperCase() !== BASE_CURRENCY) {
      return { ok: false, error: `base is ${base}, not USD` };
    }
    const rates = "rates" in w ? w.rates : "conversion_rates" in w ? w.conversion_rates : w.data;
    return { ok: true, rates };
  }
  const isWrapped =
    typeof payload === "object" &&
    payload !== null &&
    ["rates", "conversion_rates", "data"].some((k) => k in payload);
  if (!isWrapped) {
    const bare = rateMapSchema.safeParse(payload);
    if (bare.success) return { ok: true, rates: bare.data };
    return { ok: false, error: bare.error.issues[0]?.message ?? "invalid rates" };
  }
  return { ok: false, error: wrapped.error.issues[0]?.message ?? "invalid rates" };
}
