import { describe, expect, it } from "vitest";
import { SEED_SERVICES } from "~/features/catalogue/seed-data";
import { chooseAddons, fromMinorUnits, priceOrder, toMinorUnits } from "./pricing";

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

  it("moves between amounts and minor units", () => {
    expect(toMinorUnits(80, "USD")).toBe(8000);
    expect(toMinorUnits(0.29, "USD")).toBe(29);
    expect(toMinorUnits(1059, "JPY")).toBe(1059);
    expect(fromMinorUnits(8000, "USD")).toBe(80);
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
