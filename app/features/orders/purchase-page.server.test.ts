/** The purchase page's data: the service shaped for the page, what is preselected, who may buy. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { openSeededMemoryDatabase } from "~/features/testing/memory-database.server";
import { loadPurchasePage, type PurchasePageDeps } from "./purchase-page.server";

describe("loadPurchasePage", () => {
  let handle: DatabaseHandle;
  let deps: PurchasePageDeps;
  beforeAll(async () => {
    handle = await openSeededMemoryDatabase();
    deps = {
      db: handle.db,
      rates: async () => ({ USD: 1, EUR: 0.9, GBP: 0.8, JPY: 150, CHF: 0 }),
      config: { invoices: { taxRatePercent: 10 } },
    };
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
  });

  const load = (path: string, signedIn = false) =>
    loadPurchasePage(deps, {
      routeId: decodeURIComponent(new URL(path, "http://x").pathname.split("/").pop()!),
      url: new URL(path, "http://x"),
      signedIn: async () => (signedIn ? "no-such-client" : null),
    });

  it("answers not found for an unknown service, without asking who is signed in", async () => {
    let asked = false;
    const page = await loadPurchasePage(deps, {
      routeId: "no-such-service",
      url: new URL("http://x/client/purchase/no-such-service"),
      signedIn: async () => {
        asked = true;
        return "no-such-client";
      },
    });
    expect(page).toEqual({ found: false, routeId: "no-such-service" });
    expect(asked).toBe(false);
  });

  it("lists the packages in the catalogue's order, with their add-ons and quantity rules", async () => {
    const page = await load("/client/purchase/ssl-setup?package=multi");
    if (!page.found) throw new Error("ssl-setup not found");
    expect(page.service.packages.map((p) => [p.key, p.priceUsd])).toEqual([
      ["free", 7],
      ["single", 10],
      ["multi", 25],
      ["wildcard", 55],
    ]);
    expect(page.service.addons).toEqual([
      { key: "procurement", name: "Certificate procurement", priceUsd: 5 },
    ]);
    expect(page.service.quantity).toEqual({ label: null, min: 1, max: 1 });
    expect(page.selectedPackage).toBe("multi");
    expect(page.tax).toMatchObject({ category: "S", ratePercent: 10, note: null });
  });

  it("preselects the default package when the link asks for one not offered", async () => {
    for (const asked of ["premium", "constructor", ""]) {
      const page = await load(`/client/purchase/hosting-support?package=${asked}`);
      if (!page.found) throw new Error("hosting-support not found");
      expect(page.selectedPackage).toBe("basic");
    }
  });

  it("offers the selectable currencies that have a rate, and the link's currency when it has one", async () => {
    const page = await load("/client/purchase/email-migration?currency=jpy");
    if (!page.found) throw new Error("email-migration not found");
    expect(page.rates).toEqual({ USD: 1, EUR: 0.9, GBP: 0.8, JPY: 150 });
    expect(page.queryCurrency).toBe("JPY");
    const unpriced = await load("/client/purchase/email-migration?currency=CHF");
    if (!unpriced.found) throw new Error("email-migration not found");
    expect(unpriced.queryCurrency).toBeNull();
    expect(unpriced.rates).not.toHaveProperty("CHF");
  });

  it("gives a checkout token only to a signed-in visitor, and sign-in links back to the page", async () => {
    const visitor = await load("/client/purchase/email-migration?package=basic");
    if (!visitor.found) throw new Error("email-migration not found");
    expect(visitor.signedIn).toBe(false);
    expect(visitor.checkoutToken).toBeNull();
    expect(visitor.loginHref).toBe(
      `/client/login?redirectTo=${encodeURIComponent("/client/purchase/email-migration?package=basic")}`,
    );
    expect(visitor.registerHref).toBe(
      `/client/register?redirectTo=${encodeURIComponent("/client/purchase/email-migration?package=basic")}`,
    );
    const client = await load("/client/purchase/email-migration", true);
    if (!client.found) throw new Error("email-migration not found");
    expect(client.signedIn).toBe(true);
    expect(client.checkoutToken).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
  });
});
