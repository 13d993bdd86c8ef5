/**
 * The client's care plans page (issue 38, item 5, first part): each plan with its state, its period and
 * next renewal (day and amount in the plan's currency at today's rate), the card on file, the support
 * incidents used this period, and its invoices. Scoped to the session's client.
 */
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, type PlanSubscription, planPeriods, planSubscriptions } from "~/db/schema";
import type { Rates } from "~/features/currency/currency";
import { isUnpaidOrOverdue } from "~/features/invoices/invoice-status";
import { formatMoney } from "~/features/money/format";
import { chargeCurrency, priceOrder } from "~/features/orders/pricing";
import { calendarDayOf, formatCalendarDay, type PlanCycle, periodStart } from "./periods";
import { cardOnFile } from "./plan-cards.server";
import type { PlanChange } from "./plan-changes.server";
import { subscriptionPeriod } from "./renewals.server";

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
  /** The next renewal's day and amount, when the plan renews, and how its amount is known. */
  renewal: { day: string; amount: string; note: "paid" | "invoiced" | "at that day's rate" } | null;
  card: string | null;
  allowance: { included: number; used: number };
  invoices: Array<{ id: string; number: string; period: string; total: string; status: string }>;
  /** The first invoice to pay, while the plan waits for it. */
  payInvoiceId: string | null;
  /** A renewal invoice due and unpaid (a declined card): paying it saves the new card too. */
  unpaid: { id: string; number: string; amount: string } | null;
  /** "Ends on 1 April 2027" once cancelled at the period's end. */
  ends: string | null;
  /** "Switches to yearly from 1 April 2027" once the client chose so. */
  switching: string | null;
  /** The changes the client can make now, each to its preview page. */
  changes: Array<{ href: string; label: string }>;
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
    const renews = (status === "active" || status === "past_due") && !sub.cancelAtPeriodEnd;
    // A declined plan's unpaid invoice: the first unpaid one (the renewal that was declined).
    const due =
      sub.status === "past_due" || sub.status === "suspended"
        ? own.find((p) => isUnpaidOrOverdue(p.status))
        : undefined;
    const ends = sub.cancelAtPeriodEnd && sub.status !== "cancelled" ? sub.endsOn : null;
    // The next renewal: one already invoiced for later (its frozen amount), else the next to invoice
    // (today's rate).
    const issuedAhead = own.find((p) => p.startsOn > today && p.status !== "void");
    const renewal = !renews
      ? null
      : issuedAhead
        ? {
            day: formatCalendarDay(issuedAhead.startsOn),
            amount: formatMoney(issuedAhead.total, issuedAhead.currency),
            note: issuedAhead.status === "paid" ? ("paid" as const) : ("invoiced" as const),
          }
        : {
            day: formatCalendarDay(subscriptionPeriod(anchored, anchored.nextPeriodIndex).startsOn),
            amount: renewalAmount(sub, pricing),
            note: "at that day's rate" as const,
          };
    return {
      id: sub.id,
      planName: sub.planName,
      cycle,
      status,
      statusLabel: PLAN_STATUS_LABELS[status],
      period: current ? `${formatCalendarDay(current.startsOn)} to ${formatCalendarDay(current.endsOn)}` : "",
      renewal,
      card: cardOnFile(sub),
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
      unpaid: due
        ? { id: due.invoiceId, number: due.number, amount: formatMoney(due.total, due.currency) }
        : null,
      ends: ends ? `Ends on ${formatCalendarDay(ends)}` : null,
      switching:
        sub.nextCycle && renews
          ? `Switches to ${sub.nextCycle} from ${formatCalendarDay(subscriptionPeriod(anchored, anchored.nextPeriodIndex).startsOn)}`
          : null,
      changes: planChangesOffered(sub, status).map((change) => ({
        href: `/client/plans/${sub.id}/${change.change}`,
        label: change.label,
      })),
    };
  });
}

/** What the client can change on a plan in its state (each previewed before it is made). */
function planChangesOffered(
  sub: Pick<PlanSubscription, "status" | "cancelAtPeriodEnd" | "nextCycle" | "cycle">,
  status: ShownPlanStatus,
): Array<{ change: PlanChange; label: string }> {
  if (sub.status === "cancelled") return [];
  if (sub.status === "incomplete") return status === "waiting" ? [{ change: "cancel", label: "Cancel" }] : [];
  const offered: Array<{ change: PlanChange; label: string }> = [{ change: "card", label: "Update card" }];
  if (sub.cancelAtPeriodEnd) return [...offered, { change: "resume", label: "Resume plan" }];
  if (sub.status !== "suspended") {
    const other = sub.cycle === "yearly" ? "monthly" : "yearly";
    offered.push({ change: "cycle", label: sub.nextCycle ? `Keep ${sub.cycle}` : `Switch to ${other}` });
  }
  return [...offered, { change: "cancel", label: "Cancel plan" }];
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
