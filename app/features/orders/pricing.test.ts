import { describe, expect, it } from "vitest";
import { fromMinorUnits, priceOrder, toMinorUnits } from "./pricing";

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
