import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CurrencyProvider } from "./CurrencyContext";
import { CurrencySelector } from "./CurrencySelector";
import type { CurrencyState } from "./currency-state";
import { CurrencyStore } from "./currency-store";
import { DetectedCountryNote } from "./DetectedCountryNote";
import { Price } from "./Price";

const state = (currency: string, rates: Record<string, number>, country = "GB"): CurrencyState => ({
  currency,
  rates,
  location: { country_code: country, country_name: country === "GB" ? "United Kingdom" : "Japan", currency },
});

const render = (value: CurrencyState | undefined, ui: ReactElement) =>
  renderToString(<CurrencyProvider value={value}>{ui}</CurrencyProvider>).replaceAll("<!-- -->", "");

describe("Price", () => {
  it("renders in the page's currency on the server, with the USD amount beneath when asked", () => {
    const html = render(state("GBP", { USD: 1, GBP: 0.79 }), <Price usd={25} showUsd className="text-3xl" />);
    expect(html).toContain('data-currency="GBP">£19.75</span>');
    expect(html).toContain("$25.00 USD");
    expect(html).toContain('class="flex flex-col text-3xl"');
    expect(render(state("GBP", { USD: 1, GBP: 0.79 }), <Price usd={25} />)).not.toContain("USD</span>");
  });

  it("shows USD only, without a line beneath, for USD visitors and when conversion fails", () => {
    const usd = render(state("USD", { USD: 1 }), <Price usd={25} showUsd />);
    expect(usd).toContain('data-currency="USD">$25.00</span>');
    expect(usd).not.toContain("data-price-usd-beneath");
    const noRate = render(state("GBP", { USD: 1 }), <Price usd={25} showUsd />);
    expect(noRate).toContain('data-currency="USD">$25.00</span>');
    expect(render(undefined, <Price usd={4} />)).toContain("$4.00");
  });

  it("shows '...' only while a client-side change is loading, then the converted price", async () => {
    let resolveRates!: (rates: Record<string, number>) => void;
    const store = new CurrencyStore(
      state("GBP", { USD: 1, GBP: 0.79 }),
      () => new Promise((r) => (resolveRates = r)),
    );
    const html = () =>
      renderToString(
        <CurrencyProvider value={undefined} store={store}>
          <Price usd={20} showUsd />
        </CurrencyProvider>,
      ).replaceAll("<!-- -->", "");
    expect(html()).toContain(">£15.80</span>");
    const change = store.setCurrency("INR");
    expect(html()).toContain(">...</span>");
    expect(html()).toContain("$20.00 USD");
    resolveRates({ USD: 1, INR: 83.25 });
    await change;
    expect(html()).toContain('data-currency="INR">₹1,665.00</span>');
  });

  it("uses 0 decimals for yen", () => {
    expect(render(state("JPY", { USD: 1, JPY: 149.5 }, "JP"), <Price usd={25} />)).toMatch(/[¥￥]3,738/);
  });
});

describe("CurrencySelector", () => {
  it("offers USD, INR, AUD, EUR, GBP and CAD with the current currency selected", () => {
    const html = render(state("EUR", { USD: 1, EUR: 0.92 }), <CurrencySelector />);
    const options = [...html.matchAll(/<option value="([A-Z]{3})"( selected="")?/g)].map((m) => [
      m[1],
      Boolean(m[2]),
    ]);
    expect(options).toEqual([
      ["USD", false],
      ["INR", false],
      ["AUD", false],
      ["EUR", true],
      ["GBP", false],
      ["CAD", false],
    ]);
    expect(html).toContain('name="currency"');
    expect(html).toMatch(/<label for="([^"]+)"[^>]*>Currency<\/label><select id="\1"/);
  });

  it("keeps a detected currency outside the list visible as the current one", () => {
    const html = render(state("JPY", { USD: 1, JPY: 149.5 }, "JP"), <CurrencySelector />);
    expect(html).toContain('<option value="JPY" selected="">JPY</option>');
  });
});

describe("DetectedCountryNote", () => {
  it("names the detected country and its currency", () => {
    const html = render(state("GBP", { USD: 1, GBP: 0.79 }), <DetectedCountryNote />);
    expect(html).toContain("Detected country: ");
    expect(html).toContain("United Kingdom</span> (GBP)");
  });
});
