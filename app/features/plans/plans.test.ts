import { describe, expect, it } from "vitest";
import { planFormDefaults, planFormSchema, planFormValues, slugOf } from "./plan-form";
import { allowanceText, choosePlanPath, defaultCycle, isPlanCycle, planCycles, yearlySaving } from "./plans";
import { SEED_PLANS } from "./seed-data";

const valid = {
  name: "Care Plus",
  slug: "",
  description: "Several domains watched and priority response.",
  included: "Weekly check\n\n  SSL watch  \r\nBackup verification",
  monthlyPrice: "129",
  yearlyPrice: "1,290.00",
  incidentAllowance: "3",
  watchedDomains: "5",
  sortOrder: "",
  active: "on",
};

const errorsOf = (input: Record<string, string>) => {
  const parsed = planFormSchema.safeParse(input);
  if (parsed.success) return {};
  const out: Record<string, string> = {};
  for (const issue of parsed.error.issues) out[String(issue.path[0])] ??= issue.message;
  return out;
};

describe("yearly saving", () => {
  it("says whole months free when the saving is exactly that many monthly prices", () => {
    expect(yearlySaving({ monthlyPriceUsd: 49, yearlyPriceUsd: 490 })).toEqual({
      savingUsd: 98,
      monthsFree: 2,
      percent: 16,
      label: "2 months free",
    });
    expect(yearlySaving({ monthlyPriceUsd: 129, yearlyPriceUsd: 1290 })?.label).toBe("2 months free");
    expect(yearlySaving({ monthlyPriceUsd: 10, yearlyPriceUsd: 110 })?.label).toBe("1 month free");
  });

  it("is exact in cents where floats are not (0.1 + 0.2)", () => {
    // 12 × 0.30 = 3.60 exactly; 3.6 − 3.3 in floats is 0.2999…
    const s = yearlySaving({ monthlyPriceUsd: 0.3, yearlyPriceUsd: 3.3 });
    expect(s).toEqual({ savingUsd: 0.3, monthsFree: 1, percent: 8, label: "1 month free" });
    expect(yearlySaving({ monthlyPriceUsd: 19.99, yearlyPriceUsd: 199.9 })).toEqual({
      savingUsd: 39.98,
      monthsFree: 2,
      percent: 16,
      label: "2 months free",
    });
  });

  it("gives a percentage rounded down when it is not whole months", () => {
    expect(yearlySaving({ monthlyPriceUsd: 100, yearlyPriceUsd: 1050 })?.label).toBe("Save 12%");
    expect(yearlySaving({ monthlyPriceUsd: 100, yearlyPriceUsd: 1199.99 })?.label).toBe("Save on a year");
  });

  it("is none without both prices or without a saving", () => {
    expect(yearlySaving({ monthlyPriceUsd: 49, yearlyPriceUsd: null })).toBeNull();
    expect(yearlySaving({ monthlyPriceUsd: null, yearlyPriceUsd: 490 })).toBeNull();
    expect(yearlySaving({ monthlyPriceUsd: 49, yearlyPriceUsd: 588 })).toBeNull();
    expect(yearlySaving({ monthlyPriceUsd: 49, yearlyPriceUsd: 600 })).toBeNull();
  });

  it("holds for the seeded plans", () => {
    for (const p of SEED_PLANS) {
      expect(
        yearlySaving({ monthlyPriceUsd: p.monthlyPriceUsd!, yearlyPriceUsd: p.yearlyPriceUsd! })?.label,
      ).toBe("2 months free");
    }
  });
});

describe("cycles", () => {
  it("names the cycles a plan is sold in and preselects monthly", () => {
    expect(isPlanCycle("monthly")).toBe(true);
    expect(isPlanCycle("weekly")).toBe(false);
    expect(planCycles({ monthlyPriceUsd: 1, yearlyPriceUsd: 10 })).toEqual(["monthly", "yearly"]);
    expect(defaultCycle({ monthlyPriceUsd: null, yearlyPriceUsd: 10 })).toBe("yearly");
    expect(choosePlanPath("care-plus", "monthly")).toBe("/client/plans/subscribe/care-plus?cycle=monthly");
    expect(allowanceText(1, "monthly")).toBe("1 support incident per month");
    expect(allowanceText(0)).toBe("No support incidents included");
  });
});

describe("the plan form", () => {
  it("reads a valid form: prices exact, lines trimmed, the address made from the name", () => {
    const parsed = planFormSchema.parse(valid);
    expect(parsed).toEqual({
      name: "Care Plus",
      slug: "care-plus",
      description: "Several domains watched and priority response.",
      included: ["Weekly check", "SSL watch", "Backup verification"],
      monthlyPriceUsd: 129,
      yearlyPriceUsd: 1290,
      incidentAllowance: 3,
      watchedDomains: 5,
      sortOrder: 0,
      active: true,
    });
    expect(
      planFormSchema.parse({ ...valid, monthlyPrice: "", yearlyPrice: "49.5", active: "" }),
    ).toMatchObject({
      monthlyPriceUsd: null,
      yearlyPriceUsd: 49.5,
      active: false,
    });
  });

  it("asks for at least one price", () => {
    expect(errorsOf({ ...valid, monthlyPrice: "", yearlyPrice: " " })).toEqual({
      monthlyPrice: "Enter a monthly price, a yearly price, or both",
    });
  });

  it("refuses prices that are not plain dollars and cents", () => {
    for (const bad of ["1e9", "-5", "abc", "12.345", "NaN", "Infinity", "0x10"]) {
      expect(errorsOf({ ...valid, monthlyPrice: bad }).monthlyPrice, bad).toBeTruthy();
    }
    expect(errorsOf({ ...valid, monthlyPrice: "0" }).monthlyPrice).toBe("Enter an amount above zero.");
    expect(errorsOf({ ...valid, yearlyPrice: "100000.01" }).yearlyPrice).toBe(
      "The price must be at most 100000 USD",
    );
  });

  it("refuses a negative, fractional or missing allowance", () => {
    expect(errorsOf({ ...valid, incidentAllowance: "-1" }).incidentAllowance).toBe(
      "The incident allowance cannot be negative",
    );
    expect(errorsOf({ ...valid, incidentAllowance: "1.5" }).incidentAllowance).toBe(
      "Enter the incident allowance as a whole number",
    );
    expect(errorsOf({ ...valid, watchedDomains: "" }).watchedDomains).toBe(
      "Enter the number of watched domains (0 or more)",
    );
  });

  it("names every missing field", () => {
    const errors = errorsOf(planFormValues(new URLSearchParams()));
    expect(Object.keys(errors).sort()).toEqual(
      ["description", "included", "incidentAllowance", "monthlyPrice", "name", "watchedDomains"].sort(),
    );
  });

  it("refuses an address with other characters", () => {
    expect(errorsOf({ ...valid, slug: "care plus!" }).slug).toBe(
      "Use lowercase letters, digits and hyphens, e.g. care-plus",
    );
    expect(planFormSchema.parse({ ...valid, slug: "Care-Plus-2" }).slug).toBe("care-plus-2");
    expect(slugOf("Crème  Brûlée — Plan")).toBe("creme-brulee-plan");
  });

  it("shows a saved plan's values as the form's defaults, and the form reads them back the same", () => {
    const saved = planFormSchema.parse(valid);
    expect(planFormSchema.parse(planFormDefaults(saved))).toEqual(saved);
    expect(planFormDefaults(saved).yearlyPrice).toBe("1290.00");
  });
});
