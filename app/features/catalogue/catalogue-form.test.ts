import { describe, expect, it } from "vitest";
import { parseCatalogueForm } from "./catalogue-form";

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

describe("catalogue edit form", () => {
  it("reads name, description, prices and one feature per line", () => {
    const result = parseCatalogueForm(
      form({
        name: " SSL Setup ",
        description: "Certificates installed and renewed.",
        "price.basic": "149.50",
        "features.basic": "One domain\r\n\n  Auto renewal  \n",
      }),
      ["basic"],
    );
    expect(result).toEqual({
      ok: true,
      value: {
        name: "SSL Setup",
        description: "Certificates installed and renewed.",
        pricing: { basic: 149.5 },
        features: { basic: ["One domain", "Auto renewal"] },
      },
    });
  });
  it("says what is wrong with each field", () => {
    const result = parseCatalogueForm(
      form({ name: "", description: "short", "price.basic": "-3", "features.basic": " \n " }),
      ["basic", "pro"],
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.name).toBe("Enter a name");
    expect(result.errors.description).toMatch(/at least 10/);
    expect(result.errors["price.basic"]).toMatch(/US dollars/);
    expect(result.errors["features.basic"]).toBe("List at least one feature");
    expect(result.errors["price.pro"]).toBe("Enter a price");
  });
  it("refuses absurd prices and fractions of a cent", () => {
    const r1 = parseCatalogueForm(
      form({ name: "Xy", description: "0123456789", "price.a": "2000000", "features.a": "f" }),
      ["a"],
    );
    const r2 = parseCatalogueForm(
      form({ name: "Xy", description: "0123456789", "price.a": "1.999", "features.a": "f" }),
      ["a"],
    );
    expect(r1.ok).toBe(false);
    expect(r2.ok).toBe(false);
  });
});
