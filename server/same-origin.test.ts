import { describe, expect, it } from "vitest";
import { isCrossSite } from "./same-origin";

const check = (headers: { origin?: string; fetchSite?: string }) =>
  isCrossSite({
    origin: headers.origin ?? null,
    fetchSite: headers.fetchSite ?? null,
    requestOrigin: "http://127.0.0.1:3000",
    publicUrl: "https://it.example",
  });

describe("isCrossSite", () => {
  it("lets same-origin and origin-less requests through", () => {
    expect(check({ origin: "http://127.0.0.1:3000" })).toBe(false);
    expect(check({ origin: "https://it.example" })).toBe(false);
    expect(check({})).toBe(false);
    expect(check({ fetchSite: "same-origin" })).toBe(false);
  });

  it("stops requests from other sites", () => {
    expect(check({ origin: "https://evil.example" })).toBe(true);
    expect(check({ origin: "null" })).toBe(true);
    expect(check({ fetchSite: "cross-site" })).toBe(true);
  });
});
