/**
 * Money as exact decimals (ARCHITECTURE.md "The server decides money"): an amount of a currency is an
 * integer of its minor units (cents, or yen for zero-decimal currencies) whenever it is added, split or
 * compared, and a number of major units only where it is stored (numeric(14, 2)) or shown. Pure and
 * shared by the server and the browser (no I/O, no zod): orders price with it, refunds split with it,
 * the currency feature rounds its conversions with it.
 */

/**
 * Currencies without minor units (ISO 4217 exponent 0): "JPY and KRW are shown with 0 decimals", and
 * so is every other zero-decimal currency.
 */
const ZERO_DECIMAL = new Set([
  "BIF",
  "CLP",
  "DJF",
  "GNF",
  "ISK",
  "JPY",
  "KMF",
  "KRW",
  "PYG",
  "RWF",
  "UGX",
  "UYI",
  "VND",
  "VUV",
  "XAF",
  "XOF",
  "XPF",
]);

/** Decimals shown for a currency: 0 for zero-decimal currencies, otherwise 2. */
export function decimalsFor(currency: string): number {
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : 2;
}

/**
 * Rounds to a whole number, halves away from zero, as the decimal the float stands for: binary floating
 * point holds 1.005 × 100 as 100.49999999999999 and 6.35% of 41000 as 2603.4999999999995, so the
 * value is first read at 15 significant digits (all a double holds exactly), which removes that noise
 * and nothing else (2603.4999999 stays below the half). Beyond 10^15 a double has no fraction to round.
 */
export function roundHalfAwayFromZero(value: number): number {
  const size = Math.abs(value);
  const decimal = size < 1e15 ? Number(size.toPrecision(15)) : size;
  return Math.sign(value) * Math.round(decimal);
}

/**
 * Amount → integer minor units of its currency (80.00 USD → 8000, 1200 JPY → 1200), rounded half away
 * from zero: a stored amount (numeric read as a number) comes back exactly, a computed one is rounded once.
 */
export function toMinorUnits(amount: number, currency: string): number {
  return roundHalfAwayFromZero(amount * 10 ** decimalsFor(currency));
}

/** A line's amount, quantity × unit price, in minor units (each unit price rounded once, then multiplied). */
export function lineAmountMinor(unitPrice: number, quantity: number, currency: string): number {
  return toMinorUnits(unitPrice, currency) * quantity;
}

/** Minor units → the major-unit number the database stores (numeric(14, 2)) and pages format. */
export function fromMinorUnits(minor: number, currency: string): number {
  return minor / 10 ** decimalsFor(currency);
}

/** Rounds an amount to the decimals its currency shows ("rounded to 2 decimals; JPY and KRW 0"). */
export function roundForCurrency(amount: number, currency: string): number {
  return fromMinorUnits(toMinorUnits(amount, currency), currency);
}

export type AmountInput = { ok: true; minor: number } | { ok: false; error: string };

/** The largest amount a form may name, in minor units: far above any invoice, below 2^53. */
const MAX_MINOR = 1e13;

/**
 * An amount typed by a person ("12.50", "1,200", " 80 ") → minor units of `currency`, read from its
 * digits (never through a float). More decimals than the currency has is refused, not rounded.
 */
export function parseAmountInput(text: string, currency: string): AmountInput {
  const cleaned = text.trim().replace(/[\s,]/g, "");
  const decimals = decimalsFor(currency);
  const match = /^(\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return { ok: false, error: "Enter the amount as a number, like 12.50." };
  const [, whole, fraction = ""] = match;
  const significant = fraction.replace(/0+$/, "");
  if (significant.length > decimals) {
    return {
      ok: false,
      error:
        decimals === 0
          ? `${currency} has no decimals: enter a whole amount.`
          : `${currency} has ${decimals} decimals: enter at most ${decimals} after the point.`,
    };
  }
  const minor = Number(whole) * 10 ** decimals + Number(significant.padEnd(decimals, "0") || "0");
  if (!Number.isSafeInteger(minor) || minor > MAX_MINOR)
    return { ok: false, error: "The amount is too large." };
  if (minor <= 0) return { ok: false, error: "Enter an amount above zero." };
  return { ok: true, minor };
}
