/**
 * The care plan that covered an order (issue 38, item 6; ADR 0531): an incident ordered against a plan's
 * allowance is an order at zero with no invoice, and its pages say "Covered by {plan}" where the amount
 * would be. Plans sit above orders (ADR 0012), so their tables are read here by name, not through them.
 */
import { and, eq, gt, sql } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { type Order, planPeriods, planSubscriptions } from "~/db/schema";

/** The plan's name as the client subscribed to it, or null for an order that was paid for. */
export async function coveringPlanName(
  db: Database,
  order: Pick<Order, "coveredByPeriodId">,
): Promise<string | null> {
  if (!order.coveredByPeriodId) return null;
  const [row] = await db
    .select({ planName: planSubscriptions.planName })
    .from(planPeriods)
    .innerJoin(planSubscriptions, eq(planSubscriptions.id, planPeriods.subscriptionId))
    .where(eq(planPeriods.id, order.coveredByPeriodId))
    .limit(1);
  // The period exists (a foreign key); a name is still shown if it ever did not.
  return row?.planName ?? "your care plan";
}

/**
 * A covered order cancelled: its incident goes back to its period's allowance, as a refund gives a paid
 * order's money back (nothing was done for it). In the cancelling transaction; never below zero.
 */
export async function returnCoveredIncident(tx: Tx, order: Pick<Order, "coveredByPeriodId">): Promise<void> {
  if (!order.coveredByPeriodId) return;
  await tx
    .update(planPeriods)
    .set({ incidentsUsed: sql`${planPeriods.incidentsUsed} - 1` })
    .where(and(eq(planPeriods.id, order.coveredByPeriodId), gt(planPeriods.incidentsUsed, 0)));
}
