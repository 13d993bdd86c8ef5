import { describe, expect, it } from "vitest";
import {
  amountToMinor,
  minorToAmount,
  parseAmountInput,
  refundableMinor,
  refundedLine,
  refundShares,
} from "./refund-math";

const NOT_A_NUMBER = "Enter the amount as a number, like 12.50.";

describe("parseAmountInput", () => {
  it("reads amounts as people type them, exactly, in minor units", () => {
    const cases: Array<[string, string, number]> = [
      ["12.50", "USD", 1250],
      ["12.5", "USD", 1250],
      ["12.05", "USD", 1205],
      ["12.500", "USD", 1250],
      ["12.5000000", "USD", 1250],
      ["0.01", "USD", 1],
      ["007.10", "USD", 710],
      ["80", "USD", 8000],
      [" 80 ", "USD", 8000],
      ["80.", "USD", 8000],
      ["1,200", "USD", 120000],
      ["1,200.99", "USD", 120099],
      ["1 200.5", "EUR", 120050],
      ["1\u00a0200", "EUR", 120000],
      ["12,34,567.89", "INR", 123456789],
      // Zero-decimal currencies: whole numbers, trailing zeros after the point are still exact.
      ["1200", "JPY", 1200],
      ["1,200", "JPY", 1200],
      ["1200.00", "JPY", 1200],
      ["1", "KRW", 1],
      ["1200", "jpy", 1200],
    ];
    for (const [text, currency, minor] of cases) {
      expect(parseAmountInput(text, currency), `${text} ${currency}`).toEqual({ ok: true, minor });
    }
  });

  it("refuses more decimals than the currency has, rather than rounding", () => {
    expect(parseAmountInput("12.345", "USD")).toEqual({
      ok: false,
      error: "USD has 2 decimals: enter at most 2 after the point.",
    });
    expect(parseAmountInput("0.001", "EUR")).toEqual({
      ok: false,
      error: "EUR has 2 decimals: enter at most 2 after the point.",
    });
    expect(parseAmountInput("12.5", "JPY")).toEqual({
      ok: false,
      error: "JPY has no decimals: enter a whole amount.",
    });
    expect(parseAmountInput("1200.01", "JPY")).toEqual({
      ok: false,
      error: "JPY has no decimals: enter a whole amount.",
    });
  });

  it("refuses what is not a plain positive number", () => {
    for (const text of [
      "",
      "   ",
      "abc",
      "-5",
      "+5",
      ".5",
      "1e3",
      "12.3.4",
      "$12",
      "12 USD",
      "0x10",
      "1_000",
    ]) {
      expect(parseAmountInput(text, "USD"), JSON.stringify(text)).toEqual({ ok: false, error: NOT_A_NUMBER });
    }
  });

  it("refuses zero", () => {
    for (const text of ["0", "0.00", "0.000", "000"]) {
      expect(parseAmountInput(text, "USD"), text).toEqual({
        ok: false,
        error: "Enter an amount above zero.",
      });
    }
    expect(parseAmountInput("0", "JPY")).toEqual({ ok: false, error: "Enter an amount above zero." });
  });

  it("refuses huge amounts, up to exactly 10^13 minor units allowed", () => {
    const tooLarge = { ok: false, error: "The amount is too large." };
    expect(parseAmountInput("100000000000", "USD")).toEqual({ ok: true, minor: 1e13 });
    expect(parseAmountInput("100000000000.01", "USD")).toEqual(tooLarge);
    expect(parseAmountInput("10000000000000", "JPY")).toEqual({ ok: true, minor: 1e13 });
    expect(parseAmountInput("10000000000001", "JPY")).toEqual(tooLarge);
    expect(parseAmountInput("99999999999999999999999", "USD")).toEqual(tooLarge);
    expect(parseAmountInput("9".repeat(400), "USD")).toEqual(tooLarge);
  });
});

describe("minor units", () => {
  it("round-trips stored amounts exactly", () => {
    expect(amountToMinor(94.4, "USD")).toBe(9440);
    expect(amountToMinor(0.29, "USD")).toBe(29);
    expect(amountToMinor(1200, "JPY")).toBe(1200);
    expect(minorToAmount(9440, "USD")).toBe(94.4);
    expect(minorToAmount(1200, "JPY")).toBe(1200);
    for (let minor = 0; minor < 100_000; minor += 7) {
      expect(amountToMinor(minorToAmount(minor, "EUR"), "EUR")).toBe(minor);
    }
  });

  it("leaves what was neither refunded nor being refunded, never below zero", () => {
    expect(refundableMinor(8000, 3000, 0)).toBe(5000);
    expect(refundableMinor(8000, 3000, 2000)).toBe(3000);
    expect(refundableMinor(8000, 8000, 0)).toBe(0);
    expect(refundableMinor(8000, 6000, 3000)).toBe(0);
  });
});

/** A small seeded generator (mulberry32): the same splits on every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  /** An integer in [min, max]. */
  return (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
}

describe("refundShares", () => {
  // An invoice of 100.00 (in some currency) with 18% tax included (15.25) worth USD 1.21.
  const invoice = { totalMinor: 10_000, taxMinor: 1_525, usdMinor: 121 };

  it("splits three partial refunds so their shares add up exactly to the invoice's tax and USD", () => {
    const a = refundShares(invoice, 0, 3_333);
    const b = refundShares(invoice, 3_333, 3_333);
    const c = refundShares(invoice, 6_666, 3_334);
    // Cumulative rounding: 508.2825 → 508, 1016.565 → 1017, 1525; 40.33 → 40, 80.66 → 81, 121.
    expect(a).toEqual({ taxMinor: 508, subtotalMinor: 2_825, usdMinor: 40 });
    expect(b).toEqual({ taxMinor: 509, subtotalMinor: 2_824, usdMinor: 41 });
    expect(c).toEqual({ taxMinor: 508, subtotalMinor: 2_826, usdMinor: 40 });
    expect(a.taxMinor + b.taxMinor + c.taxMinor).toBe(1_525);
    expect(a.usdMinor + b.usdMinor + c.usdMinor).toBe(121);
    expect(a.subtotalMinor + b.subtotalMinor + c.subtotalMinor).toBe(10_000 - 1_525);
  });

  it("gives a refund of everything the whole tax and USD value", () => {
    expect(refundShares(invoice, 0, 10_000)).toEqual({
      taxMinor: 1_525,
      subtotalMinor: 8_475,
      usdMinor: 121,
    });
    expect(refundShares({ totalMinor: 12_000, taxMinor: 0, usdMinor: 8_000 }, 0, 12_000)).toEqual({
      taxMinor: 0,
      subtotalMinor: 12_000,
      usdMinor: 8_000,
    });
  });

  it("refuses a refund of nothing, or past the invoice's total", () => {
    expect(() => refundShares(invoice, 0, 0)).toThrow(RangeError);
    expect(() => refundShares(invoice, 0, -1)).toThrow(RangeError);
    expect(() => refundShares(invoice, 0, 10_001)).toThrow(RangeError);
    expect(() => refundShares(invoice, 9_000, 1_001)).toThrow(RangeError);
    expect(refundShares(invoice, 9_000, 1_000).taxMinor).toBeGreaterThanOrEqual(0);
  });

  it("over many random splits: every share is within half a unit of its exact part, and the shares telescope to the whole", () => {
    const rand = seeded(505);
    for (let round = 0; round < 2_000; round++) {
      const totalMinor = rand(1, 10_000_000);
      const taxMinor = rand(0, totalMinor);
      const usdMinor = rand(0, 10_000_000);
      const parts = rand(1, 12);
      // `parts` positive integers adding up to the total (fewer when the total is smaller).
      const cuts = new Set<number>();
      for (let i = 1; i < Math.min(parts, totalMinor); i++) cuts.add(rand(1, totalMinor - 1));
      const bounds = [0, ...[...cuts].sort((x, y) => x - y), totalMinor];
      let refunded = 0;
      let tax = 0;
      let usd = 0;
      let subtotal = 0;
      for (let i = 1; i < bounds.length; i++) {
        const refund = bounds[i]! - bounds[i - 1]!;
        const share = refundShares({ totalMinor, taxMinor, usdMinor }, refunded, refund);
        refunded += refund;
        const label = `${totalMinor}/${taxMinor}/${usdMinor}: ${refund} after ${refunded - refund}`;
        expect(Number.isInteger(share.taxMinor) && Number.isInteger(share.usdMinor), label).toBe(true);
        expect(share.taxMinor, label).toBeGreaterThanOrEqual(0);
        expect(share.subtotalMinor, label).toBeGreaterThanOrEqual(0);
        expect(share.usdMinor, label).toBeGreaterThanOrEqual(0);
        expect(share.taxMinor + share.subtotalMinor, label).toBe(refund);
        tax += share.taxMinor;
        usd += share.usdMinor;
        subtotal += share.subtotalMinor;
        // What has been credited so far is the exact proportional part, rounded once:
        // |credited − part × refunded / total| ≤ ½, checked in integers (products < 2^53).
        expect(Math.abs(tax * totalMinor - taxMinor * refunded) * 2, label).toBeLessThanOrEqual(totalMinor);
        expect(Math.abs(usd * totalMinor - usdMinor * refunded) * 2, label).toBeLessThanOrEqual(totalMinor);
      }
      expect(refunded).toBe(totalMinor);
      expect(tax).toBe(taxMinor);
      expect(usd).toBe(usdMinor);
      expect(subtotal).toBe(totalMinor - taxMinor);
    }
  });
});

describe("how a refunded invoice reads", () => {
  it("writes the refunded line in the invoice's currency", () => {
    expect(refundedLine(80, 30, "USD")).toBe("$30.00 of $80.00 refunded");
    expect(refundedLine(12000, 2000, "JPY")).toBe("￥2,000 of ￥12,000 refunded");
  });
});
