/**
 * The client's care plans page (issue 38, item 5, first part): each plan with its state, its period and
 * next renewal (day and amount in the plan's currency at today's rate), the card on file, the support
 * incidents used this period, and its invoices. Scoped to the session's client.
 */
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, planPeriods, planSubscriptions } from "~/db/schema";
import type { Rates } from "~/features/currency/currency";
import { formatMoney } from "~/features/money/format";
import { chargeCurrency, priceOrder } from "~/features/orders/pricing";
import { calendarDayOf, formatCalendarDay, type PlanCycle, periodStart } from "./periods";
import { cardBrandName, subscriptionPeriod } from "./renewals.server";

export type ShownPlanStatus = "waiting" | "active" | "past_due" | "suspended" | "cancelled" | "ending";

export const PLAN_STATUS_LABELS: Record<ShownPlanStatus, string> = {
  waiting: "Waiting for payment",
  active: "Active",
  past_due: "Payment failed",
  suspended: "Suspended",
  cancelled: "Cancelled",
  ending: "Ends at period end",
};

export interface ClientPlanView {
  id: string;
  planName: string;
  cycle: PlanCycle;
  status: ShownPlanStatus;
  statusLabel: string;
  /** "1 March 2027 to 1 April 2027": the period running now (or the first one, before it is paid). */
  period: string;
  /** The next renewal's day and amount, when the plan renews. */
  renewal: { day: string; amount: string } | null;
  card: string | null;
  allowance: { included: number; used: number };
  invoices: Array<{ id: string; number: string; period: string; total: string; status: string }>;
  /** The first invoice to pay, while the plan waits for it. */
  payInvoiceId: string | null;
}

export async function clientPlans(
  db: Database,
  clientId: string,
  pricing: { rates: Rates; taxRatePercent: number },
  now: Date,
): Promise<ClientPlanView[]> {
  const subs = await db
    .select()
    .from(planSubscriptions)
    .where(eq(planSubscriptions.clientId, clientId))
    .orderBy(desc(planSubscriptions.createdAt));
  if (subs.length === 0) return [];
  const periods = await db
    .select({
      subscriptionId: planPeriods.subscriptionId,
      index: planPeriods.periodIndex,
      startsOn: planPeriods.startsOn,
      endsOn: planPeriods.endsOn,
      incidentsUsed: planPeriods.incidentsUsed,
      invoiceId: invoices.id,
      number: invoices.invoiceNumber,
      status: invoices.status,
      total: invoices.totalAmount,
      currency: invoices.currency,
      paidAt: invoices.paidAt,
    })
    .from(planPeriods)
    .innerJoin(invoices, eq(invoices.id, planPeriods.invoiceId))
    .where(
      and(
        inArray(
          planPeriods.subscriptionId,
          subs.map((s) => s.id),
        ),
        eq(invoices.clientId, clientId),
      ),
    )
    .orderBy(asc(planPeriods.periodIndex));
  const today = calendarDayOf(now);
  return subs.map((sub) => {
    const own = periods.filter((p) => p.subscriptionId === sub.id);
    const first = own.find((p) => p.index === 0);
    // Paid, and the activation job not yet run: active from the day it was paid.
    const startedByPayment = sub.status === "incomplete" && first?.status === "paid";
    const anchored =
      startedByPayment && first?.paidAt
        ? { ...sub, anchorDay: calendarDayOf(first.paidAt), anchorPeriodIndex: 0, nextPeriodIndex: 1 }
        : sub;
    const status: ShownPlanStatus =
      sub.status === "incomplete"
        ? startedByPayment
          ? "active"
          : "waiting"
        : sub.status === "active" && sub.cancelAtPeriodEnd
          ? "ending"
          : sub.status;
    const cycle = sub.cycle as PlanCycle;
    const current =
      own.filter((p) => p.startsOn <= today).at(-1) ??
      (first
        ? { ...first, startsOn: anchored.anchorDay, endsOn: periodStart(anchored.anchorDay, cycle, 1) }
        : null);
    const renews = status === "active" || status === "past_due";
    const next = renews
      ? subscriptionPeriod(anchored, Math.max(anchored.nextPeriodIndex, (current?.index ?? 0) + 1))
      : null;
    return {
      id: sub.id,
      planName: sub.planName,
      cycle,
      status,
      statusLabel: PLAN_STATUS_LABELS[status],
      period: current ? `${formatCalendarDay(current.startsOn)} to ${formatCalendarDay(current.endsOn)}` : "",
      renewal: next ? { day: formatCalendarDay(next.startsOn), amount: renewalAmount(sub, pricing) } : null,
      card: sub.cardLast4
        ? `${cardBrandName(sub.cardBrand)} ending ${sub.cardLast4}, expires ${String(sub.cardExpMonth).padStart(2, "0")}/${sub.cardExpYear}`
        : null,
      allowance: { included: sub.incidentAllowance, used: current?.incidentsUsed ?? 0 },
      invoices: own
        .slice()
        .reverse()
        .map((p) => ({
          id: p.invoiceId,
          number: p.number,
          period: `${formatCalendarDay(p.startsOn)} to ${formatCalendarDay(p.endsOn)}`,
          total: formatMoney(p.total, p.currency),
          status: p.status,
        })),
      payInvoiceId: status === "waiting" && first ? first.invoiceId : null,
    };
  });
}

/** A renewal's amount at today's rate, as its invoice would be issued today (tax included). */
function renewalAmount(
  sub: { priceUsd: number; currency: string },
  { rates, taxRatePercent }: { rates: Rates; taxRatePercent: number },
): string {
  const price = priceOrder({
    unitPriceUsd: sub.priceUsd,
    quantity: 1,
    ...chargeCurrency(sub.currency, rates),
    taxRatePercent,
  });
  return formatMoney(price.total, price.currency);
}
