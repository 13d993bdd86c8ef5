import { describe, expect, it } from "vitest";
import type { QuoteLine } from "~/db/schema";
import { depositSplit, quoteAmounts, quoteFigures, quoteNumberFor } from "./quote-pricing";

const free = (quantity: number, unitPriceUsd: number): QuoteLine => ({
  kind: "free",
  description: "Work",
  quantity,
  unitPriceUsd,
});

describe("quote amounts", () => {
  it("adds lines in cents, takes the discount off, taxes what is left, rounding once", () => {
    const a = quoteAmounts([free(400, 4.1), free(3, 19.99)], 100, 18);
    expect(a.lineCents).toEqual([164000, 5997]);
    expect(a.subtotalCents).toBe(169997);
    expect(a.discountCents).toBe(10000);
    // 18% of 1599.97 = 287.9946 → 287.99
    expect(a.taxCents).toBe(28799);
    expect(a.totalCents).toBe(159997 + 28799);
  });

  it("never discounts below zero", () => {
    const a = quoteAmounts([free(1, 10)], 25, 0);
    expect(a).toMatchObject({ discountCents: 1000, totalCents: 0 });
  });

  it("is exact where floats are not: 0.1 + 0.2, 3 × 19.99", () => {
    expect(quoteAmounts([free(1, 0.1), free(1, 0.2)], 0, 0).totalCents).toBe(30);
    expect(quoteAmounts([free(3, 19.99)], 0, 0).totalCents).toBe(5997);
  });
});

describe("deposit and balance", () => {
  it("without a deposit the first invoice is everything", () => {
    expect(depositSplit({ taxCents: 180, totalCents: 1180 }, null)).toEqual({
      first: { subtotalCents: 1000, taxCents: 180, totalCents: 1180 },
      balance: null,
    });
  });

  it("deposit + balance = total to the cent, tax included, for every percent of awkward totals", () => {
    for (const totalCents of [1, 99, 1001, 188796, 333_333]) {
      const taxCents = Math.round(totalCents * 0.15);
      for (let percent = 1; percent <= 99; percent++) {
        const { first, balance } = depositSplit({ taxCents, totalCents }, percent);
        expect(first.totalCents + balance!.totalCents).toBe(totalCents);
        expect(first.taxCents + balance!.taxCents).toBe(taxCents);
        expect(first.subtotalCents + balance!.subtotalCents).toBe(totalCents - taxCents);
        expect(first.subtotalCents + first.taxCents).toBe(first.totalCents);
      }
    }
  });

  it("rounds the deposit half away from zero: 30% of $10.05 is $3.02 (3.015)", () => {
    const { first, balance } = depositSplit({ taxCents: 0, totalCents: 1005 }, 30);
    expect(first.totalCents).toBe(302);
    expect(balance!.totalCents).toBe(703);
  });
});

describe("the owner's page figures", () => {
  const stored = { lines: [free(3, 19.99), free(1, 100)], discountUsd: 0, taxRatePercent: 0 };
  it("shows each line's amount, and the deposit and balance only when there is a deposit", () => {
    expect(quoteFigures({ ...stored, taxUsd: 0, totalUsd: 159.97, depositPercent: 30 })).toEqual({
      lineUsd: [59.97, 100],
      depositUsd: 47.99,
      balanceUsd: 111.98,
    });
    expect(quoteFigures({ ...stored, taxUsd: 0, totalUsd: 159.97, depositPercent: null })).toEqual({
      lineUsd: [59.97, 100],
      depositUsd: null,
      balanceUsd: null,
    });
  });
});

describe("numbers", () => {
  it("numbers quotes Q-{year}-{seq} with four digits, growing past 9999", () => {
    expect(quoteNumberFor(2026, 1)).toBe("Q-2026-0001");
    expect(quoteNumberFor(2026, 12345)).toBe("Q-2026-12345");
  });
});
