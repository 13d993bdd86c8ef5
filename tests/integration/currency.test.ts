/**
 * GET /api/exchange-rates and GET /api/detect-location through the built server, with a live fake
 * rate provider on 127.0.0.1. These endpoints do not touch the database, so they run on PGlite only;
 * the preference writes (currency-preferences.test.ts) run on every test database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../support/databases";
import { type FakeRatesProvider, startFakeRatesProvider } from "../support/fake-rates";
import { startTestServer, type TestServer } from "../support/server";

const database = testDatabases[0]!;
const FIFTEEN_MINUTES = 900_000;

const getJson = async (server: TestServer, path: string, headers: Record<string, string> = {}) => {
  const res = await server.get(path, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return res.json();
};

describe("GET /api/exchange-rates with a live provider", () => {
  let provider: FakeRatesProvider;
  let server: TestServer;
  let now = Date.parse("2026-03-01T12:00:00Z");
  beforeAll(async () => {
    provider = await startFakeRatesProvider({
      status: 200,
      body: { base: "USD", rates: { USD: 1, GBP: 0.5, INR: 80, EUR: 0.9 } },
      delayMs: 150,
    });
    server = await startTestServer(database, { EXCHANGE_RATES_URL: provider.url });
    // The injectable clock of the process-wide rates service: time moves only when the test says.
    server.portico.runtime.currency.rates.now = () => now;
  });
  afterAll(async () => {
    await server?.close();
    await provider?.close();
  });

  it("answers the provider's rates, fetched once for many concurrent requests", async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => getJson(server, "/api/exchange-rates")),
    );
    expect(provider.calls).toBe(1);
    for (const a of answers) {
      expect(a).toMatchObject({ base: "USD", source: "live", fetched_at: "2026-03-01T12:00:00.000Z" });
      expect(a.rates).toMatchObject({ USD: 1, GBP: 0.5, INR: 80, EUR: 0.9, AUD: 1.52 });
    }
  });

  it("serves from the cache for 15 minutes, then calls the provider once again", async () => {
    const before = provider.calls;
    now += FIFTEEN_MINUTES - 1;
    await Promise.all([getJson(server, "/api/exchange-rates"), server.get("/services/ssl-setup")]);
    expect(provider.calls).toBe(before);
    now += 1;
    provider.respond = { status: 200, body: { rates: { USD: 1, GBP: 0.6 } }, delayMs: 100 };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => getJson(server, "/api/exchange-rates")),
    );
    expect(provider.calls).toBe(before + 1);
    for (const a of answers) expect(a.rates.GBP).toBe(0.6);
  });

  it("renders service pages with the live rate on the server, with USD beneath", async () => {
    const html = await (
      await server.get("/services/ssl-setup", { headers: { "accept-language": "en-GB" } })
    ).text();
    // $10 single domain at 0.6 GBP per USD.
    expect(html).toContain('data-price-usd="10" data-currency="GBP">£6.00</span>');
    expect(html).toMatch(/data-price-usd-beneath="true">\$10\.00(<!-- -->)? USD/);
  });
});

describe.each([
  ["a failing provider", { status: 503, body: { error: "maintenance" } }, "built-in (provider failed)"],
  [
    "a provider answering invalid rates",
    { status: 200, body: { rates: { USD: 1, GBP: -1 } } },
    "built-in (provider invalid)",
  ],
  [
    "a provider answering rates against EUR",
    { status: 200, body: { base: "EUR", rates: { USD: 1.08, EUR: 1 } } },
    "built-in (provider invalid)",
  ],
  ["a provider answering non-JSON", { status: 200, body: "<html>oops</html>" }, "built-in (provider failed)"],
  [
    "a provider slower than the timeout",
    { status: 200, body: { rates: { USD: 1, GBP: 0.5 } }, delayMs: 3000 },
    "built-in (provider failed)",
  ],
] as const)("GET /api/exchange-rates with %s", (_name, respond, source) => {
  let provider: FakeRatesProvider;
  let server: TestServer;
  beforeAll(async () => {
    provider = await startFakeRatesProvider(respond);
    server = await startTestServer(database, {
      EXCHANGE_RATES_URL: provider.url,
      EXCHANGE_RATES_TIMEOUT_MS: "300",
    });
  });
  afterAll(async () => {
    await server?.close();
    await provider?.close();
  });

  it("falls back to the built-in table and says so", async () => {
    const body = await getJson(server, "/api/exchange-rates");
    expect(body.source).toBe(source);
    expect(body.base).toBe("USD");
    expect(body.rates).toMatchObject({
      USD: 1,
      INR: 83.25,
      AUD: 1.52,
      EUR: 0.92,
      GBP: 0.79,
      CAD: 1.36,
      JPY: 149.5,
    });
    expect(Number.isNaN(Date.parse(body.fetched_at))).toBe(false);
    const html = await (
      await server.get("/services/ssl-setup", { headers: { "accept-language": "en-GB" } })
    ).text();
    expect(html).toContain('data-price-usd="10" data-currency="GBP">£7.90</span>');
    expect(provider.calls).toBe(1);
  });
});

describe("GET /api/detect-location", () => {
  let plain: TestServer;
  let behindProxy: TestServer;
  beforeAll(async () => {
    plain = await startTestServer(database);
    behindProxy = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      COUNTRY_HEADER: "CF-IPCountry",
    });
  });
  afterAll(async () => {
    await plain?.close();
    await behindProxy?.close();
  });

  it("uses the trusted proxy's country header when configured", async () => {
    expect(
      await getJson(behindProxy, "/api/detect-location", {
        "cf-ipcountry": "IN",
        "x-forwarded-for": "81.2.69.160",
      }),
    ).toEqual({ country_code: "IN", country_name: "India", currency: "INR" });
  });

  it("ignores that header when not configured", async () => {
    expect(
      await getJson(plain, "/api/detect-location", { "cf-ipcountry": "IN", "accept-language": "en-AU" }),
    ).toEqual({ country_code: "AU", country_name: "Australia", currency: "AUD" });
  });

  it("looks the client address up in the offline GeoIP database", async () => {
    expect(await getJson(behindProxy, "/api/detect-location", { "x-forwarded-for": "81.2.69.160" })).toEqual({
      country_code: "GB",
      country_name: "United Kingdom",
      currency: "GBP",
    });
    // Without TRUST_PROXY a forwarded address is not believed: the loopback address has no country.
    expect(
      await getJson(plain, "/api/detect-location", {
        "x-forwarded-for": "81.2.69.160",
        "accept-language": "de-DE",
      }),
    ).toEqual({ country_code: "DE", country_name: "Germany", currency: "EUR" });
  });

  it("falls back to the Accept-Language region, read on every request", async () => {
    const a = await getJson(plain, "/api/detect-location", { "accept-language": "en-GB,en;q=0.9" });
    const b = await getJson(plain, "/api/detect-location", { "accept-language": "fr-FR,fr;q=0.9" });
    const c = await getJson(plain, "/api/detect-location", { "accept-language": "en-SG" });
    expect([a, b, c]).toEqual([
      { country_code: "GB", country_name: "United Kingdom", currency: "GBP" },
      { country_code: "FR", country_name: "France", currency: "EUR" },
      { country_code: "SG", country_name: "Singapore", currency: "USD" },
    ]);
  });

  it("defaults to US, United States, USD", async () => {
    const res = await plain.get("/api/detect-location", { headers: { "accept-language": "en" } });
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(await res.json()).toEqual({ country_code: "US", country_name: "United States", currency: "USD" });
  });

  it("renders pages in the detected currency on the server (no flash of USD)", async () => {
    const html = await (
      await plain.get("/services/per-incident-support", { headers: { "accept-language": "en-IN" } })
    ).text();
    expect(html).toContain('data-price-usd="20" data-currency="INR">₹1,665.00</span>');
    const home = await (await plain.get("/", { headers: { "accept-language": "en-GB" } })).text();
    expect(home).toMatch(/Starting from.*?data-currency="GBP">£/s);
    const us = await (await plain.get("/services/per-incident-support")).text();
    expect(us).toContain('data-price-usd="20" data-currency="USD">$20.00</span>');
    expect(us).not.toContain("data-price-usd-beneath");
  });
});
