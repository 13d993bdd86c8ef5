import { describe, expect, it, vi } from "vitest";
import type { CurrencyState } from "./currency-state";
import { CurrencyStore, fetchSiteRates } from "./currency-store";

const gb: CurrencyState = {
  currency: "GBP",
  rates: { USD: 1, GBP: 0.79 },
  location: { country_code: "GB", country_name: "United Kingdom", currency: "GBP" },
};

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("CurrencyStore", () => {
  it("starts from the server's choice, not loading", () => {
    const store = new CurrencyStore(gb, vi.fn());
    expect(store.getSnapshot()).toMatchObject({
      currency: "GBP",
      loading: false,
      rates: { GBP: 0.79, USD: 1 },
    });
  });

  it("changes at once to a currency whose rate is known, without fetching", async () => {
    const load = vi.fn();
    const store = new CurrencyStore(gb, load);
    const seen = vi.fn();
    store.subscribe(seen);
    await store.setCurrency("USD");
    expect(store.getSnapshot()).toMatchObject({ currency: "USD", loading: false });
    await store.setCurrency("GBP");
    expect(store.getSnapshot().currency).toBe("GBP");
    expect(load).not.toHaveBeenCalled();
    expect(seen).toHaveBeenCalledTimes(2);
  });

  it("is loading while the rates of a new currency are fetched", async () => {
    const rates = deferred<Record<string, number>>();
    const store = new CurrencyStore(gb, () => rates.promise);
    const done = store.setCurrency("inr");
    expect(store.getSnapshot()).toMatchObject({ currency: "INR", loading: true });
    rates.resolve({ USD: 1, INR: 83.25, EUR: 0.92 });
    await done;
    expect(store.getSnapshot()).toMatchObject({
      currency: "INR",
      loading: false,
      rates: { INR: 83.25, GBP: 0.79 },
    });
  });

  it("stops loading with no rate when the fetch fails (prices then stay in USD)", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const store = new CurrencyStore(gb, async () => {
      throw new Error("offline");
    });
    await store.setCurrency("AUD");
    expect(store.getSnapshot()).toMatchObject({ currency: "AUD", loading: false });
    expect(store.getSnapshot().rates.AUD).toBeUndefined();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it("ignores invalid codes and keeps the visitor's choice when new server data arrives", async () => {
    const store = new CurrencyStore(gb, vi.fn());
    await store.setCurrency("not-a-code");
    expect(store.getSnapshot().currency).toBe("GBP");
    store.absorb({ ...gb, currency: "EUR", rates: { USD: 1, EUR: 0.9 } });
    expect(store.getSnapshot().currency).toBe("EUR");
    await store.setCurrency("USD");
    store.absorb(gb);
    expect(store.getSnapshot().currency).toBe("USD");
  });
});

describe("fetchSiteRates", () => {
  it("reads the site's own endpoint and validates the answer", async () => {
    const fetchImpl = vi.fn<typeof fetch>(async () =>
      Response.json({ rates: { USD: 1, EUR: 0.9 }, base: "USD" }),
    );
    expect(await fetchSiteRates(fetchImpl)).toEqual({ USD: 1, EUR: 0.9 });
    expect(fetchImpl).toHaveBeenCalledWith("/api/exchange-rates", expect.anything());
    await expect(
      fetchSiteRates(async () => Response.json({ rates: { EUR: -1 }, base: "USD" })),
    ).rejects.toThrow();
    await expect(fetchSiteRates(async () => new Response("no", { status: 500 }))).rejects.toThrow(/500/);
  });
});
