import { describe, expect, it } from "vitest";
import { isCrossSiteRequest } from "./same-origin";

const req = (headers: Record<string, string>) =>
  new Request("http://127.0.0.1:3000/api/send-email", { method: "POST", headers });

describe("isCrossSiteRequest", () => {
  it("lets same-origin and origin-less requests through", () => {
    expect(isCrossSiteRequest(req({ origin: "http://127.0.0.1:3000" }), "https://it.example")).toBe(false);
    expect(isCrossSiteRequest(req({ origin: "https://it.example" }), "https://it.example")).toBe(false);
    expect(isCrossSiteRequest(req({}), "https://it.example")).toBe(false);
  });

  it("stops requests from other sites", () => {
    expect(isCrossSiteRequest(req({ origin: "https://evil.example" }), "https://it.example")).toBe(true);
    expect(isCrossSiteRequest(req({ origin: "null" }), "https://it.example")).toBe(true);
    expect(isCrossSiteRequest(req({ "sec-fetch-site": "cross-site" }), "https://it.example")).toBe(true);
  });
});
