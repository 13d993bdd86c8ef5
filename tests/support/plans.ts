/** Care-plan test data written straight into a database, as a paid subscription would leave it. */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { carePlans, planSubscriptions } from "~/db/schema";

export interface FixtureSubscription {
  clientId: string;
  anchorDay: string;
  cycle?: "monthly" | "yearly";
  priceUsd?: number;
  currency?: string;
  planName?: string;
  status?: "active" | "past_due" | "suspended" | "cancelled";
  cancelAtPeriodEnd?: boolean;
}

/** A subscription whose first period (index 0, from `anchorDay`) is paid: renewals start at period 1. */
export async function createSubscription(db: Database, input: FixtureSubscription): Promise<string> {
  const id = randomUUID();
  // A plan of the seeded catalogue (the subscription keeps its own copy of the name and price).
  const [plan] = await db
    .select({ id: carePlans.id })
    .from(carePlans)
    .where(eq(carePlans.slug, "care-essentials"));
  if (!plan) throw new Error("the seeded care plans are missing");
  await db.insert(planSubscriptions).values({
    id,
    clientId: input.clientId,
    planId: plan.id,
    planName: input.planName ?? "Care Essentials",
    cycle: input.cycle ?? "monthly",
    priceUsd: input.priceUsd ?? 49,
    currency: input.currency ?? "USD",
    incidentAllowance: 1,
    anchorDay: input.anchorDay,
    status: input.status ?? "active",
    cancelAtPeriodEnd: input.cancelAtPeriodEnd ?? false,
    provider: "sandbox",
    providerCustomerId: "cus_sbx_fixture",
    paymentMethodId: "pm_sbx_fixture",
    cardBrand: "visa",
    cardLast4: "4242",
    cardExpMonth: 12,
    cardExpYear: 2034,
  });
  return id;
}
