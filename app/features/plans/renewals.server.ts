/**
 * Renewals on Portico's own books (issue 38, item 3; ADR 0531): each period of a care plan is an order
 * with one invoice, issued RENEWAL_NOTICE_DAYS before the period starts and due on its first day.
 *
 * Exactly once, whatever runs it: the subscription's row is locked while its next period is issued, and
 * the period's row has a unique (subscription, index) key, inserted in the same transaction as the order
 * and its invoice. A second process waits for the lock and then finds the period issued; a crash rolls
 * the whole period back, to be issued by the next run. Dates come from the plan's anchor, never from
 * the last run, so a late or missed run issues what is due and moves no billing day.
 */

import { and, eq, inArray, lte } from "drizzle-orm";
import type { Config } from "~/config.server";
import type { Database, Tx } from "~/db/client.server";
import { type PlanSubscription, planPeriods, planSubscriptions } from "~/db/schema";
import type { Rates } from "~/features/currency/currency";
import { emailInvoiceClient } from "~/features/invoices/invoice-email.server";
import { formatMoney } from "~/features/money/format";
import { createOrder } from "~/features/orders/create-order.server";
import { chargeCurrency, priceOrder } from "~/features/orders/pricing";
import { taxForClient } from "~/features/tax/client-tax.server";
import {
  type CalendarDay,
  calendarDayOf,
  cardExpiredBy,
  daysBetween,
  formatCalendarDay,
  type PlanCycle,
  periodStart,
  renewalIssueDay,
} from "./periods";

/** A card brand as the client reads it ("visa" → "Visa", "amex" → "American Express"). */
export function cardBrandName(brand: string | null): string {
  const names: Record<string, string> = {
    visa: "Visa",
    mastercard: "Mastercard",
    amex: "American Express",
    discover: "Discover",
    diners: "Diners Club",
    jcb: "JCB",
    unionpay: "UnionPay",
  };
  return (brand && names[brand]) ?? "card";
}

/** The renewals job's name (and its lease's). */
export const RENEWALS_JOB = "plan-renewals";

export interface RenewalDeps {
  db: Database;
  config: Pick<Config, "invoices" | "business" | "publicUrl"> &
    Partial<Pick<Config, "tax">> & { plans: { renewalNoticeDays: number } };
  /** The exchange rates of the issue day (units per USD). */
  rates: () => Promise<Rates>;
}

/** What one period of a subscription is: its dates from the anchor (and the cycle since the anchor). */
export function subscriptionPeriod(
  sub: Pick<PlanSubscription, "anchorDay" | "anchorPeriodIndex" | "cycle">,
  index: number,
): { index: number; startsOn: CalendarDay; endsOn: CalendarDay } {
  const offset = index - sub.anchorPeriodIndex;
  if (offset < 0) throw new RangeError("a period before the plan's anchor");
  return {
    index,
    startsOn: periodStart(sub.anchorDay, sub.cycle as PlanCycle, offset),
    endsOn: periodStart(sub.anchorDay, sub.cycle as PlanCycle, offset + 1),
  };
}

/** The day period `index` is invoiced (the notice's days before it starts). */
export function subscriptionIssueDay(
  sub: Pick<PlanSubscription, "anchorDay" | "anchorPeriodIndex" | "cycle">,
  index: number,
  noticeDays: number,
): CalendarDay {
  const offset = index - sub.anchorPeriodIndex;
  if (offset >= 1) return renewalIssueDay(sub.anchorDay, sub.cycle as PlanCycle, offset, noticeDays);
  // The anchor's own period after a switch of cycle: the notice counts back from its first day.
  return subscriptionPeriod(sub, index).startsOn;
}

/** Which subscriptions renew: an active or past-due plan that is not ending at its period's end. */
function renewing(sub: Pick<PlanSubscription, "status" | "cancelAtPeriodEnd">): boolean {
  return (sub.status === "active" || sub.status === "past_due") && !sub.cancelAtPeriodEnd;
}

export interface IssuedPeriod {
  subscriptionId: string;
  periodIndex: number;
  orderId: string;
  invoiceId: string;
  invoiceNumber: string;
  total: number;
  currency: string;
}

/**
 * Issues one subscription's periods that are due by `now`, each in its own transaction, in order. A
 * run after a pause issues every period it missed, each once.
 */
export async function issueDueRenewalsOf(
  deps: RenewalDeps,
  subscriptionId: string,
  now: Date,
): Promise<IssuedPeriod[]> {
  const issued: IssuedPeriod[] = [];
  const today = calendarDayOf(now);
  // Bounded: one period per pass, and never more passes than periods could be due.
  for (let pass = 0; pass < 1000; pass++) {
    const period = await deps.db.transaction((tx) => issueNextPeriod(tx, deps, subscriptionId, today, now));
    if (!period) break;
    if (period !== "already-issued") issued.push(period);
  }
  return issued;
}

async function issueNextPeriod(
  tx: Tx,
  deps: RenewalDeps,
  subscriptionId: string,
  today: CalendarDay,
  now: Date,
): Promise<IssuedPeriod | "already-issued" | null> {
  let [sub] = await tx
    .select()
    .from(planSubscriptions)
    .where(eq(planSubscriptions.id, subscriptionId))
    .for("update")
    .limit(1);
  if (!sub || !renewing(sub)) return null;
  const index = sub.nextPeriodIndex;
  if (subscriptionIssueDay(sub, index, deps.config.plans.renewalNoticeDays) > today) return null;
  const [existing] = await tx
    .select({ id: planPeriods.id })
    .from(planPeriods)
    .where(and(eq(planPeriods.subscriptionId, sub.id), eq(planPeriods.periodIndex, index)))
    .limit(1);
  if (existing) {
    // Issued, and the subscription's counter behind (a restore of an older row): catch it up.
    await tx
      .update(planSubscriptions)
      .set({ nextPeriodIndex: index + 1 })
      .where(eq(planSubscriptions.id, sub.id));
    return "already-issued";
  }
  // A switch of cycle the client chose takes effect with the first period not yet invoiced: the plan is
  // anchored again on that period's first day, at the price shown when the switch was chosen.
  if (sub.nextCycle && sub.nextCycle !== sub.cycle && sub.nextPriceUsd !== null) {
    const [switched] = await tx
      .update(planSubscriptions)
      .set({
        anchorDay: subscriptionPeriod(sub, index).startsOn,
        anchorPeriodIndex: index,
        cycle: sub.nextCycle,
        priceUsd: sub.nextPriceUsd,
        nextCycle: null,
        nextPriceUsd: null,
      })
      .where(eq(planSubscriptions.id, sub.id))
      .returning();
    sub = switched!;
  }
  const { startsOn, endsOn } = subscriptionPeriod(sub, index);
  // The plan's USD price at the issue day's rate, frozen on the order and its invoice.
  const price = priceOrder({
    unitPriceUsd: sub.priceUsd,
    quantity: 1,
    ...chargeCurrency(sub.currency, await deps.rates()),
    taxRatePercent: deps.config.invoices.taxRatePercent,
    // The client's treatment as saved (VIES is not asked inside the renewal's transaction; issue 40).
    tax: await taxForClient(tx, deps.config, sub.clientId),
  });
  const cycleName = sub.cycle === "yearly" ? "Yearly" : "Monthly";
  // Due on the period's first day, whatever day the run issues it.
  const dueDays = Math.max(0, daysBetween(today, startsOn));
  const created = await createOrder(
    tx,
    { ...deps.config, invoices: { ...deps.config.invoices, dueDays } },
    {
      order: {
        clientId: sub.clientId,
        serviceId: null,
        serviceName: sub.planName,
        serviceCategory: "Care plan",
        package: sub.cycle,
        packageName: `${cycleName}: ${startsOn} to ${endsOn}`,
        quantity: 1,
        unitPriceUsd: sub.priceUsd,
        amountUsd: price.amountUsd,
        currency: price.currency,
        amountInCurrency: price.subtotal,
        exchangeRate: price.exchangeRate,
        planSubscriptionId: sub.id,
      },
      invoicePrice: price,
      now,
      announce: true,
    },
  );
  if (!created) throw new Error("renewal: the period's order was not made");
  const [row] = await tx
    .insert(planPeriods)
    .values({
      subscriptionId: sub.id,
      periodIndex: index,
      cycle: sub.cycle,
      startsOn,
      endsOn,
      orderId: created.order.id,
      invoiceId: created.invoice.id,
    })
    // The backstop of the lock: a period already issued makes this transaction issue nothing.
    .onConflictDoNothing({ target: [planPeriods.subscriptionId, planPeriods.periodIndex] })
    .returning({ id: planPeriods.id });
  if (!row) throw new PeriodAlreadyIssued(sub.id, index);
  await tx
    .update(planSubscriptions)
    .set({ nextPeriodIndex: index + 1 })
    .where(eq(planSubscriptions.id, sub.id));
  const amount = formatMoney(created.invoice.totalAmount, created.invoice.currency);
  await emailInvoiceClient(tx, deps.config, created.invoice, {
    kind: "plan-renewal",
    subject: `${sub.planName}: invoice ${created.invoice.invoiceNumber} for ${formatCalendarDay(startsOn)} to ${formatCalendarDay(endsOn)}`,
    lines: [
      `Your ${sub.planName} plan renews on ${formatCalendarDay(startsOn)}. Invoice ${created.invoice.invoiceNumber} for ${amount} covers ${formatCalendarDay(startsOn)} to ${formatCalendarDay(endsOn)}.`,
      renewalChargeLine(sub, amount, startsOn, deps.config.publicUrl),
    ],
  });
  return {
    subscriptionId: sub.id,
    periodIndex: index,
    orderId: created.order.id,
    invoiceId: created.invoice.id,
    invoiceNumber: created.invoice.invoiceNumber,
    total: created.invoice.totalAmount,
    currency: created.invoice.currency,
  };
}

/**
 * How the renewal will be paid, as its email says it: the card on file on the due day; a card that will
 * have expired by then asks for a new one (the plan's card page); no card, the invoice by that day.
 */
export function renewalChargeLine(
  sub: Pick<PlanSubscription, "id" | "cardBrand" | "cardLast4" | "cardExpMonth" | "cardExpYear">,
  amount: string,
  due: CalendarDay,
  publicUrl: string,
): string {
  const day = formatCalendarDay(due);
  if (!sub.cardLast4) return `Please pay the invoice by ${day}.`;
  const card = `${cardBrandName(sub.cardBrand)} ending ${sub.cardLast4}`;
  if (sub.cardExpMonth && sub.cardExpYear && cardExpiredBy(sub.cardExpMonth, sub.cardExpYear, due)) {
    return `Your ${card} will have expired by ${day}: please add a new card at ${publicUrl}/client/plans/${sub.id}/card before then, or pay the invoice now.`;
  }
  return `We will charge your ${card} for ${amount} on ${day}. You can also pay the invoice now.`;
}

/** Rolls a transaction back when its period turned out issued (its order and invoice with it). */
export class PeriodAlreadyIssued extends Error {
  override name = "PeriodAlreadyIssued";
  constructor(subscriptionId: string, index: number) {
    super(`period ${index} of ${subscriptionId} is already issued`);
  }
}

/**
 * The renewals job's run: every subscription with a period due by `now`. Subscriptions are read without
 * a lock; each one's periods are issued under its own (issueDueRenewalsOf).
 */
export async function issueDueRenewals(
  deps: RenewalDeps,
  now: Date,
  stopping: () => boolean = () => false,
  /** Only this client's plans (a browser journey's hook); every plan when absent. */
  clientId?: string,
): Promise<IssuedPeriod[]> {
  const candidates = await deps.db
    .select({ id: planSubscriptions.id })
    .from(planSubscriptions)
    .where(
      and(
        inArray(planSubscriptions.status, ["active", "past_due"]),
        eq(planSubscriptions.cancelAtPeriodEnd, false),
        // A period can only be due once its anchor has come (the first period is paid at subscription).
        lte(planSubscriptions.anchorDay, calendarDayOf(now)),
        clientId ? eq(planSubscriptions.clientId, clientId) : undefined,
      ),
    );
  const issued: IssuedPeriod[] = [];
  for (const { id } of candidates) {
    if (stopping()) break;
    issued.push(...(await issueDueRenewalsOf(deps, id, now)));
  }
  return issued;
}
