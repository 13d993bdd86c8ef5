/**
 * A care plan's period written straight into a database with its order and real gap-free invoice, as
 * the subscription, the activation or a renewal leaves it (paid, or still unpaid), for the tests of
 * covered incidents (issue 38, item 6).
 */
import { eq } from "drizzle-orm";
import type { Config } from "~/config.server";
import type { Database } from "~/db/client.server";
import { invoices, orders, planPeriods, planSubscriptions } from "~/db/schema";
import { createOrder } from "~/features/orders/create-order.server";
import { priceOrder } from "~/features/orders/pricing";
import { type CalendarDay, calendarDayOf, periodStart } from "~/features/plans/periods";
import { createSubscription, type FixtureSubscription } from "./plans";

export interface FixturePeriod {
  periodId: string;
  orderId: string;
  invoiceId: string;
}

/** Period `index` of a subscription, its invoice paid unless `paid` is false. */
export async function createPeriod(
  db: Database,
  config: Pick<Config, "invoices" | "business">,
  input: {
    subscriptionId: string;
    clientId: string;
    index: number;
    startsOn: CalendarDay;
    endsOn: CalendarDay;
    paid?: boolean;
  },
): Promise<FixturePeriod> {
  const price = priceOrder({ unitPriceUsd: 49, quantity: 1, currency: "USD", rate: 1, taxRatePercent: 0 });
  return db.transaction(async (tx) => {
    const made = await createOrder(tx, config, {
      order: {
        clientId: input.clientId,
        serviceId: null,
        serviceName: "Care Plan",
        serviceCategory: "Care plan",
        package: "monthly",
        packageName: `Monthly: ${input.startsOn} to ${input.endsOn}`,
        quantity: 1,
        unitPriceUsd: 49,
        amountUsd: price.amountUsd,
        currency: price.currency,
        amountInCurrency: price.subtotal,
        exchangeRate: price.exchangeRate,
        planSubscriptionId: input.subscriptionId,
      },
      invoicePrice: price,
    });
    if (!made) throw new Error("the period's order was not made");
    if (input.paid ?? true) {
      const paidAt = new Date();
      await tx.update(invoices).set({ status: "paid", paidAt }).where(eq(invoices.id, made.invoice.id));
      await tx.update(orders).set({ status: "paid", paidAt }).where(eq(orders.id, made.order.id));
    }
    const [row] = await tx
      .insert(planPeriods)
      .values({
        subscriptionId: input.subscriptionId,
        periodIndex: input.index,
        cycle: "monthly",
        startsOn: input.startsOn,
        endsOn: input.endsOn,
        orderId: made.order.id,
        invoiceId: made.invoice.id,
      })
      .returning({ id: planPeriods.id });
    return { periodId: row!.id, orderId: made.order.id, invoiceId: made.invoice.id };
  });
}

/**
 * A monthly plan started `daysAgo` days before today (so its period 0 is running and its first renewal
 * is not due yet), with `allowance` incidents per period and period 0 paid unless `paid` is false.
 */
export async function subscribedWithPeriod(
  db: Database,
  config: Pick<Config, "invoices" | "business">,
  input: Omit<FixtureSubscription, "anchorDay"> & { allowance: number; daysAgo?: number; paid?: boolean },
): Promise<{ subscriptionId: string; anchorDay: CalendarDay } & FixturePeriod> {
  const anchorDay = calendarDayOf(new Date(Date.now() - (input.daysAgo ?? 2) * 86_400_000));
  const { allowance, daysAgo: _daysAgo, paid, ...subscription } = input;
  const subscriptionId = await createSubscription(db, { ...subscription, anchorDay });
  await db
    .update(planSubscriptions)
    .set({ incidentAllowance: allowance })
    .where(eq(planSubscriptions.id, subscriptionId));
  const period = await createPeriod(db, config, {
    subscriptionId,
    clientId: input.clientId,
    index: 0,
    startsOn: anchorDay,
    endsOn: periodStart(anchorDay, "monthly", 1),
    paid,
  });
  return { subscriptionId, anchorDay, ...period };
}
