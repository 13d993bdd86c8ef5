import { describe, expect, it, vi } from "vitest";
import { FALLBACK_RATES } from "./currency";
import { ExchangeRatesService, RATES_FAILURE_TTL_MS, RATES_TTL_MS } from "./rates.server";

function clock(start = Date.parse("2026-01-01T00:00:00Z")) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("ExchangeRatesService", () => {
  it("uses the built-in table without a provider, without calling anything", async () => {
    const fetchImpl = vi.fn<typeof fetch>();
    const service = new ExchangeRatesService({ url: null, timeoutMs: 1000, fetch: fetchImpl });
    const snapshot = await service.get();
    expect(snapshot).toMatchObject({ base: "USD", source: "built-in", rates: FALLBACK_RATES });
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it("fetches live rates once for concurrent callers and caches them for 15 minutes", async () => {
    const c = clock();
    const fetchImpl = vi.fn<typeof fetch>(async () => json({ base: "USD", rates: { USD: 1, GBP: 0.8 } }));
    const service = new ExchangeRatesService({
      url: "http://rates.test/",
      timeoutMs: 1000,
      fetch: fetchImpl,
      now: c.now,
    });
    const all = await Promise.all(Array.from({ length: 20 }, () => service.get()));
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    for (const s of all) expect(s).toMatchObject({ source: "live", fetched_at: "2026-01-01T00:00:00.000Z" });
    // The provider's rates, completed by the built-in table for currencies it left out.
    expect(all[0]!.rates.GBP).toBe(0.8);
    expect(all[0]!.rates.INR).toBe(83.25);

    c.advance(RATES_TTL_MS - 1);
    await service.get();
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    c.advance(1);
    await Promise.all([service.get(), service.get()]);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    expect(RATES_TTL_MS).toBe(900_000);
  });

  it("falls back on an HTTP error, invalid rates or a network error, and retries after a minute", async () => {
    const c = clock();
    const answers = [
      async () => json({ error: "down" }, 503),
      async () => json({ rates: { USD: 1, GBP: -2 } }),
      async () => {
        throw new TypeError("fetch failed");
      },
      async () => json({ rates: { USD: 1, GBP: 0.81 } }),
    ];
    const fetchImpl = vi.fn<typeof fetch>(() => answers.shift()!());
    const warn = vi.fn();
    const service = new ExchangeRatesService({
      url: "http://rates.test/",
      timeoutMs: 1000,
      fetch: fetchImpl,
      now: c.now,
      logger: { warn, info: vi.fn() },
    });
    expect((await service.get()).source).toBe("built-in (provider failed)");
    expect((await service.get()).rates).toEqual(FALLBACK_RATES);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    c.advance(RATES_FAILURE_TTL_MS);
    expect((await service.get()).source).toBe("built-in (provider invalid)");
    c.advance(RATES_FAILURE_TTL_MS);
    expect((await service.get()).source).toBe("built-in (provider failed)");
    c.advance(RATES_FAILURE_TTL_MS);
    const live = await service.get();
    expect(live.source).toBe("live");
    expect(live.rates.GBP).toBe(0.81);
    expect(warn).toHaveBeenCalledTimes(3);
  });

  it("gives up after the timeout", async () => {
    const fetchImpl = vi.fn<typeof fetch>(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener("abort", () => reject(init.signal!.reason));
        }),
    );
    const service = new ExchangeRatesService({ url: "http://rates.test/", timeoutMs: 100, fetch: fetchImpl });
    const started = Date.now();
    expect((await service.get()).source).toBe("built-in (provider failed)");
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
