import { describe, expect, it } from "vitest";
import { priceCopy, priceText, usdInCopy } from "./page-content";

const prices = { pricing: { basic: 25, incident: 4.5 }, addons: { procurement: { usd: 5 } } };

describe("priceText", () => {
  it("fills package and add-on prices from the catalogue", () => {
    expect(
      priceText("{price.basic} one-time, {price.incident} per incident, +{addon.procurement}", prices),
    ).toBe("$25 one-time, $4.50 per incident, +$5");
  });

  it("refuses a token the catalogue cannot fill instead of showing a blank", () => {
    expect(() => priceText("{price.enterprise}", prices)).toThrow(/price\.enterprise/);
    expect(() => priceText("{addon.rush}", prices)).toThrow(/addon\.rush/);
  });

  it("leaves text without tokens alone", () => {
    expect(priceText("Delivery in 24-48h.", prices)).toBe("Delivery in 24-48h.");
  });
});

describe("priceCopy", () => {
  it("fills every string of nested copy and keeps the rest", () => {
    const copy = { a: "{price.basic}", list: [{ text: "+{addon.procurement}" }], flag: true, n: 3 };
    expect(priceCopy(copy, prices)).toEqual({ a: "$25", list: [{ text: "+$5" }], flag: true, n: 3 });
    expect(copy.a).toBe("{price.basic}");
  });
});

describe("usdInCopy", () => {
  it("writes whole dollars without cents", () => {
    expect(usdInCopy(4)).toBe("$4");
    expect(usdInCopy(4.5)).toBe("$4.50");
  });
});
