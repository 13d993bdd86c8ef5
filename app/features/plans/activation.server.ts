/**
 * A subscription starts when its first invoice is paid (ADR 0531). The payment is recorded by the
 * webhook, the payment sweep or the return check, which know nothing of plans (payments sits below
 * plans); this job finds `incomplete` plans whose first invoice is paid and starts each: its anchor is
 * the day it was paid (period 0's dates with it), and the card the checkout saved is read from the
 * provider to be charged for the renewals. Idempotent: a plan is started once (its status guards it).
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, orders, planPeriods, planSubscriptions } from "~/db/schema";
import {
  isProviderName,
  type ProviderName,
  type SavedCard,
  type SavedCardProvider,
} from "~/features/payments/provider";
import { calendarDayOf, type PlanCycle, periodStart } from "./periods";

export interface ActivationDeps {
  db: Database;
  provider: (name: ProviderName) => SavedCardProvider | null;
  logger: { warn(obj: object, msg: string): void };
}

/** Starts every incomplete plan whose first invoice is paid; answers the ids started. */
export async function activatePaidSubscriptions(
  deps: ActivationDeps,
  stopping = () => false,
  /** Only this client's plans (a browser journey's hook); every plan when absent. */
  clientId?: string,
): Promise<string[]> {
  const paid = await deps.db
    .select({
      subscriptionId: planSubscriptions.id,
      cycle: planSubscriptions.cycle,
      provider: planSubscriptions.provider,
      periodId: planPeriods.id,
      paidAt: invoices.paidAt,
      checkout: orders.providerReference,
      checkoutProvider: orders.provider,
    })
    .from(planSubscriptions)
    .innerJoin(
      planPeriods,
      and(eq(planPeriods.subscriptionId, planSubscriptions.id), eq(planPeriods.periodIndex, 0)),
    )
    .innerJoin(invoices, eq(invoices.id, planPeriods.invoiceId))
    .innerJoin(orders, eq(orders.id, planPeriods.orderId))
    .where(
      and(
        eq(planSubscriptions.status, "incomplete"),
        eq(invoices.status, "paid"),
        clientId ? eq(planSubscriptions.clientId, clientId) : undefined,
      ),
    );
  const started: string[] = [];
  for (const row of paid) {
    if (stopping()) break;
    // The card the checkout saved; none when it was paid another way (marked paid by the owner): the
    // renewals are then invoiced and paid from the invoice.
    let card: SavedCard | null = null;
    const providerName = row.checkoutProvider ?? row.provider;
    const provider = isProviderName(providerName) ? deps.provider(providerName) : null;
    if (provider && row.checkout) {
      try {
        card = await provider.savedCardOf(row.checkout);
      } catch (error) {
        // Asked again next run; the plan waits (its renewal is weeks away).
        deps.logger.warn(
          { err: error, subscriptionId: row.subscriptionId },
          "plan activation: card not read",
        );
        continue;
      }
    }
    const anchor = calendarDayOf(row.paidAt ?? new Date());
    const end = periodStart(anchor, row.cycle as PlanCycle, 1);
    const done = await deps.db.transaction(async (tx) => {
      const [sub] = await tx
        .update(planSubscriptions)
        .set({
          status: "active",
          anchorDay: anchor,
          anchorPeriodIndex: 0,
          nextPeriodIndex: 1,
          ...(card
            ? {
                providerCustomerId: card.customerId,
                paymentMethodId: card.paymentMethodId,
                cardBrand: card.brand,
                cardLast4: card.last4,
                cardExpMonth: card.expMonth,
                cardExpYear: card.expYear,
              }
            : {}),
          cardUpdatedAt: row.paidAt ?? new Date(),
        })
        .where(and(eq(planSubscriptions.id, row.subscriptionId), eq(planSubscriptions.status, "incomplete")))
        .returning({ id: planSubscriptions.id });
      if (!sub) return false;
      await tx
        .update(planPeriods)
        .set({ startsOn: anchor, endsOn: end })
        .where(eq(planPeriods.id, row.periodId));
      return true;
    });
    if (done) started.push(row.subscriptionId);
  }
  return started;
}
