/**
 * Care plans and the client's privacy rights (ADR 0520, ADR 0531): the export, and account deletion. A plan that still renews refuses the deletion:
 * the client cancels it first (it then ends with its period, or at once when waiting or suspended). Once
 * the account is deleted, its plans that only wait for their period's end, or for a first payment, end
 * with it, and the card on file is forgotten (the provider's customer keeps it; nothing is charged again).
 */
import { and, eq, inArray, ne } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { invoices, planPeriods, planSubscriptions } from "~/db/schema";

/** The client's plans that would renew: active, past due or suspended, and not set to end. */
export async function renewingPlans(db: Database | Tx, clientId: string) {
  return db
    .select({ subscriptionId: planSubscriptions.id, planName: planSubscriptions.planName })
    .from(planSubscriptions)
    .where(
      and(
        eq(planSubscriptions.clientId, clientId),
        inArray(planSubscriptions.status, ["active", "past_due", "suspended"]),
        eq(planSubscriptions.cancelAtPeriodEnd, false),
      ),
    )
    .orderBy(planSubscriptions.createdAt);
}

/** In the deletion's transaction, after its checks: every plan not yet cancelled ends now, card forgotten. */
export async function endPlansOfDeletedClient(tx: Tx, clientId: string, now: Date): Promise<number> {
  const ended = await tx
    .update(planSubscriptions)
    .set({
      status: "cancelled",
      cancelledAt: now,
      cancelReason: "account deleted",
      paymentMethodId: null,
      cardBrand: null,
      cardLast4: null,
      cardExpMonth: null,
      cardExpYear: null,
      cardSetupProvider: null,
      cardSetupReference: null,
      nextCycle: null,
      nextPriceUsd: null,
    })
    .where(and(eq(planSubscriptions.clientId, clientId), ne(planSubscriptions.status, "cancelled")))
    .returning({ id: planSubscriptions.id });
  return ended.length;
}

/**
 * The client's plans for their data export (care-plans.json): what they chose and when, each period with
 * its invoice number, the card as the page shows it; never the provider's ids.
 */
export async function plansForExport(db: Database, clientId: string) {
  const subs = await db
    .select()
    .from(planSubscriptions)
    .where(eq(planSubscriptions.clientId, clientId))
    .orderBy(planSubscriptions.createdAt);
  if (subs.length === 0) return [];
  const periods = await db
    .select({
      subscriptionId: planPeriods.subscriptionId,
      index: planPeriods.periodIndex,
      cycle: planPeriods.cycle,
      startsOn: planPeriods.startsOn,
      endsOn: planPeriods.endsOn,
      incidentsUsed: planPeriods.incidentsUsed,
      invoiceNumber: invoices.invoiceNumber,
      invoiceStatus: invoices.status,
    })
    .from(planPeriods)
    .innerJoin(invoices, eq(invoices.id, planPeriods.invoiceId))
    .where(
      inArray(
        planPeriods.subscriptionId,
        subs.map((s) => s.id),
      ),
    )
    .orderBy(planPeriods.periodIndex);
  return subs.map((s) => ({
    plan: s.planName,
    cycle: s.cycle,
    status: s.status,
    currency: s.currency,
    priceUsd: s.priceUsd,
    incidentAllowance: s.incidentAllowance,
    startedOn: s.anchorDay,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    cancelReason: s.cancelReason,
    switchesTo: s.nextCycle,
    card: s.cardLast4
      ? { brand: s.cardBrand, last4: s.cardLast4, expires: `${s.cardExpMonth}/${s.cardExpYear}` }
      : null,
    createdAt: s.createdAt,
    cancelledAt: s.cancelledAt,
    periods: periods.filter((p) => p.subscriptionId === s.id).map(({ subscriptionId: _, ...p }) => p),
  }));
}
