import { describe, expect, it } from "vitest";
import { isChromeHidden } from "./chrome";

describe("isChromeHidden", () => {
  it("hides the chrome on every /client/ route", () => {
    for (const p of [
      "/client",
      "/client/",
      "/client/login",
      "/client/purchase/ssl-setup",
      "/payments/sandbox/checkout",
      // The portal's invoice under its spec address, in the portal's frame.
      "/invoice/1",
    ]) {
      expect(isChromeHidden(p)).toBe(true);
    }
  });
  it("hides it in the back office", () => {
    for (const p of ["/admin", "/admin/dashboard", "/admin/orders"]) expect(isChromeHidden(p)).toBe(true);
    expect(isChromeHidden("/administrator")).toBe(false);
  });
  it("keeps it elsewhere, including look-alike paths", () => {
    for (const p of ["/", "/services/ssl-setup", "/clients", "/client-stories", "/invoices", "/invoice"]) {
      expect(isChromeHidden(p)).toBe(false);
    }
  });
});
