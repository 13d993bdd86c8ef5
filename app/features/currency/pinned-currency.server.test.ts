import { describe, expect, it } from "vitest";
import { SELECTABLE_CURRENCIES } from "./currency";
import {
  clearPinnedCurrency,
  pinnedCurrencyCookieName,
  pinnedPreference,
  readPinnedCurrency,
  reconcilePinnedCurrency,
} from "./pinned-currency.server";
import type { RatesSnapshot } from "./rates.server";

const snapshot: RatesSnapshot = {
  rates: { USD: 1, EUR: 0.92, GBP: 0.79 },
  base: "USD",
  source: "built-in",
  fetched_at: "2026-01-01T00:00:00.000Z",
};

describe("the pinned-currency cookie (ADR 0822)", () => {
  it("is read by its exact name only, three capital letters or nothing", () => {
    expect(readPinnedCurrency("a=1; portico.currency=EUR; b=2", false)).toBe("EUR");
    expect(readPinnedCurrency("portico.currency=eur", false)).toBeNull();
    expect(readPinnedCurrency("portico.currency=EURO", false)).toBeNull();
    expect(readPinnedCurrency("xportico.currency=EUR", false)).toBeNull();
    expect(readPinnedCurrency("portico.currency", false)).toBeNull();
    expect(readPinnedCurrency(undefined, false)).toBeNull();
    // Over https only the __Host- cookie counts (a sibling subdomain cannot set it).
    expect(pinnedCurrencyCookieName(true)).toBe("__Host-portico.currency");
    expect(readPinnedCurrency("portico.currency=EUR", true)).toBeNull();
    expect(readPinnedCurrency("__Host-portico.currency=GBP", true)).toBe("GBP");
  });

  it("pins only currencies the rates know, so there is one shared page per currency at most", () => {
    expect(pinnedPreference("EUR", snapshot)).toEqual({
      preferredCurrency: "EUR",
      autoDetectCurrency: false,
      countryCode: null,
    });
    expect(pinnedPreference("USD", { ...snapshot, rates: { EUR: 0.92 } })?.preferredCurrency).toBe("USD");
    expect(pinnedPreference("ZZZ", snapshot)).toBeNull();
    expect(pinnedPreference(null, snapshot)).toBeNull();
  });

  it("accepts only the currencies the selector offers (issue 35): a made-up or unoffered code is no pin", () => {
    for (const code of SELECTABLE_CURRENCIES) {
      expect(readPinnedCurrency(`portico.currency=${code}`, false), code).toBe(code);
    }
    // Known to the rates, but not offered: not a key of its own in the page cache.
    expect(readPinnedCurrency("portico.currency=JPY", false)).toBeNull();
    expect(pinnedPreference("JPY", { ...snapshot, rates: { ...snapshot.rates, JPY: 149.5 } })).toBeNull();
    // A client who saved such a code (detection off) is not pinned to it, and loses a stale pin.
    const jpy = { preferredCurrency: "JPY", autoDetectCurrency: false };
    expect(reconcilePinnedCurrency(null, jpy, false)).toBeNull();
    expect(reconcilePinnedCurrency("portico.currency=JPY", jpy, false)).toMatch(/Max-Age=0/);
  });

  it("follows the saved preference: pinned with detection off, cleared otherwise, untouched when in step", () => {
    const off = { preferredCurrency: "EUR", autoDetectCurrency: false };
    const on = { preferredCurrency: "EUR", autoDetectCurrency: true };
    expect(reconcilePinnedCurrency(null, off, false)).toBe(
      "portico.currency=EUR; Path=/; Max-Age=7776000; HttpOnly; SameSite=Lax",
    );
    expect(reconcilePinnedCurrency("portico.currency=EUR", off, false)).toBeNull();
    expect(reconcilePinnedCurrency("portico.currency=GBP", off, true)).toBe(
      "__Host-portico.currency=EUR; Path=/; Max-Age=7776000; HttpOnly; SameSite=Lax; Secure",
    );
    expect(reconcilePinnedCurrency("portico.currency=EUR", on, false)).toBe(
      "portico.currency=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax",
    );
    expect(reconcilePinnedCurrency("portico.currency=junk", null, false)).toMatch(/Max-Age=0/);
    expect(reconcilePinnedCurrency("other=1", null, false)).toBeNull();
    expect(reconcilePinnedCurrency(null, on, false)).toBeNull();
    expect(clearPinnedCurrency("a=1", false)).toBeNull();
    expect(clearPinnedCurrency("portico.currency=EUR", false)).toMatch(/^portico\.currency=; .*Max-Age=0/);
  });
});
