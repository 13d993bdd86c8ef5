import { describe, expect, it } from "vitest";
import { SERVICE_PAGES } from "~/features/catalogue/catalogue";
import { SEED_SERVICES } from "~/features/catalogue/seed-data";
import { serviceContent } from "./content.server";
import { priceCopy } from "./page-content";

const seedOf = (slug: string) => {
  const seed = SEED_SERVICES.find((s) => s.slug === slug);
  if (!seed) throw new Error(`no seed for ${slug}`);
  return { pricing: seed.pricing, addons: seed.addons ?? {} };
};

describe("the service pages' copy", () => {
  it("has copy for every page of the catalogue's list", () => {
    expect(Object.keys(serviceContent()).sort()).toEqual(SERVICE_PAGES.map((p) => p.slug).sort());
  });

  it.each(SERVICE_PAGES.map((p) => p.slug))(
    "%s writes no price itself: every amount comes from the catalogue",
    (slug) => {
      expect(JSON.stringify(serviceContent()[slug])).not.toMatch(/\$\s?\d/);
      const filled = JSON.stringify(priceCopy(serviceContent()[slug], seedOf(slug)));
      expect(filled).not.toMatch(/\{(price|addon)\./);
    },
  );

  it("follows a price change in the catalogue", () => {
    const seed = seedOf("per-incident-support");
    const before = priceCopy(serviceContent()["per-incident-support"], seed).description;
    const after = priceCopy(serviceContent()["per-incident-support"], {
      ...seed,
      pricing: { ...seed.pricing, basic: 35 },
    }).description;
    expect(before).toContain("$20 per incident");
    expect(after).toContain("$35 per incident");
  });
});
