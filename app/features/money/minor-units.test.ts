import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromMinorUnits, lineAmountMinor, parseAmountInput, toMinorUnits } from "./minor-units";

const NOT_A_NUMBER = "Enter the amount as a number, like 12.50.";

describe("minor units", () => {
  it("prices a line as its rounded unit price times its quantity (a quote's lines, the order page's)", () => {
    expect(lineAmountMinor(0.29, 3, "USD")).toBe(87);
    expect(lineAmountMinor(19.99, 100, "USD")).toBe(199_900);
    expect(lineAmountMinor(1059, 2, "JPY")).toBe(2118);
  });

  it("moves between amounts and minor units", () => {
    expect(toMinorUnits(80, "USD")).toBe(8000);
    expect(toMinorUnits(0.29, "USD")).toBe(29);
    expect(toMinorUnits(1059, "JPY")).toBe(1059);
    expect(fromMinorUnits(8000, "USD")).toBe(80);
  });

  it("round-trips stored amounts exactly", () => {
    expect(toMinorUnits(94.4, "USD")).toBe(9440);
    expect(toMinorUnits(0.29, "USD")).toBe(29);
    expect(toMinorUnits(1200, "JPY")).toBe(1200);
    expect(fromMinorUnits(9440, "USD")).toBe(94.4);
    expect(fromMinorUnits(1200, "JPY")).toBe(1200);
    for (let minor = 0; minor < 100_000; minor += 7) {
      expect(toMinorUnits(fromMinorUnits(minor, "EUR"), "EUR")).toBe(minor);
    }
  });
});

describe("amounts are exact decimals end to end", () => {
  it("keeps every amount of cents, yen and won through minor units and back", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (minor) => {
        expect(toMinorUnits(fromMinorUnits(minor, "USD"), "USD")).toBe(minor);
        expect(toMinorUnits(fromMinorUnits(minor, "JPY"), "JPY")).toBe(minor);
        expect(toMinorUnits(fromMinorUnits(minor, "KRW"), "KRW")).toBe(minor);
      }),
      { numRuns: 2000 },
    );
    // And the amount is the decimal the minor units say (its shortest form prints it).
    expect(String(fromMinorUnits(29, "USD"))).toBe("0.29");
    expect(String(fromMinorUnits(5997, "USD"))).toBe("59.97");
    expect(String(fromMinorUnits(-101, "EUR"))).toBe("-1.01");
    expect(fromMinorUnits(9076, "JPY")).toBe(9076);
  });

  it("rounds a half cent away from zero, as the decimal is written (1.005 → 1.01)", () => {
    expect(toMinorUnits(1.005, "USD")).toBe(101); // stored as 1.00499999999999989…
    expect(toMinorUnits(1.015, "USD")).toBe(102);
    expect(toMinorUnits(2.675, "USD")).toBe(268);
    expect(toMinorUnits(0.125, "USD")).toBe(13);
    expect(toMinorUnits(-1.005, "USD")).toBe(-101);
    expect(toMinorUnits(0, "USD")).toBe(0);
    // Every half cent up to ten million dollars, written with three decimals.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), (cents) => {
        const half = Number(`${(cents / 100).toFixed(2)}5`);
        expect(toMinorUnits(half, "USD")).toBe(cents + 1);
        expect(toMinorUnits(-half, "USD")).toBe(-(cents + 1));
      }),
      { numRuns: 5000 },
    );
  });
});

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
