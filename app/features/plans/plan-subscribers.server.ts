/**
 * The owner's view of care plans (issue 38, item 7; ADR 0531 "Owner's view"): subscribers, monthly
 * recurring revenue, renewals due in the next 30 days, past-due and suspended plans with their last
 * decline, cancellations with their reasons, and one client's plans. Reads only; `now` is given (the
 * loaders pass the request's time, the tests a day of their own).
 *
 * Renewal days are the subscription's own period dates (`subscriptionPeriod`, anchored to its start),
 * never a date stored by the last run; a plan cancelled at its period's end does not renew.
 */
import { and, asc, count, desc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  clients,
  invoices,
  type PlanSubscription,
  planChargeAttempts,
  planPeriods,
  planSubscriptions,
} from "~/db/schema";
import { type Paged, pageInfo } from "~/features/lists/listing";
import { ilikeContains, readPage } from "~/features/lists/search.server";
import { formatMoney } from "~/features/money/format";
import { PLAN_STATUS_LABELS } from "./client-plans.server";
import { declineInWords, monthlyRecurringRevenueUsd, shownPlanStatus, sumUsd } from "./owner-figures";
import {
  addDays,
  type CalendarDay,
  calendarDayOf,
  formatCalendarDay,
  type PlanCycle,
  periodContaining,
} from "./periods";
import { cardBrandName, subscriptionPeriod } from "./renewals.server";

/** How far ahead the owner's page lists renewals. */
export const RENEWAL_WINDOW_DAYS = 30;
/** The most rows the page's short lists show (the soonest renewals, the latest cancellations). */
export const SHORT_LIST_ROWS = 50;

type Anchored = Pick<PlanSubscription, "anchorDay" | "anchorPeriodIndex" | "cycle">;

/** The index of the first period that starts after `today` (the plan's next renewal). */
function nextRenewalIndex(sub: Anchored, today: CalendarDay): number {
  const offset =
    today < sub.anchorDay ? 0 : periodContaining(sub.anchorDay, sub.cycle as PlanCycle, today).index;
  let index = sub.anchorPeriodIndex + offset;
  while (subscriptionPeriod(sub, index).startsOn <= today) index++;
  return index;
}

/**
 * Every renewal starting after `today` and on or before `until`: its day, cycle and USD price. A switch of
 * cycle the client chose (`next_cycle`) applies from the first period not yet invoiced, at the price shown
 * to them then, the plan anchored again on that day (as the renewals job does).
 */
function renewalsBetween(
  sub: Anchored & Pick<PlanSubscription, "priceUsd" | "nextCycle" | "nextPriceUsd" | "nextPeriodIndex">,
  today: CalendarDay,
  until: CalendarDay,
): Array<{ startsOn: CalendarDay; cycle: PlanCycle; priceUsd: number }> {
  const found: Array<{ startsOn: CalendarDay; cycle: PlanCycle; priceUsd: number }> = [];
  const switchAt =
    sub.nextCycle && sub.nextCycle !== sub.cycle && sub.nextPriceUsd !== null ? sub.nextPeriodIndex : null;
  for (let index = nextRenewalIndex(sub, today); ; index++) {
    const switched = switchAt !== null && index >= switchAt;
    const basis = switched
      ? {
          anchorDay: subscriptionPeriod(sub, switchAt).startsOn,
          anchorPeriodIndex: switchAt,
          cycle: sub.nextCycle!,
        }
      : sub;
    const { startsOn } = subscriptionPeriod(basis, index);
    if (startsOn > until) return found;
    if (startsOn > today) {
      found.push({
        startsOn,
        cycle: basis.cycle as PlanCycle,
        priceUsd: switched ? sub.nextPriceUsd! : sub.priceUsd,
      });
    }
  }
}

/** A plan that renews: active or past due, and not ending at its period's end. */
function renews(sub: Pick<PlanSubscription, "status" | "cancelAtPeriodEnd">): boolean {
  return (sub.status === "active" || sub.status === "past_due") && !sub.cancelAtPeriodEnd;
}

/** The day a plan's next renewal falls on (its current period's end), as shown. */
function nextRenewalDay(sub: Anchored, today: CalendarDay): CalendarDay {
  return subscriptionPeriod(sub, nextRenewalIndex(sub, today)).startsOn;
}

const cardText = (sub: Pick<PlanSubscription, "cardBrand" | "cardLast4">) =>
  sub.cardLast4 ? `${cardBrandName(sub.cardBrand)} ending ${sub.cardLast4}` : null;

const clientName = sql<string>`coalesce(${clients.name}, '—')`;

export interface RenewalDue {
  subscriptionId: string;
  clientId: string;
  clientName: string;
  planName: string;
  cycle: PlanCycle;
  /** "28 February 2027" */
  day: string;
  /** The period's price in USD, as the figure sums it. */
  amount: string;
}

export interface TroubledPlan {
  id: string;
  clientId: string;
  clientName: string;
  planName: string;
  status: "past_due" | "suspended";
  statusLabel: string;
  /** Past due since, or suspended on: a calendar day in words. */
  since: string;
  /** The oldest unpaid invoice of the plan's periods. */
  invoice: { id: string; number: string; amount: string } | null;
  /** The last declined charge, in words, and its day. */
  decline: { words: string; on: string } | null;
}

export interface Cancellation {
  id: string;
  clientId: string;
  clientName: string;
  planName: string;
  /** Cancelled, or still running and ending at its period's end. */
  ending: boolean;
  reason: string | null;
  /** When it was cancelled, or the day it ends. */
  day: string;
}

export interface PlansOverview {
  figures: {
    /** Active or past-due plans. */
    subscribers: number;
    mrrUsd: number;
    renewals: { count: number; totalUsd: number };
  };
  /** Active or past-due plans per care plan id (the plan list's Subscribers column). */
  subscribersByPlan: Record<string, number>;
  renewals: { rows: RenewalDue[]; total: number };
  troubled: TroubledPlan[];
  cancellations: { rows: Cancellation[]; total: number };
}

/** Everything above the plan list on the owner's page, as of `now`. */
export async function plansOverview(db: Database, now: Date): Promise<PlansOverview> {
  const today = calendarDayOf(now);
  const until = addDays(today, RENEWAL_WINDOW_DAYS);
  const current = await db
    .select({ sub: planSubscriptions, clientName })
    .from(planSubscriptions)
    .leftJoin(clients, eq(clients.id, planSubscriptions.clientId))
    .where(inArray(planSubscriptions.status, ["active", "past_due"]));
  const subscribersByPlan: Record<string, number> = {};
  for (const { sub } of current) subscribersByPlan[sub.planId] = (subscribersByPlan[sub.planId] ?? 0) + 1;

  const due: Array<RenewalDue & { startsOn: CalendarDay; priceUsd: number }> = [];
  for (const { sub, clientName: name } of current) {
    if (!renews(sub)) continue;
    for (const renewal of renewalsBetween(sub, today, until)) {
      due.push({
        subscriptionId: sub.id,
        clientId: sub.clientId,
        clientName: name,
        planName: sub.planName,
        cycle: renewal.cycle,
        startsOn: renewal.startsOn,
        day: formatCalendarDay(renewal.startsOn),
        priceUsd: renewal.priceUsd,
        amount: formatMoney(renewal.priceUsd, "USD"),
      });
    }
  }
  due.sort((a, b) => a.startsOn.localeCompare(b.startsOn) || a.clientName.localeCompare(b.clientName));
  const [troubled, cancellations] = await Promise.all([
    troubledPlans(db),
    cancelledPlans(db, current, today),
  ]);
  return {
    figures: {
      subscribers: current.length,
      mrrUsd: monthlyRecurringRevenueUsd(current.map(({ sub }) => sub)),
      renewals: { count: due.length, totalUsd: sumUsd(due.map((d) => d.priceUsd)) },
    },
    subscribersByPlan,
    renewals: {
      rows: due.slice(0, SHORT_LIST_ROWS).map(({ startsOn: _s, priceUsd: _p, ...row }) => row),
      total: due.length,
    },
    troubled,
    cancellations,
  };
}

/**
 * Past-due and suspended plans, the longest unpaid first: since when, the oldest unpaid invoice of
 * their periods, and the last declined charge in words. The dashboard's "Needs attention" shows them too.
 */
export async function troubledPlans(db: Database, limit = SHORT_LIST_ROWS): Promise<TroubledPlan[]> {
  const since = sql<Date | null>`coalesce(${planSubscriptions.suspendedAt}, ${planSubscriptions.pastDueSince})`;
  const subs = await db
    .select({ sub: planSubscriptions, clientName })
    .from(planSubscriptions)
    .leftJoin(clients, eq(clients.id, planSubscriptions.clientId))
    .where(inArray(planSubscriptions.status, ["past_due", "suspended"]))
    .orderBy(asc(since), asc(planSubscriptions.id))
    .limit(limit);
  if (subs.length === 0) return [];
  const ids = subs.map(({ sub }) => sub.id);
  const [unpaid, declines] = await Promise.all([
    db
      .select({
        subscriptionId: planPeriods.subscriptionId,
        id: invoices.id,
        number: invoices.invoiceNumber,
        total: invoices.totalAmount,
        currency: invoices.currency,
      })
      .from(planPeriods)
      .innerJoin(invoices, eq(invoices.id, planPeriods.invoiceId))
      .where(and(inArray(planPeriods.subscriptionId, ids), inArray(invoices.status, ["sent", "overdue"])))
      .orderBy(asc(planPeriods.periodIndex)),
    db
      .select({
        subscriptionId: planPeriods.subscriptionId,
        outcome: planChargeAttempts.outcome,
        code: planChargeAttempts.code,
        declineCode: planChargeAttempts.declineCode,
        adviceCode: planChargeAttempts.adviceCode,
        message: planChargeAttempts.message,
        at: planChargeAttempts.updatedAt,
      })
      .from(planChargeAttempts)
      .innerJoin(planPeriods, eq(planPeriods.id, planChargeAttempts.periodId))
      .where(
        and(
          inArray(planPeriods.subscriptionId, ids),
          inArray(planChargeAttempts.outcome, ["soft", "hard", "authentication"]),
        ),
      )
      .orderBy(desc(planPeriods.periodIndex), desc(planChargeAttempts.attempt)),
  ]);
  return subs.map(({ sub, clientName: name }) => {
    const invoice = unpaid.find((i) => i.subscriptionId === sub.id);
    const decline = declines.find((d) => d.subscriptionId === sub.id);
    const status = sub.status as TroubledPlan["status"];
    const at = status === "suspended" ? (sub.suspendedAt ?? sub.pastDueSince) : sub.pastDueSince;
    return {
      id: sub.id,
      clientId: sub.clientId,
      clientName: name,
      planName: sub.planName,
      status,
      statusLabel: PLAN_STATUS_LABELS[status],
      since: at ? formatCalendarDay(calendarDayOf(at)) : "—",
      invoice: invoice
        ? { id: invoice.id, number: invoice.number, amount: formatMoney(invoice.total, invoice.currency) }
        : null,
      decline: decline
        ? {
            words: declineInWords({
              ...decline,
              outcome: decline.outcome as "soft" | "hard" | "authentication",
            }),
            on: formatCalendarDay(calendarDayOf(decline.at)),
          }
        : null,
    };
  });
}

/**
 * Cancelled plans and plans ending at their period's end, with the client's reason: the ending ones
 * first (by the day they end), then the cancelled ones, the latest first; at most SHORT_LIST_ROWS.
 */
async function cancelledPlans(
  db: Database,
  current: Array<{ sub: PlanSubscription; clientName: string }>,
  today: CalendarDay,
): Promise<PlansOverview["cancellations"]> {
  const ending = current
    .filter(({ sub }) => sub.cancelAtPeriodEnd)
    // The day chosen when it was cancelled (a later period already paid runs to its end).
    .map(({ sub, clientName: name }) => ({ sub, name, endsOn: sub.endsOn ?? nextRenewalDay(sub, today) }))
    .sort((a, b) => a.endsOn.localeCompare(b.endsOn));
  const cancelledWhere = eq(planSubscriptions.status, "cancelled");
  const [counted] = await db.select({ n: count() }).from(planSubscriptions).where(cancelledWhere);
  const cancelled = await db
    .select({ sub: planSubscriptions, clientName })
    .from(planSubscriptions)
    .leftJoin(clients, eq(clients.id, planSubscriptions.clientId))
    .where(cancelledWhere)
    .orderBy(sql`${planSubscriptions.cancelledAt} desc nulls last`, desc(planSubscriptions.updatedAt))
    .limit(Math.max(0, SHORT_LIST_ROWS - ending.length));
  const rows: Cancellation[] = [
    ...ending.map(({ sub, name, endsOn }) => ({
      id: sub.id,
      clientId: sub.clientId,
      clientName: name,
      planName: sub.planName,
      ending: true,
      reason: sub.cancelReason,
      day: formatCalendarDay(endsOn),
    })),
    ...cancelled.map(({ sub, clientName: name }) => ({
      id: sub.id,
      clientId: sub.clientId,
      clientName: name,
      planName: sub.planName,
      ending: false,
      reason: sub.cancelReason,
      day: sub.cancelledAt ? formatCalendarDay(calendarDayOf(sub.cancelledAt)) : "—",
    })),
  ];
  return { rows: rows.slice(0, SHORT_LIST_ROWS), total: ending.length + (counted?.n ?? 0) };
}

/** A subscriber as the owner's list shows one. */
export interface SubscriberRow {
  id: string;
  clientId: string;
  clientName: string;
  planName: string;
  cycle: PlanCycle;
  status: string;
  statusLabel: string;
  /** The day its first period started; null while it waits for its first payment. */
  started: string | null;
  nextRenewal: string | null;
  card: string | null;
}

/** The owner's search over subscribers: the client's name or email, or the plan's name. */
function subscriberSearch(q: string): SQL | undefined {
  if (!q) return undefined;
  return or(
    ilikeContains(clients.name, q),
    ilikeContains(clients.email, q),
    ilikeContains(planSubscriptions.planName, q),
  );
}

/** Every subscription, newest first, a page at a time (the list kit's paging), with a search. */
export async function listSubscribers(
  db: Database,
  query: { q: string; page: number },
  now: Date,
): Promise<Paged<SubscriberRow>> {
  const today = calendarDayOf(now);
  const where = subscriberSearch(query.q);
  const [counted] = await db
    .select({ n: count() })
    .from(planSubscriptions)
    .leftJoin(clients, eq(clients.id, planSubscriptions.clientId))
    .where(where);
  const total = counted?.n ?? 0;
  const rows = await readPage(
    pageInfo(query.page, total),
    ({ limit, offset, reverse }) => {
      const dir = reverse ? asc : desc;
      return db
        .select({
          sub: planSubscriptions,
          clientName,
          firstStartsOn: planPeriods.startsOn,
          firstInvoiceStatus: invoices.status,
        })
        .from(planSubscriptions)
        .leftJoin(clients, eq(clients.id, planSubscriptions.clientId))
        .leftJoin(
          planPeriods,
          and(eq(planPeriods.subscriptionId, planSubscriptions.id), eq(planPeriods.periodIndex, 0)),
        )
        .leftJoin(invoices, eq(invoices.id, planPeriods.invoiceId))
        .where(where)
        .orderBy(dir(planSubscriptions.createdAt), dir(planSubscriptions.id))
        .limit(limit)
        .offset(offset);
    },
    query.page,
  );
  return {
    total,
    page: query.page,
    rows: rows.map(({ sub, clientName: name, firstStartsOn, firstInvoiceStatus }) => {
      const status = shownPlanStatus(sub, firstInvoiceStatus === "paid");
      const waiting = sub.status === "incomplete";
      return {
        id: sub.id,
        clientId: sub.clientId,
        clientName: name,
        planName: sub.planName,
        cycle: sub.cycle,
        status,
        statusLabel: PLAN_STATUS_LABELS[status],
        started: waiting ? null : formatCalendarDay(firstStartsOn ?? sub.anchorDay),
        nextRenewal: renews(sub) ? formatCalendarDay(nextRenewalDay(sub, today)) : null,
        card: cardText(sub),
      };
    }),
  };
}

/** One client's plan as the owner's client page shows it. */
export interface OwnersClientPlan {
  id: string;
  planName: string;
  cycle: PlanCycle;
  status: string;
  statusLabel: string;
  nextRenewal: string | null;
}

/** A client's plans, newest first, for the owner's client page (one waiting for its first payment too). */
export async function plansOfClient(db: Database, clientId: string, now: Date): Promise<OwnersClientPlan[]> {
  const today = calendarDayOf(now);
  const rows = await db
    .select({ sub: planSubscriptions, firstInvoiceStatus: invoices.status })
    .from(planSubscriptions)
    .leftJoin(
      planPeriods,
      and(eq(planPeriods.subscriptionId, planSubscriptions.id), eq(planPeriods.periodIndex, 0)),
    )
    .leftJoin(invoices, eq(invoices.id, planPeriods.invoiceId))
    .where(eq(planSubscriptions.clientId, clientId))
    .orderBy(desc(planSubscriptions.createdAt), desc(planSubscriptions.id));
  return rows.map(({ sub, firstInvoiceStatus }) => {
    const status = shownPlanStatus(sub, firstInvoiceStatus === "paid");
    return {
      id: sub.id,
      planName: sub.planName,
      cycle: sub.cycle,
      status,
      statusLabel: PLAN_STATUS_LABELS[status],
      nextRenewal: renews(sub) ? formatCalendarDay(nextRenewalDay(sub, today)) : null,
    };
  });
}
