/**
 * Pricing of an order, done by the server only (ARCHITECTURE.md "The server decides money"). Pure:
 * sums are computed in integer minor units of each currency and stored rounded, so the order, its
 * invoice and the provider's charge always agree to the cent (or yen).
 */
import { BASE_CURRENCY, decimalsFor } from "~/features/currency/currency";

export interface PriceInput {
  /** Package price per unit, in USD. */
  unitPriceUsd: number;
  quantity: number;
  /** The currency the client pays in. */
  currency: string;
  /** Units of `currency` per USD (1 for USD). */
  rate: number;
  taxRatePercent: number;
}

export interface OrderPrice {
  currency: string;
  exchangeRate: number;
  unitPriceUsd: number;
  quantity: number;
  /** Before tax, in USD. */
  amountUsd: number;
  /** Before tax, in `currency`. */
  subtotal: number;
  taxRatePercent: number;
  taxAmount: number;
  /** What is due, in `currency`. */
  total: number;
  /** What is due, in USD. */
  totalUsd: number;
}

/** Amount → integer minor units of its currency (e.g. 80.00 USD → 8000, 1200 JPY → 1200). */
export function toMinorUnits(amount: number, currency: string): number {
  const factor = 10 ** decimalsFor(currency);
  return Math.round(amount * factor + Math.sign(amount) * 1e-7);
}

export function fromMinorUnits(minor: number, currency: string): number {
  return minor / 10 ** decimalsFor(currency);
}

export function priceOrder(input: PriceInput): OrderPrice {
  const { unitPriceUsd, quantity, taxRatePercent } = input;
  const currency = input.currency.toUpperCase();
  const rate = currency === BASE_CURRENCY ? 1 : input.rate;
  if (!Number.isFinite(unitPriceUsd) || unitPriceUsd < 0) throw new RangeError("bad unit price");
  if (!Number.isInteger(quantity) || quantity < 1) throw new RangeError("bad quantity");
  if (!Number.isFinite(rate) || rate <= 0) throw new RangeError(`no usable rate for ${currency}`);
  if (!Number.isFinite(taxRatePercent) || taxRatePercent < 0) throw new RangeError("bad tax rate");
  const usdMinor = toMinorUnits(unitPriceUsd, "USD") * quantity;
  const subtotalMinor = toMinorUnits(fromMinorUnits(usdMinor, "USD") * rate, currency);
  const taxMinor = Math.round((subtotalMinor * taxRatePercent) / 100);
  const usdTaxMinor = Math.round((usdMinor * taxRatePercent) / 100);
  return {
    currency,
    exchangeRate: rate,
    unitPriceUsd,
    quantity,
    amountUsd: fromMinorUnits(usdMinor, "USD"),
    subtotal: fromMinorUnits(subtotalMinor, currency),
    taxRatePercent,
    taxAmount: fromMinorUnits(taxMinor, currency),
    total: fromMinorUnits(subtotalMinor + taxMinor, currency),
    totalUsd: fromMinorUnits(usdMinor + usdTaxMinor, "USD"),
  };
}
