/**
 * Subscribing to a care plan (issue 38, item 2; ADR 0531): the plan in the client's currency, its first
 * period an ordinary order with its gap-free invoice, paid at the provider's checkout, which saves the
 * card for the renewals. The subscription is `incomplete` until that invoice is paid; the activation
 * job (activatePaidSubscriptions) then starts it on the day it was paid, with the card on file.
 */

import { and, desc, eq, inArray, isNotNull } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { type CarePlan, carePlans, planPeriods, planSubscriptions } from "~/db/schema";
import { toCurrencyCode } from "~/features/currency/currency";
import { consumeCheckoutAllowance } from "~/features/orders/checkout-limit.server";
import { createOrder } from "~/features/orders/create-order.server";
import { TOO_MANY_ORDERS } from "~/features/orders/messages";
import {
  type CheckoutOutcome,
  findOrderWithInvoice,
  type OrderDeps,
  startCheckout,
} from "~/features/orders/orders.server";
import { chargeCurrency, priceOrder } from "~/features/orders/pricing";
import type { PaymentProvider } from "~/features/payments/provider";
import { PaymentProviderError } from "~/features/payments/provider";
import { billingCountryNeeded, taxForClient } from "~/features/tax/client-tax.server";
import { COUNTRY_NEEDED } from "~/features/tax/document-tax";
import { calendarDayOf, periodStart } from "./periods";
import { PLAN_CYCLES, type PlanCycle } from "./plans";

/** The subscribe form as posted: the cycle and the form's one-time token, never a price. */
export const subscribeForm = z.object({
  cycle: z.enum(PLAN_CYCLES, { message: "Choose monthly or yearly." }),
  checkoutToken: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/, { message: "The subscription form expired. Please reload." }),
  currency: z.string().max(8).optional(),
});

export interface SubscribeDeps extends OrderDeps {
  /** The active provider, which saves the card and later charges it. */
  provider: PaymentProvider;
}

export const PLAN_NOT_OFFERED = "This care plan is not offered.";

/** A plan the client can subscribe to, by its address (active plans only). */
export async function offeredPlan(db: Database, slug: string): Promise<CarePlan | null> {
  if (!/^[a-z0-9-]{1,80}$/.test(slug)) return null;
  const [plan] = await db
    .select()
    .from(carePlans)
    .where(and(eq(carePlans.slug, slug), eq(carePlans.active, true)))
    .limit(1);
  return plan ?? null;
}

export function cyclePriceUsd(plan: Pick<CarePlan, "monthlyPriceUsd" | "yearlyPriceUsd">, cycle: PlanCycle) {
  return cycle === "monthly" ? plan.monthlyPriceUsd : plan.yearlyPriceUsd;
}

/** The plans a client holds now (not cancelled), newest first. */
export async function heldPlans(db: Database, clientId: string) {
  return db
    .select()
    .from(planSubscriptions)
    .where(
      and(
        eq(planSubscriptions.clientId, clientId),
        inArray(planSubscriptions.status, ["active", "past_due", "suspended"]),
      ),
    )
    .orderBy(desc(planSubscriptions.createdAt));
}

/** The client's customer at `provider`, from an earlier plan of theirs, else a new one. */
async function providerCustomer(
  deps: SubscribeDeps,
  client: { id: string; email: string; name: string },
): Promise<string> {
  const [earlier] = await deps.db
    .select({ customerId: planSubscriptions.providerCustomerId })
    .from(planSubscriptions)
    .where(
      and(
        eq(planSubscriptions.clientId, client.id),
        eq(planSubscriptions.provider, deps.provider.name),
        isNotNull(planSubscriptions.providerCustomerId),
      ),
    )
    .orderBy(desc(planSubscriptions.createdAt))
    .limit(1);
  if (earlier?.customerId) return earlier.customerId;
  return deps.provider.createCustomer({ clientId: client.id, email: client.email, name: client.name });
}

/** A repeated post of the same form: its transaction made nothing. */
class RepeatedForm extends Error {}

export async function subscribe(
  deps: SubscribeDeps,
  input: {
    client: { id: string; email: string; name: string };
    slug: string;
    cycle: PlanCycle;
    currency?: string;
    checkoutToken: string;
    now?: Date;
  },
): Promise<CheckoutOutcome> {
  const { db } = deps;
  const now = input.now ?? new Date();
  const cancelPath = `/client/plans/subscribe/${input.slug}?cycle=${input.cycle}`;
  // A second post of the same form (a double click, a reload) continues with the order the first made.
  const repeat = await findOrderWithInvoice(db, input.client.id, { checkoutToken: input.checkoutToken });
  if (repeat) return continueRepeat(deps, input.client, repeat, cancelPath);
  const allowance = await consumeCheckoutAllowance(db, input.client.id);
  if (!allowance.allowed) return { ok: false, status: allowance.status, error: TOO_MANY_ORDERS };
  const plan = await offeredPlan(db, input.slug);
  if (!plan) return { ok: false, status: 404, error: PLAN_NOT_OFFERED };
  if (await billingCountryNeeded(db, deps.config, input.client.id)) {
    return { ok: false, status: 409, error: COUNTRY_NEEDED };
  }
  const priceUsd = cyclePriceUsd(plan, input.cycle);
  if (priceUsd === null) {
    return { ok: false, status: 400, error: `${plan.name} is not sold ${input.cycle}.` };
  }
  const held = await heldPlans(db, input.client.id);
  if (held.some((s) => s.planId === plan.id)) {
    return { ok: false, status: 409, error: `You already have ${plan.name}: see it under Care Plans.` };
  }
  const price = priceOrder({
    unitPriceUsd: priceUsd,
    quantity: 1,
    ...chargeCurrency(toCurrencyCode(input.currency), await deps.rates()),
    taxRatePercent: deps.config.invoices.taxRatePercent,
    tax: await taxForClient(db, deps.config, input.client.id, { ask: true }),
  });
  let customerId: string;
  try {
    customerId = await providerCustomer(deps, input.client);
  } catch (error) {
    const message = error instanceof PaymentProviderError ? error.message : String(error);
    deps.logger.warn({ err: error }, "subscribe: the provider made no customer");
    return { ok: false, status: 502, error: `Failed to create payment: ${message}` };
  }
  // Provisional dates: the plan starts on the day its first invoice is paid (the activation sets them).
  const today = calendarDayOf(now);
  const end = periodStart(today, input.cycle, 1);
  const cycleName = input.cycle === "yearly" ? "Yearly" : "Monthly";
  let created: Awaited<ReturnType<typeof createOrder>>;
  try {
    created = await db.transaction(async (tx) => {
      const [sub] = await tx
        .insert(planSubscriptions)
        .values({
          clientId: input.client.id,
          planId: plan.id,
          planName: plan.name,
          cycle: input.cycle,
          priceUsd,
          currency: price.currency,
          incidentAllowance: plan.incidentAllowance,
          anchorDay: today,
          status: "incomplete",
          provider: deps.provider.name,
          providerCustomerId: customerId,
        })
        .returning({ id: planSubscriptions.id });
      const made = await createOrder(tx, deps.config, {
        order: {
          clientId: input.client.id,
          serviceId: null,
          serviceName: plan.name,
          serviceCategory: "Care plan",
          package: input.cycle,
          packageName: cycleName,
          quantity: 1,
          unitPriceUsd: priceUsd,
          amountUsd: price.amountUsd,
          currency: price.currency,
          amountInCurrency: price.subtotal,
          exchangeRate: price.exchangeRate,
          provider: deps.provider.name,
          checkoutToken: input.checkoutToken,
          planSubscriptionId: sub!.id,
        },
        invoicePrice: price,
        now,
      });
      if (!made) throw new RepeatedForm();
      await tx.insert(planPeriods).values({
        subscriptionId: sub!.id,
        periodIndex: 0,
        cycle: input.cycle,
        startsOn: today,
        endsOn: end,
        orderId: made.order.id,
        invoiceId: made.invoice.id,
      });
      return made;
    });
  } catch (error) {
    if (!(error instanceof RepeatedForm)) throw error;
    const found = await findOrderWithInvoice(db, input.client.id, { checkoutToken: input.checkoutToken });
    if (!found) return { ok: false, status: 409, error: "This form was already used. Please try again." };
    return continueRepeat(deps, input.client, found, cancelPath);
  }
  deps.logger.info(
    { orderId: created!.order.id, invoiceNumber: created!.invoice.invoiceNumber },
    "subscribe: first period ordered",
  );
  return startCheckout(deps, {
    ...created!,
    client: input.client,
    idempotencyKey: created!.order.id,
    cancelPath,
    saveCardFor: { customerId },
  });
}

async function continueRepeat(
  deps: SubscribeDeps,
  client: { email: string },
  found: NonNullable<Awaited<ReturnType<typeof findOrderWithInvoice>>>,
  cancelPath: string,
): Promise<CheckoutOutcome> {
  if (found.order.status !== "pending") {
    return {
      ok: true,
      redirectTo: `/payment-success?order_id=${found.order.id}&amount=${found.invoice.totalAmount}`,
      orderId: found.order.id,
      invoiceId: found.invoice.id,
    };
  }
  const [sub] = found.order.planSubscriptionId
    ? await deps.db
        .select({ customerId: planSubscriptions.providerCustomerId })
        .from(planSubscriptions)
        .where(eq(planSubscriptions.id, found.order.planSubscriptionId))
    : [];
  return startCheckout(deps, {
    ...found,
    client,
    idempotencyKey: found.order.id,
    cancelPath,
    ...(sub?.customerId ? { saveCardFor: { customerId: sub.customerId } } : {}),
  });
}
