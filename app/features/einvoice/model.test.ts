import { describe, expect, it } from "vitest";
import { decimalAmount, type EInvoice, eInvoiceTotals, percent } from "./model";

type TotalsInput = Pick<EInvoice, "lines" | "allowances" | "tax" | "prepaidMinor">;

const line = (netMinor: number) => ({
  id: "1",
  name: "Work",
  quantity: 1,
  unitPriceMinor: netMinor,
  netMinor,
});
const standard = (ratePercent: number): EInvoice["tax"] => ({
  category: "S",
  ratePercent,
  exemptionReason: null,
});

describe("eInvoiceTotals", () => {
  it("without allowances: the lines are the basis", () => {
    const doc: TotalsInput = {
      lines: [line(1000), line(1050)],
      allowances: [],
      tax: standard(19),
      prepaidMinor: 0,
    };
    expect(eInvoiceTotals(doc)).toEqual({
      lineTotalMinor: 2050,
      allowanceTotalMinor: 0,
      taxBasisMinor: 2050,
      taxMinor: 390, // 389.5 rounded half up
      grandTotalMinor: 2440,
      dueMinor: 2440,
    });
  });

  it("takes the allowances off the lines before tax (BR-CO-11, BR-CO-13) and the prepaid off the total", () => {
    const doc: TotalsInput = {
      lines: [line(50000), line(12000)],
      allowances: [
        { reason: "Discount agreed in quote Q-2026-0002", amountMinor: 6000 },
        { reason: "Loyalty", amountMinor: 200 },
      ],
      tax: standard(19),
      prepaidMinor: 10000,
    };
    expect(eInvoiceTotals(doc)).toEqual({
      lineTotalMinor: 62000,
      allowanceTotalMinor: 6200,
      taxBasisMinor: 55800,
      taxMinor: 10602,
      grandTotalMinor: 66402,
      dueMinor: 56402,
    });
  });

  it("rounds an exact half up, where floating point would see 34.49999…", () => {
    // 3000 × 1.15 % = 34.5 exactly; (3000 * 1.15) / 100 is 34.49999999999999 in floating point.
    const doc: TotalsInput = { lines: [line(3000)], allowances: [], tax: standard(1.15), prepaidMinor: 0 };
    expect(eInvoiceTotals(doc).taxMinor).toBe(35);
  });

  it("carries no tax at 0 % (categories AE, E, O)", () => {
    const doc: TotalsInput = {
      lines: [line(4551)],
      allowances: [{ reason: "Discount", amountMinor: 51 }],
      tax: { category: "O", ratePercent: 0, exemptionReason: "Not subject to VAT" },
      prepaidMinor: 0,
    };
    expect(eInvoiceTotals(doc)).toMatchObject({ taxBasisMinor: 4500, taxMinor: 0, grandTotalMinor: 4500 });
  });
});

describe("decimalAmount", () => {
  it("writes the currency's decimals, padded", () => {
    expect(decimalAmount(123450, 2)).toBe("1234.50");
    expect(decimalAmount(5, 2)).toBe("0.05");
    expect(decimalAmount(0, 2)).toBe("0.00");
    expect(decimalAmount(1, 3)).toBe("0.001"); // three decimals (e.g. KWD)
  });

  it("writes no decimal point for a currency without decimals (JPY)", () => {
    expect(decimalAmount(1235, 0)).toBe("1235");
    expect(decimalAmount(0, 0)).toBe("0");
    expect(decimalAmount(-7, 0)).toBe("-7");
  });

  it("signs negative amounts, and never writes a negative zero", () => {
    expect(decimalAmount(-5, 2)).toBe("-0.05");
    expect(decimalAmount(-123450, 2)).toBe("-1234.50");
    expect(decimalAmount(-0, 2)).toBe("0.00");
    expect(decimalAmount(-0.4, 2)).toBe("0.00");
  });

  it("rounds a fractional minor amount half away from zero", () => {
    expect(decimalAmount(2.5, 2)).toBe("0.03");
    expect(decimalAmount(-2.5, 2)).toBe("-0.03");
  });

  it("is exact up to the largest safe integer, and refuses what it cannot write", () => {
    expect(decimalAmount(Number.MAX_SAFE_INTEGER, 2)).toBe("90071992547409.91");
    expect(() => decimalAmount(Number.NaN, 2)).toThrow(RangeError);
    expect(() => decimalAmount(Number.POSITIVE_INFINITY, 2)).toThrow(RangeError);
    expect(() => decimalAmount(100, -1)).toThrow(RangeError);
  });
});

describe("percent", () => {
  it("writes a rate without trailing zeros", () => {
    expect(percent(19)).toBe("19");
    expect(percent(7.5)).toBe("7.5");
    expect(percent(0)).toBe("0");
  });
});
