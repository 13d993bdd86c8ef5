/**
 * The owner's care plan form (ADR 0530): one zod schema, used by the server and safe for the browser
 * (pure), with the form's field names, its defaults for a plan, and the address made from a name. Prices
 * are read from their digits into cents (money/minor-units.ts), never through a float.
 */
import { z } from "zod";
import { linesField } from "~/features/catalogue/catalogue-form";
import { fromMinorUnits, parseAmountInput, toMinorUnits } from "~/features/money/minor-units";

/** The highest price a plan may have, per period, in USD. */
export const MAX_PLAN_PRICE_USD = 100_000;
/** Allowance and watched domains: whole numbers from 0 to this. */
export const MAX_PLAN_COUNT = 1000;
export const MAX_INCLUDED_LINES = 30;

/** A plan as the owner saves it. */
export interface PlanEdit {
  name: string;
  slug: string;
  description: string;
  included: string[];
  monthlyPriceUsd: number | null;
  yearlyPriceUsd: number | null;
  incidentAllowance: number;
  watchedDomains: number;
  sortOrder: number;
  active: boolean;
}

/** The form's fields, as the page names its inputs. */
export const PLAN_FIELDS = [
  "name",
  "slug",
  "description",
  "included",
  "monthlyPrice",
  "yearlyPrice",
  "incidentAllowance",
  "watchedDomains",
  "sortOrder",
  "active",
] as const;

/** Lowercase letters, digits and single hyphens: the plan's address under /plans and in links. */
export const PLAN_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A name made into a slug: "Care Plus" → "care-plus". */
export function slugOf(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
}

/** An optional USD price: empty is none; otherwise digits with at most two decimals, above zero. */
const optionalPrice = z
  .string()
  .trim()
  .transform((text, ctx): number | null => {
    if (text === "") return null;
    if (!/^[\d,\s]+(\.\d*)?$/.test(text)) {
      ctx.addIssue({ code: "custom", message: "Enter a price in US dollars, e.g. 49 or 49.50" });
      return z.NEVER;
    }
    const parsed = parseAmountInput(text, "USD");
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    }
    if (parsed.minor > toMinorUnits(MAX_PLAN_PRICE_USD, "USD")) {
      ctx.addIssue({ code: "custom", message: `The price must be at most ${MAX_PLAN_PRICE_USD} USD` });
      return z.NEVER;
    }
    return fromMinorUnits(parsed.minor, "USD");
  });

const count = (what: string) =>
  z
    .string()
    .trim()
    .min(1, { message: `Enter the ${what} (0 or more)` })
    .regex(/^-?\d+$/, { message: `Enter the ${what} as a whole number` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(0, { message: `The ${what} cannot be negative` })
        .max(MAX_PLAN_COUNT, { message: `The ${what} must be at most ${MAX_PLAN_COUNT}` }),
    );

export const planFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(2, { message: "Enter the plan's name" })
      .max(80, { message: "The name must be at most 80 characters" }),
    slug: z
      .string()
      .trim()
      .toLowerCase()
      .max(60, { message: "The address must be at most 60 characters" })
      .refine((s) => s === "" || PLAN_SLUG.test(s), {
        message: "Use lowercase letters, digits and hyphens, e.g. care-plus",
      }),
    description: z
      .string()
      .trim()
      .min(10, { message: "Enter a description of at least 10 characters" })
      .max(1000, { message: "The description must be at most 1000 characters" }),
    included: linesField(MAX_INCLUDED_LINES, {
      tooLong: "Each included line must be at most 200 characters",
      none: "List at least one thing the plan includes",
      tooMany: `List at most ${MAX_INCLUDED_LINES} lines`,
    }),
    monthlyPrice: optionalPrice,
    yearlyPrice: optionalPrice,
    incidentAllowance: count("incident allowance"),
    watchedDomains: count("number of watched domains"),
    sortOrder: z
      .string()
      .trim()
      .transform((v) => (v === "" ? "0" : v))
      .pipe(z.string().regex(/^\d{1,4}$/, { message: "Enter the order as a whole number from 0 to 9999" }))
      .transform(Number),
    active: z.string().transform((v) => v === "on" || v === "true"),
  })
  .superRefine((v, ctx) => {
    if (v.monthlyPrice === null && v.yearlyPrice === null) {
      ctx.addIssue({
        code: "custom",
        path: ["monthlyPrice"],
        message: "Enter a monthly price, a yearly price, or both",
      });
    }
    // A name that makes no address ("!!!"); a missing name has its own message.
    if (!v.slug && typeof v.name === "string" && v.name.length >= 2 && !slugOf(v.name)) {
      ctx.addIssue({ code: "custom", path: ["slug"], message: "Enter an address, e.g. care-plus" });
    }
  })
  .transform(
    (v): PlanEdit => ({
      name: v.name,
      slug: v.slug || slugOf(v.name),
      description: v.description,
      included: v.included,
      monthlyPriceUsd: v.monthlyPrice,
      yearlyPriceUsd: v.yearlyPrice,
      incidentAllowance: v.incidentAllowance,
      watchedDomains: v.watchedDomains,
      sortOrder: v.sortOrder,
      active: v.active,
    }),
  );

/** The form's fields as strings (a missing field is empty; an unchecked box is absent, so "off"). */
export function planFormValues(form: FormData | URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of PLAN_FIELDS) {
    const v = form.get(key);
    out[key] = typeof v === "string" ? v : "";
  }
  return out;
}

/** A plan's values as the form shows them before any edit. */
export function planFormDefaults(plan: PlanEdit | null): Record<string, string> {
  if (!plan) {
    return {
      name: "",
      slug: "",
      description: "",
      included: "",
      monthlyPrice: "",
      yearlyPrice: "",
      incidentAllowance: "0",
      watchedDomains: "0",
      sortOrder: "0",
      active: "on",
    };
  }
  const price = (usd: number | null) => (usd === null ? "" : usd.toFixed(2));
  return {
    name: plan.name,
    slug: plan.slug,
    description: plan.description,
    included: plan.included.join("\n"),
    monthlyPrice: price(plan.monthlyPriceUsd),
    yearlyPrice: price(plan.yearlyPriceUsd),
    incidentAllowance: String(plan.incidentAllowance),
    watchedDomains: String(plan.watchedDomains),
    sortOrder: String(plan.sortOrder),
    active: plan.active ? "on" : "",
  };
}
