import { describe, expect, it } from "vitest";
import { CURRENCY_LOCALES, fallbackFormat, formatMoney } from "./format";
import { decimalsFor } from "./minor-units";

/** Intl output uses narrow/no-break spaces in some locales; compare with plain spaces. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("formatting", () => {
  it("formats in each currency's own locale", () => {
    expect(formatMoney(19.75, "GBP")).toBe("£19.75");
    expect(formatMoney(2081.25, "INR")).toBe("₹2,081.25");
    expect(formatMoney(208125, "INR")).toBe("₹2,08,125.00");
    expect(plain(formatMoney(23, "EUR"))).toBe("23,00 €");
    expect(formatMoney(3738, "JPY")).toMatch(/^[¥￥]3,738$/);
    expect(formatMoney(38, "AUD")).toBe("$38.00");
    expect(formatMoney(25, "USD")).toBe("$25.00");
  });

  it("defines working formats for at least 28 currencies", () => {
    const codes = Object.keys(CURRENCY_LOCALES);
    expect(codes.length).toBeGreaterThanOrEqual(28);
    for (const code of codes) {
      const locale = CURRENCY_LOCALES[code]!;
      expect(Intl.NumberFormat.supportedLocalesOf([locale]), code).toEqual([locale]);
      const decimals = decimalsFor(code);
      const expected = new Intl.NumberFormat(locale, {
        style: "currency",
        currency: code,
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
      }).format(1234.5);
      expect(formatMoney(1234.5, code), code).toBe(expected);
    }
  });

  it("falls back to the currency symbol followed by the number when Intl cannot format", () => {
    expect(fallbackFormat(1234.5, "GBP")).toBe("£1,234.50");
    expect(fallbackFormat(1234.5, "JPY")).toBe("¥1,235");
    expect(fallbackFormat(-3, "ABC")).toBe("-ABC 3.00");
    // A malformed code and a malformed locale make Intl throw; formatMoney never does.
    expect(formatMoney(5, "EURO")).toBe("EURO 5.00");
    expect(formatMoney(5, "GBP", "not a locale!")).toBe("£5.00");
  });
});
