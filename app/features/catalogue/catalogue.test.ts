import { describe, expect, it } from "vitest";
import {
  defaultPackage,
  nextQuantity,
  offeredPackages,
  orderQuantity,
  quantityButtons,
  quantityRules,
  resolveServiceRouteId,
  SERVICE_NAME_TO_SLUG,
  SERVICE_PAGES,
  servicePagePath,
  startingPriceUsd,
  stepQuantity,
  toRouteKey,
} from "./catalogue";
import { SEED_SERVICES } from "./seed-data";

const services = SEED_SERVICES.map((s) => ({ id: s.id!, slug: s.slug, name: s.name }));
const byName = (name: string) => SEED_SERVICES.find((s) => s.name === name)!;

describe("resolveServiceRouteId", () => {
  it("accepts the canonical id in any case", () => {
    const s = byName("SSL & HTTPS Setup");
    expect(resolveServiceRouteId(s.id!, services)).toBe(s.id);
    expect(resolveServiceRouteId(s.id!.toUpperCase(), services)).toBe(s.id);
  });

  it("accepts every page slug", () => {
    for (const page of SERVICE_PAGES) {
      const id = resolveServiceRouteId(page.slug, services);
      expect(SEED_SERVICES.find((s) => s.id === id)?.slug).toBe(page.slug);
    }
  });

  it("accepts each service name of the spec's redirect table, as written or slugified", () => {
    for (const [name, slug] of Object.entries(SERVICE_NAME_TO_SLUG)) {
      const expected = SEED_SERVICES.find((s) => s.slug === slug)!.id;
      expect(resolveServiceRouteId(name, services)).toBe(expected);
      expect(resolveServiceRouteId(toRouteKey(name), services)).toBe(expected);
    }
  });

  it("accepts legacy aliases", () => {
    expect(resolveServiceRouteId("acronis", services)).toBe(byName("Acronis Account Setup").id);
    expect(resolveServiceRouteId("email-security", services)).toBe(byName("Domain & Email Security").id);
  });

  it("returns null for unknown, blank or punctuation-only ids", () => {
    expect(resolveServiceRouteId("not-a-service", services)).toBeNull();
    expect(resolveServiceRouteId("   ", services)).toBeNull();
    expect(resolveServiceRouteId("&&", services)).toBeNull();
    expect(resolveServiceRouteId("00000000-0000-0000-0000-000000000000", services)).toBeNull();
  });
});

describe("servicePagePath", () => {
  it("redirects by name as the spec's table says", () => {
    expect(servicePagePath({ id: "x", slug: "whatever", name: "Domain & Email Security" })).toBe(
      "/services/email-deliverability",
    );
    expect(servicePagePath({ id: "x", slug: "whatever", name: "Per Incident Support" })).toBe(
      "/services/per-incident-support",
    );
  });

  it("falls back to a known slug, else the home page", () => {
    expect(servicePagePath({ id: "x", slug: "ssl-setup", name: "Renamed SSL" })).toBe("/services/ssl-setup");
    expect(servicePagePath({ id: "x", slug: "unknown", name: "Unknown" })).toBe("/");
  });
});

describe("startingPriceUsd", () => {
  it("is the lowest positive price", () => {
    expect(startingPriceUsd({ free: 7, single: 10, multi: 25, wildcard: 55 })).toBe(7);
    expect(startingPriceUsd({ zero: 0, basic: 15, standard: 25 })).toBe(15);
  });
  it("is null without a positive price", () => {
    expect(startingPriceUsd({})).toBeNull();
    expect(startingPriceUsd({ free: 0, broken: Number.NaN })).toBeNull();
  });
});

describe("offeredPackages", () => {
  it("keeps the packageOrder's order, with names, prices and features", () => {
    expect(
      offeredPackages({
        packageOrder: ["setup", "incident"],
        pricing: { incident: 5, setup: 25 },
        packageNames: { setup: "Setup", incident: "Per Incident" },
        features: { setup: ["Tenant setup"], incident: ["One fix"] },
      }),
    ).toEqual([
      { key: "setup", name: "Setup", priceUsd: 25, features: ["Tenant setup"] },
      { key: "incident", name: "Per Incident", priceUsd: 5, features: ["One fix"] },
    ]);
  });

  it("drops keys without a price, and never offers a priced key missing from the order", () => {
    expect(
      offeredPackages({ packageOrder: ["basic", "standard"], pricing: { standard: 25, enterprise: 55 } }).map(
        (p) => p.key,
      ),
    ).toEqual(["standard"]);
  });

  it("never takes a prototype key for a price, name or feature list", () => {
    const keys = ["constructor", "toString", "__proto__", "hasOwnProperty", "basic"];
    expect(offeredPackages({ packageOrder: keys, pricing: { basic: 4 } })).toEqual([
      { key: "basic", name: "basic", priceUsd: 4, features: [] },
    ]);
    const ownConstructor = JSON.parse('{"constructor": 9}') as Record<string, number>;
    expect(
      offeredPackages({
        packageOrder: ["constructor"],
        pricing: ownConstructor,
        packageNames: {},
        features: {},
      }),
    ).toEqual([{ key: "constructor", name: "constructor", priceUsd: 9, features: [] }]);
  });

  it("falls back to the key when a package has no name, and to no features", () => {
    expect(
      offeredPackages({
        packageOrder: ["free", "single"],
        pricing: { free: 7, single: 10 },
        packageNames: { single: "Single Domain" },
        features: { single: ["One hostname"] },
      }),
    ).toEqual([
      { key: "free", name: "free", priceUsd: 7, features: [] },
      { key: "single", name: "Single Domain", priceUsd: 10, features: ["One hostname"] },
    ]);
  });

  it("offers every package the seeded catalogue orders, as the pages list them", () => {
    for (const s of SEED_SERVICES) {
      expect(offeredPackages(s).map((p) => p.key)).toEqual(s.packageOrder);
      for (const p of offeredPackages(s)) {
        expect(p.name).toBe(s.packageNames[p.key]);
        expect(p.priceUsd).toBe(s.pricing[p.key]);
        expect(p.features).toEqual(s.features[p.key]);
      }
    }
  });
});

describe("defaultPackage", () => {
  it("prefers basic", () => {
    expect(defaultPackage({ packageOrder: ["standard", "basic"], pricing: { standard: 2, basic: 1 } })).toBe(
      "basic",
    );
  });
  it("otherwise takes the first package offered", () => {
    expect(defaultPackage({ packageOrder: ["setup", "incident"], pricing: { incident: 5, setup: 25 } })).toBe(
      "setup",
    );
  });
  it("takes only a package offered: basic must be in the order, and prototype keys never count", () => {
    expect(defaultPackage({ packageOrder: ["standard"], pricing: { standard: 2, basic: 1 } })).toBe(
      "standard",
    );
    expect(defaultPackage({ packageOrder: ["constructor", "single"], pricing: { single: 10 } })).toBe(
      "single",
    );
  });
});

describe("quantity rules", () => {
  const mailboxes = quantityRules({
    quantityLabel: "Number of Mailboxes",
    minQuantity: 1,
    maxQuantity: 1000,
  });

  it("has no selector for services sold once per order", () => {
    expect(quantityRules({ quantityLabel: null, minQuantity: 1, maxQuantity: 1 })).toEqual({
      label: null,
      min: 1,
      max: 1,
    });
  });

  it("accepts whole numbers within bounds", () => {
    expect(nextQuantity("25", 1, mailboxes)).toBe(25);
    expect(nextQuantity(1000, 1, mailboxes)).toBe(1000);
  });

  it("ignores out-of-range values, keeping the previous one", () => {
    expect(nextQuantity("1001", 40, mailboxes)).toBe(40);
    expect(nextQuantity("0", 40, mailboxes)).toBe(40);
  });

  it("falls back to the minimum for non-numeric input", () => {
    expect(nextQuantity("abc", 40, mailboxes)).toBe(1);
    expect(nextQuantity("", 40, mailboxes)).toBe(1);
    expect(nextQuantity("2.5", 40, mailboxes)).toBe(1);
  });
});

describe("quantity buttons and the server's quantity", () => {
  const rules = { label: "Number of Incidents", min: 1, max: 10 };
  it("disables − at the minimum and + at the maximum", () => {
    expect(quantityButtons(1, rules)).toEqual({ decrease: false, increase: true });
    expect(quantityButtons(5, rules)).toEqual({ decrease: true, increase: true });
    expect(quantityButtons(10, rules)).toEqual({ decrease: true, increase: false });
  });
  it("steps one at a time, never past a bound", () => {
    expect(stepQuantity(1, -1, rules)).toBe(1);
    expect(stepQuantity(1, 1, rules)).toBe(2);
    expect(stepQuantity(10, 1, rules)).toBe(10);
  });
  it("accepts only whole numbers within the bounds on the server", () => {
    expect(orderQuantity("20", { label: "Number of Mailboxes", min: 1, max: 1000 })).toBe(20);
    expect(orderQuantity("0", rules)).toBeNull();
    expect(orderQuantity("11", rules)).toBeNull();
    expect(orderQuantity("2.5", rules)).toBeNull();
    expect(orderQuantity("abc", rules)).toBeNull();
    expect(orderQuantity(undefined, rules)).toBeNull();
    // Bought once per order: whatever was sent, one.
    expect(orderQuantity("7", { label: null, min: 1, max: 1 })).toBe(1);
  });
});
