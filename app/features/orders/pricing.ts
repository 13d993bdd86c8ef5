/**
 * Pricing of an order, done by the server only (ARCHITECTURE.md "The server decides money"). Pure:
 * sums are computed in integer minor units of each currency and stored rounded, so the order, its
 * invoice and the provider's charge always agree to the cent (or yen).
 */

import type { AddonMap, OrderAddon } from "~/db/schema";
import { BASE_CURRENCY } from "~/features/currency/currency";
import type { InvoicePrice } from "~/features/invoices/invoices.server";
import { fromMinorUnits, roundHalfAwayFromZero, toMinorUnits } from "~/features/money/minor-units";
import { type DocumentTax, legacyTax } from "~/features/tax/document-tax";

/**
 * The currency a client is charged in, and its rate: theirs when it has a usable rate, else USD (prices
 * "stay in USD"). Checkout, a plan's subscription and its renewals all decide it so.
 */
export function chargeCurrency(code: string | null | undefined, rates: Readonly<Record<string, number>>) {
  const currency = code?.toUpperCase() ?? BASE_CURRENCY;
  const rate = rates[currency];
  return currency !== BASE_CURRENCY && rate && rate > 0
    ? { currency, rate }
    : { currency: BASE_CURRENCY, rate: 1 };
}

/** An add-on chosen with a package, at the catalogue's price per unit (per certificate…). */
export interface ChosenAddon {
  key: string;
  name: string;
  unitPriceUsd: number;
}

export interface PriceInput {
  /** Package price per unit, in USD. */
  unitPriceUsd: number;
  quantity: number;
  /** Add-ons, each charged once per unit of quantity ("procurement fee +$5 each"). */
  addons?: readonly ChosenAddon[];
  /** The currency the client pays in. */
  currency: string;
  /** Units of `currency` per USD (1 for USD). */
  rate: number;
  /** The flat rate of a caller that has no buyer to decide for (a preview); `tax` wins when given. */
  taxRatePercent: number;
  /** The buyer's VAT treatment (issue 40, tax/client-tax.server.ts): the rate charged and frozen. */
  tax?: DocumentTax;
}

/** An order's price: what its invoice bills (`subtotal`, add-ons included; tax; totals), with its lines. */
export interface OrderPrice extends InvoicePrice {
  unitPriceUsd: number;
  quantity: number;
  /** The package's line (unit price × quantity), before add-ons and tax, in `currency`. */
  packageAmount: number;
  /** One line each, in the order chosen; their amounts are part of `amountUsd` and `subtotal`. */
  addons: OrderAddon[];
  /** Before tax, add-ons included, in USD. */
  amountUsd: number;
}

/**
 * The add-ons a purchase asks for, from what the service offers: each key once, in the catalogue's
 * order. An add-on the service does not offer (procurement on anything but SSL) is refused, naming it.
 */
export function chooseAddons(
  offered: Readonly<AddonMap>,
  requested: readonly string[],
): { ok: true; addons: ChosenAddon[] } | { ok: false; unknown: string } {
  const unknown = requested.find((key) => !Object.hasOwn(offered, key));
  if (unknown !== undefined) return { ok: false, unknown };
  const addons = Object.entries(offered)
    .filter(([key]) => requested.includes(key))
    .map(([key, addon]) => ({ key, name: addon.name, unitPriceUsd: addon.usd }));
  return { ok: true, addons };
}

/** One line: USD minor units × quantity, converted to minor units of `currency` at `rate`. */
function line(unitUsd: number, quantity: number, currency: string, rate: number) {
  const usdMinor = toMinorUnits(unitUsd, "USD") * quantity;
  return { usdMinor, minor: toMinorUnits(fromMinorUnits(usdMinor, "USD") * rate, currency) };
}

export function priceOrder(input: PriceInput): OrderPrice {
  const { unitPriceUsd, quantity } = input;
  const tax = input.tax ?? legacyTax(input.taxRatePercent);
  const taxRatePercent = tax.ratePercent;
  const currency = input.currency.toUpperCase();
  const rate = currency === BASE_CURRENCY ? 1 : input.rate;
  if (!Number.isFinite(unitPriceUsd) || unitPriceUsd < 0) throw new RangeError("bad unit price");
  if (!Number.isInteger(quantity) || quantity < 1) throw new RangeError("bad quantity");
  if (!Number.isFinite(rate) || rate <= 0) throw new RangeError(`no usable rate for ${currency}`);
  if (!Number.isFinite(taxRatePercent) || taxRatePercent < 0) throw new RangeError("bad tax rate");
  for (const addon of input.addons ?? []) {
    if (!Number.isFinite(addon.unitPriceUsd) || addon.unitPriceUsd < 0) {
      throw new RangeError(`bad price for add-on ${addon.key}`);
    }
  }
  // Each line is converted and rounded on its own, so the invoice's lines add up to its subtotal.
  const pkg = line(unitPriceUsd, quantity, currency, rate);
  const addons = (input.addons ?? []).map((addon) => {
    const l = line(addon.unitPriceUsd, quantity, currency, rate);
    return {
      addon: {
        key: addon.key,
        name: addon.name,
        unitPriceUsd: addon.unitPriceUsd,
        quantity,
        amountUsd: fromMinorUnits(l.usdMinor, "USD"),
        amountInCurrency: fromMinorUnits(l.minor, currency),
      },
      ...l,
    };
  });
  const usdMinor = pkg.usdMinor + addons.reduce((sum, a) => sum + a.usdMinor, 0);
  const subtotalMinor = pkg.minor + addons.reduce((sum, a) => sum + a.minor, 0);
  const taxMinor = roundHalfAwayFromZero((subtotalMinor * taxRatePercent) / 100);
  const usdTaxMinor = roundHalfAwayFromZero((usdMinor * taxRatePercent) / 100);
  return {
    currency,
    exchangeRate: rate,
    unitPriceUsd,
    quantity,
    packageAmount: fromMinorUnits(pkg.minor, currency),
    addons: addons.map((a) => a.addon),
    amountUsd: fromMinorUnits(usdMinor, "USD"),
    subtotal: fromMinorUnits(subtotalMinor, currency),
    taxRatePercent,
    tax,
    taxAmount: fromMinorUnits(taxMinor, currency),
    total: fromMinorUnits(subtotalMinor + taxMinor, currency),
    totalUsd: fromMinorUnits(usdMinor + usdTaxMinor, "USD"),
  };
}
