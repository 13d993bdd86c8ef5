import { describe, expect, it } from "vitest";
import { SERVICE_NAME_TO_SLUG, SERVICE_PAGES } from "./catalogue";
import { SEED_SERVICES } from "./seed-data";

const bySlug = (slug: string) => {
  const s = SEED_SERVICES.find((x) => x.slug === slug);
  if (!s) throw new Error(`no seed for ${slug}`);
  return s;
};

describe("seeded catalogue", () => {
  it("has one service per service page, named as the spec's redirect table", () => {
    expect(SEED_SERVICES.map((s) => s.slug).sort()).toEqual(SERVICE_PAGES.map((p) => p.slug).sort());
    for (const s of SEED_SERVICES) expect(SERVICE_NAME_TO_SLUG[s.name]).toBe(s.slug);
  });

  it("carries the exact USD prices of the spec (section 9)", () => {
    expect(bySlug("email-migration").pricing).toEqual({ basic: 4 });
    expect(bySlug("email-deliverability").pricing).toEqual({ basic: 25 });
    expect(bySlug("ssl-setup").pricing).toEqual({ free: 7, single: 10, multi: 25, wildcard: 55 });
    expect(bySlug("ssl-setup").addons).toEqual({ procurement: { name: "Certificate procurement", usd: 5 } });
    expect(bySlug("cloud-management").pricing).toEqual({ setup: 25, incident: 5 });
    expect(bySlug("data-migration").pricing).toEqual({ basic: 5 });
    expect(bySlug("hosting-support").pricing).toEqual({ basic: 15, standard: 25, enterprise: 55 });
    expect(bySlug("acronis-setup").pricing).toEqual({ basic: 25 });
    expect(bySlug("per-incident-support").pricing).toEqual({ basic: 20 });
  });

  it("has the quantity rules of the spec", () => {
    const rules = (slug: string) => {
      const s = bySlug(slug);
      return [s.quantityLabel ?? null, s.minQuantity ?? 1, s.maxQuantity ?? 1];
    };
    expect(rules("email-migration")).toEqual(["Number of Mailboxes", 1, 1000]);
    expect(rules("data-migration")).toEqual(["Number of Users", 1, 500]);
    expect(rules("per-incident-support")).toEqual(["Number of Incidents", 1, 10]);
    // Quantity is offered only where the name says migration or incident.
    for (const s of SEED_SERVICES) {
      expect(Boolean(s.quantityLabel)).toBe(
        /migration|incident/i.test(s.name) && s.slug !== "cloud-management",
      );
    }
  });

  it("names, orders and describes every package it prices", () => {
    for (const s of SEED_SERVICES) {
      expect([...s.packageOrder].sort()).toEqual(Object.keys(s.pricing).sort());
      for (const pkg of s.packageOrder) {
        expect(s.packageNames[pkg]).toBeTruthy();
        expect(s.features[pkg]?.length).toBeGreaterThanOrEqual(3);
      }
    }
  });
});
