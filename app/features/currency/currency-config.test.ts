import { describe, expect, it } from "vitest";
import { loadConfig } from "~/config.server";

describe("currency configuration", () => {
  it("defaults to the built-in rates, no proxy header and offline GeoIP", () => {
    expect(loadConfig({}).currency).toEqual({
      exchangeRatesUrl: null,
      exchangeRatesTimeoutMs: 3000,
      countryHeader: null,
      geoip: true,
    });
  });

  it("reads the provider, its timeout, the proxy's country header and the GeoIP switch", () => {
    expect(
      loadConfig({
        EXCHANGE_RATES_URL: "https://rates.example/latest/USD",
        EXCHANGE_RATES_TIMEOUT_MS: "1500",
        COUNTRY_HEADER: "CF-IPCountry",
        GEOIP: "false",
      }).currency,
    ).toEqual({
      exchangeRatesUrl: "https://rates.example/latest/USD",
      exchangeRatesTimeoutMs: 1500,
      countryHeader: "cf-ipcountry",
      geoip: false,
    });
  });

  it.each([
    [{ EXCHANGE_RATES_URL: "ftp://rates" }, /EXCHANGE_RATES_URL must start with http:/],
    [{ EXCHANGE_RATES_TIMEOUT_MS: "soon" }, /EXCHANGE_RATES_TIMEOUT_MS must be a number of milliseconds/],
    [{ EXCHANGE_RATES_TIMEOUT_MS: "60000" }, /EXCHANGE_RATES_TIMEOUT_MS must be at most 30000/],
    [{ COUNTRY_HEADER: "cf ipcountry" }, /COUNTRY_HEADER must be an HTTP header name/],
    [{ GEOIP: "maybe" }, /GEOIP must be true or false/],
  ])("rejects %o", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
