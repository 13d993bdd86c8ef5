import { describe, expect, it } from "vitest";
import { refundableMinor, refundShares } from "./refund-math";

describe("minor units", () => {
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
