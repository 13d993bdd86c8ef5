import { describe, expect, it, vi } from "vitest";
import { geoipCountry, LOCATION_TTL_MS, LocationDetector } from "./location.server";

const headers = (h: Record<string, string> = {}) => new Headers(h);

describe("LocationDetector", () => {
  it("prefers the trusted country header, only when configured", () => {
    const lookup = vi.fn(() => "IN");
    const withHeader = new LocationDetector({ countryHeader: "cf-ipcountry", geoip: true, lookup });
    expect(withHeader.detect({ headers: headers({ "CF-IPCountry": "de" }), address: "203.0.113.9" })).toEqual(
      {
        country_code: "DE",
        country_name: "Germany",
        currency: "EUR",
        source: "header",
      },
    );
    expect(lookup).not.toHaveBeenCalled();
    // An unknown marker in the header falls through to the next source.
    expect(
      withHeader.detect({ headers: headers({ "cf-ipcountry": "XX" }), address: "203.0.113.9" }).source,
    ).toBe("geoip");
    const without = new LocationDetector({ countryHeader: null, geoip: true, lookup });
    expect(
      without.detect({ headers: headers({ "cf-ipcountry": "DE" }), address: "203.0.113.9" }),
    ).toMatchObject({
      country_code: "IN",
      currency: "INR",
      source: "geoip",
    });
  });

  it("caches address lookups for 1 hour, but reads headers on every request", () => {
    let t = 0;
    const lookup = vi.fn(() => null);
    const detector = new LocationDetector({ countryHeader: null, geoip: true, lookup, now: () => t });
    const a = detector.detect({ headers: headers({ "accept-language": "en-GB" }), address: "198.51.100.7" });
    const b = detector.detect({ headers: headers({ "accept-language": "en-AU" }), address: "198.51.100.7" });
    expect([a.country_code, b.country_code]).toEqual(["GB", "AU"]);
    expect(lookup).toHaveBeenCalledTimes(1);
    t += LOCATION_TTL_MS - 1;
    detector.detect({ headers: headers(), address: "198.51.100.7" });
    expect(lookup).toHaveBeenCalledTimes(1);
    t += 1;
    detector.detect({ headers: headers(), address: "::ffff:198.51.100.7" });
    expect(lookup).toHaveBeenCalledTimes(2);
    expect(lookup).toHaveBeenLastCalledWith("198.51.100.7");
  });

  it("skips GeoIP when turned off and defaults to US", () => {
    const lookup = vi.fn(() => "IN");
    const detector = new LocationDetector({ countryHeader: null, geoip: false, lookup });
    expect(
      detector.detect({ headers: headers({ "accept-language": "fr" }), address: "203.0.113.9" }),
    ).toEqual({
      country_code: "US",
      country_name: "United States",
      currency: "USD",
      source: "default",
    });
    expect(lookup).not.toHaveBeenCalled();
  });

  it("looks addresses up in the offline database shipped with the package", () => {
    expect(geoipCountry("81.2.69.160")).toBe("GB");
    expect(geoipCountry("8.8.8.8")).toBe("US");
    expect(geoipCountry("127.0.0.1")).toBeNull();
    expect(geoipCountry("not an address")).toBeNull();
  });
});
