/**
 * Care plans, pure (ADR 0530): the billing cycles, the yearly saving and the plan's card as the public
 * pages show it (the owner's form is plan-form.ts, so no page that only shows plans loads zod). No React,
 * no database, no I/O. Money is exact: prices are compared and subtracted in cents (money/minor-units.ts),
 * never as floats.
 */
import type { ServiceSlug } from "~/features/catalogue/catalogue";
import { fromMinorUnits, toMinorUnits } from "~/features/money/minor-units";

/** How often a plan renews. */
export const PLAN_CYCLES = ["monthly", "yearly"] as const;
export type PlanCycle = (typeof PLAN_CYCLES)[number];

export function isPlanCycle(value: unknown): value is PlanCycle {
  return typeof value === "string" && (PLAN_CYCLES as readonly string[]).includes(value);
}

/**
 * The service pages that show the care plans: the work a plan covers by itself (a support incident, the
 * certificate and mail-security watch, backup verification).
 */
export const SERVICES_WITH_PLANS: readonly ServiceSlug[] = [
  "per-incident-support",
  "ssl-setup",
  "email-deliverability",
  "acronis-setup",
];

/** What a public page needs of a plan (no ids of rows it does not link to, no timestamps). */
export interface PlanCard {
  slug: string;
  name: string;
  description: string;
  included: string[];
  monthlyPriceUsd: number | null;
  yearlyPriceUsd: number | null;
  incidentAllowance: number;
  watchedDomains: number;
}

export function planCard(plan: PlanCard): PlanCard {
  return {
    slug: plan.slug,
    name: plan.name,
    description: plan.description,
    included: [...plan.included],
    monthlyPriceUsd: plan.monthlyPriceUsd,
    yearlyPriceUsd: plan.yearlyPriceUsd,
    incidentAllowance: plan.incidentAllowance,
    watchedDomains: plan.watchedDomains,
  };
}

/** What the home page's short list shows of a plan: its name and first price (the page's bytes are few). */
export interface PlanTeaser {
  slug: string;
  name: string;
  cycle: PlanCycle;
  priceUsd: number;
  incidentAllowance: number;
}

export function planTeaser(plan: PlanCard): PlanTeaser {
  const cycle = defaultCycle(plan);
  return {
    slug: plan.slug,
    name: plan.name,
    cycle,
    priceUsd: (cycle === "monthly" ? plan.monthlyPriceUsd : plan.yearlyPriceUsd) ?? 0,
    incidentAllowance: plan.incidentAllowance,
  };
}

/** The cycles a plan is sold in, monthly first. */
export function planCycles(plan: Pick<PlanCard, "monthlyPriceUsd" | "yearlyPriceUsd">): PlanCycle[] {
  const cycles: PlanCycle[] = [];
  if (plan.monthlyPriceUsd !== null) cycles.push("monthly");
  if (plan.yearlyPriceUsd !== null) cycles.push("yearly");
  return cycles;
}

/** The cycle a "Choose plan" link preselects: monthly when offered, else yearly. */
export function defaultCycle(plan: Pick<PlanCard, "monthlyPriceUsd" | "yearlyPriceUsd">): PlanCycle {
  return planCycles(plan)[0] ?? "monthly";
}

/** Where a plan is chosen: its subscribe page (signed-in clients; a visitor signs in first). */
export function choosePlanPath(slug: string, cycle: PlanCycle): string {
  return `/client/plans/subscribe/${encodeURIComponent(slug)}?cycle=${cycle}`;
}

export interface YearlySaving {
  /** Twelve months at the monthly price less the yearly price, in USD (exact to the cent). */
  savingUsd: number;
  /** Whole months free, when the saving is exactly that many monthly prices; else null. */
  monthsFree: number | null;
  /** The saving as a whole percentage of twelve monthly prices, rounded down (never overstated). */
  percent: number;
  /** What the card says: "2 months free", or "Save 15%". */
  label: string;
}

/**
 * What paying yearly saves against twelve monthly payments, computed in cents; null when the plan lacks
 * either price or the yearly price saves nothing.
 */
export function yearlySaving(
  plan: Pick<PlanCard, "monthlyPriceUsd" | "yearlyPriceUsd">,
): YearlySaving | null {
  if (plan.monthlyPriceUsd === null || plan.yearlyPriceUsd === null) return null;
  const monthly = toMinorUnits(plan.monthlyPriceUsd, "USD");
  const yearly = toMinorUnits(plan.yearlyPriceUsd, "USD");
  const twelve = monthly * 12;
  const saving = twelve - yearly;
  if (monthly <= 0 || saving <= 0) return null;
  const monthsFree = saving % monthly === 0 ? saving / monthly : null;
  const percent = Math.floor((saving * 100) / twelve);
  const label =
    monthsFree !== null
      ? `${monthsFree} ${monthsFree === 1 ? "month" : "months"} free`
      : percent > 0
        ? `Save ${percent}%`
        : "Save on a year";
  return { savingUsd: fromMinorUnits(saving, "USD"), monthsFree, percent, label };
}

/** "1 support incident", "3 support incidents", "No support incidents" per period. */
export function allowanceText(count: number, cycle: PlanCycle | "period" = "period"): string {
  const per = cycle === "monthly" ? "month" : cycle === "yearly" ? "year" : "period";
  if (count === 0) return "No support incidents included";
  return `${count} support ${count === 1 ? "incident" : "incidents"} per ${per}`;
}

export function domainsText(count: number): string {
  if (count === 0) return "No domains watched";
  return `${count} ${count === 1 ? "domain" : "domains"} watched`;
}
