import { describe, expect, it } from "vitest";
import { SEED_SERVICES } from "~/features/catalogue/seed-data";
import { fromMinorUnits, roundHalfAwayFromZero, toMinorUnits } from "~/features/money/minor-units";
import { chargeCurrency, chooseAddons, priceOrder } from "./pricing";

const seed = (slug: string) => SEED_SERVICES.find((s) => s.slug === slug)!;
const procurement = { key: "procurement", name: "Certificate procurement", unitPriceUsd: 5 };

describe("priceOrder", () => {
  it("prices 20 mailboxes of email migration at $80.00", () => {
    const p = priceOrder({ unitPriceUsd: 4, quantity: 20, currency: "USD", rate: 1, taxRatePercent: 0 });
    expect(p).toMatchObject({
      amountUsd: 80,
      subtotal: 80,
      taxAmount: 0,
      total: 80,
      totalUsd: 80,
      exchangeRate: 1,
    });
  });

  it("converts at the given rate and rounds to the currency's decimals", () => {
    const inr = priceOrder({ unitPriceUsd: 4, quantity: 3, currency: "inr", rate: 83.25, taxRatePercent: 0 });
    expect(inr).toMatchObject({ currency: "INR", subtotal: 999, total: 999, amountUsd: 12 });
    const jpy = priceOrder({
      unitPriceUsd: 7,
      quantity: 1,
      currency: "JPY",
      rate: 151.337,
      taxRatePercent: 0,
    });
    expect(jpy.total).toBe(1059);
    expect(Number.isInteger(jpy.total)).toBe(true);
  });

  it("adds tax in both currencies", () => {
    const p = priceOrder({ unitPriceUsd: 25, quantity: 1, currency: "EUR", rate: 0.92, taxRatePercent: 18 });
    expect(p).toMatchObject({ subtotal: 23, taxAmount: 4.14, total: 27.14, amountUsd: 25, totalUsd: 29.5 });
  });

  it("ignores the rate for USD and refuses bad input", () => {
    expect(
      priceOrder({ unitPriceUsd: 5, quantity: 2, currency: "USD", rate: 99, taxRatePercent: 0 }).total,
    ).toBe(10);
    expect(() =>
      priceOrder({ unitPriceUsd: 5, quantity: 0, currency: "USD", rate: 1, taxRatePercent: 0 }),
    ).toThrow();
    expect(() =>
      priceOrder({ unitPriceUsd: 5, quantity: 1.5, currency: "USD", rate: 1, taxRatePercent: 0 }),
    ).toThrow();
    expect(() =>
      priceOrder({ unitPriceUsd: 5, quantity: 1, currency: "EUR", rate: Number.NaN, taxRatePercent: 0 }),
    ).toThrow();
  });
});

describe("amounts are exact decimals end to end", () => {
  it("reads sums and products of floats as the cents they stand for", () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(toMinorUnits(0.1 + 0.2, "USD")).toBe(30);
    expect(toMinorUnits(0.29, "USD")).toBe(29); // 0.29 × 100 is 28.999999999999996 in binary
    expect(toMinorUnits(19.99 * 3, "USD")).toBe(5997);
    expect(toMinorUnits(0.1 + 0.7, "USD")).toBe(80); // 0.7999999999999999
    expect(toMinorUnits(1.1 * 3, "USD")).toBe(330); // 3.3000000000000003
    expect(
      priceOrder({ unitPriceUsd: 19.99, quantity: 3, currency: "USD", rate: 1, taxRatePercent: 0 }),
    ).toMatchObject({
      amountUsd: 59.97,
      total: 59.97,
    });
  });

  it("leaves an amount just below the half below it (a fixed 1e-7 nudge used to round it up)", () => {
    expect(toMinorUnits(1.234999999, "USD")).toBe(123);
    expect(toMinorUnits(12.344999999, "USD")).toBe(1234);
    expect(toMinorUnits(0.004999999, "USD")).toBe(0);
    expect(toMinorUnits(1059.4999999, "JPY")).toBe(1059);
    expect(roundHalfAwayFromZero(2603.4999999)).toBe(2603);
    // $7 at 151.35714285 yen per dollar is 1059.49999995 yen: 1059, not 1060.
    const jpy = priceOrder({
      unitPriceUsd: 7,
      quantity: 1,
      currency: "JPY",
      rate: 151.35714285,
      taxRatePercent: 0,
    });
    expect(jpy.total).toBe(1059);
  });

  it("rounds yen and won once, on the line's converted total, to whole units", () => {
    expect(toMinorUnits(1059.5, "JPY")).toBe(1060);
    expect(toMinorUnits(0.5, "KRW")).toBe(1);
    expect(toMinorUnits(1059.36, "JPY")).toBe(1059);
    // 3 × $19.99 = $59.97 → 59.97 × 151.337 = 9075.68 → ¥9076 (each unit rounded first: 3 × ¥3025 = 9075).
    const jpy = priceOrder({
      unitPriceUsd: 19.99,
      quantity: 3,
      currency: "JPY",
      rate: 151.337,
      taxRatePercent: 0,
    });
    expect(jpy).toMatchObject({ packageAmount: 9076, subtotal: 9076, total: 9076, amountUsd: 59.97 });
    // 59.97 × 1380.55 = 82791.58 → ₩82792 (each unit first: 3 × ₩27597 = 82791).
    const krw = priceOrder({
      unitPriceUsd: 19.99,
      quantity: 3,
      currency: "KRW",
      rate: 1380.55,
      taxRatePercent: 0,
    });
    expect(krw).toMatchObject({ packageAmount: 82792, subtotal: 82792, total: 82792 });
    // Rounding again changes nothing.
    expect(toMinorUnits(fromMinorUnits(toMinorUnits(9075.68, "JPY"), "JPY"), "JPY")).toBe(9076);
    // Tax on yen is whole yen too: 10% of ¥9076 is ¥907.6 → ¥908.
    const taxed = priceOrder({
      unitPriceUsd: 19.99,
      quantity: 3,
      currency: "JPY",
      rate: 151.337,
      taxRatePercent: 10,
    });
    expect(taxed).toMatchObject({ taxAmount: 908, total: 9984 });
  });

  it("rounds a tax's half cent up with a fractional rate too (it used to fall below: 26.035 → 26.03)", () => {
    // 6.35% of $410.00 is $26.035 exactly; in binary 41000 × 6.35 / 100 is 2603.4999999999995.
    const p = priceOrder({ unitPriceUsd: 410, quantity: 1, currency: "USD", rate: 1, taxRatePercent: 6.35 });
    expect(p).toMatchObject({ subtotal: 410, taxAmount: 26.04, total: 436.04, totalUsd: 436.04 });
    // 0.7% of $55.00 is $0.385 (38.49999999999999 in binary) → $0.39.
    const q = priceOrder({ unitPriceUsd: 55, quantity: 1, currency: "USD", rate: 1, taxRatePercent: 0.7 });
    expect(q).toMatchObject({ taxAmount: 0.39, total: 55.39 });
  });
});

describe("the SSL procurement add-on (client-portal.md §9: procurement fee +$5 each)", () => {
  it("is offered with SSL only; any other service refuses it", () => {
    expect(chooseAddons(seed("ssl-setup").addons ?? {}, ["procurement"])).toEqual({
      ok: true,
      addons: [procurement],
    });
    expect(chooseAddons(seed("ssl-setup").addons ?? {}, [])).toEqual({ ok: true, addons: [] });
    // Asked twice, charged once.
    expect(chooseAddons(seed("ssl-setup").addons ?? {}, ["procurement", "procurement"])).toEqual({
      ok: true,
      addons: [procurement],
    });
    for (const s of SEED_SERVICES.filter((x) => x.slug !== "ssl-setup")) {
      expect(chooseAddons(s.addons ?? {}, ["procurement"])).toEqual({ ok: false, unknown: "procurement" });
    }
    expect(chooseAddons(seed("ssl-setup").addons ?? {}, ["procurement", "gift-wrap"])).toEqual({
      ok: false,
      unknown: "gift-wrap",
    });
  });

  it("adds $5 per certificate as its own line, included in the totals", () => {
    const without = priceOrder({
      unitPriceUsd: 10,
      quantity: 1,
      currency: "USD",
      rate: 1,
      taxRatePercent: 0,
    });
    expect(without).toMatchObject({ packageAmount: 10, addons: [], amountUsd: 10, subtotal: 10, total: 10 });
    const withIt = priceOrder({
      unitPriceUsd: 10,
      quantity: 1,
      addons: [procurement],
      currency: "USD",
      rate: 1,
      taxRatePercent: 0,
    });
    expect(withIt).toMatchObject({ packageAmount: 10, amountUsd: 15, subtotal: 15, total: 15, totalUsd: 15 });
    expect(withIt.addons).toEqual([
      {
        key: "procurement",
        name: "Certificate procurement",
        unitPriceUsd: 5,
        quantity: 1,
        amountUsd: 5,
        amountInCurrency: 5,
      },
    ]);
  });

  it("charges it once per unit of quantity", () => {
    const p = priceOrder({
      unitPriceUsd: 25,
      quantity: 3,
      addons: [procurement],
      currency: "USD",
      rate: 1,
      taxRatePercent: 0,
    });
    expect(p).toMatchObject({ packageAmount: 75, amountUsd: 90, subtotal: 90, total: 90 });
    expect(p.addons[0]).toMatchObject({ quantity: 3, amountUsd: 15, amountInCurrency: 15 });
  });

  it("converts it like the package, lines adding up to the subtotal, and taxes it", () => {
    const inr = priceOrder({
      unitPriceUsd: 10,
      quantity: 1,
      addons: [procurement],
      currency: "INR",
      rate: 83.25,
      taxRatePercent: 18,
    });
    expect(inr).toMatchObject({ packageAmount: 832.5, amountUsd: 15, subtotal: 1248.75 });
    expect(inr.addons[0]!.amountInCurrency).toBe(416.25);
    expect(inr.taxAmount).toBe(224.78);
    expect(inr.total).toBe(1473.53);
    expect(inr.totalUsd).toBe(17.7);
    // Rounded per line in a zero-decimal currency: 7 × 151.337 = 1059.36 → 1059, 5 × 151.337 → 757.
    const jpy = priceOrder({
      unitPriceUsd: 7,
      quantity: 1,
      addons: [procurement],
      currency: "JPY",
      rate: 151.337,
      taxRatePercent: 0,
    });
    expect(jpy).toMatchObject({ packageAmount: 1059, subtotal: 1816, total: 1816 });
    expect(jpy.addons[0]!.amountInCurrency).toBe(757);
  });

  it("refuses an add-on with a bad price", () => {
    expect(() =>
      priceOrder({
        unitPriceUsd: 10,
        quantity: 1,
        addons: [{ ...procurement, unitPriceUsd: Number.NaN }],
        currency: "USD",
        rate: 1,
        taxRatePercent: 0,
      }),
    ).toThrow();
  });
});

describe("chargeCurrency", () => {
  it("charges in the client's currency when it has a usable rate, else in USD", () => {
    const rates = { EUR: 0.92, JPY: 150, XXX: 0 };
    expect(chargeCurrency("EUR", rates)).toEqual({ currency: "EUR", rate: 0.92 });
    expect(chargeCurrency("eur", rates)).toEqual({ currency: "EUR", rate: 0.92 });
    expect(chargeCurrency("XXX", rates)).toEqual({ currency: "USD", rate: 1 });
    expect(chargeCurrency("GBP", rates)).toEqual({ currency: "USD", rate: 1 });
    expect(chargeCurrency("USD", rates)).toEqual({ currency: "USD", rate: 1 });
    expect(chargeCurrency(null, rates)).toEqual({ currency: "USD", rate: 1 });
  });
});
