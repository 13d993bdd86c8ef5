/**
 * The plan-states job (ADR 0531): what moves a care plan between states after a payment or a day, each
 * step idempotent (a state guards it) and run with an injected clock:
 * - a plan waiting for its first payment starts once it is paid (activation.server.ts);
 * - the card is read back after a card update or a plan invoice paid by hand (plan-cards.server.ts);
 * - a past-due or suspended plan whose due invoices are all paid is active again: the declined client
 *   paid it themselves. A suspended plan does not owe the periods it missed: its next renewal is the
 *   period it is reactivated in;
 * - a plan cancelled at its period's end is cancelled once that day has come.
 * Payments sit below plans, so this job is what joins a recorded payment to its plan.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, planPeriods, planSubscriptions } from "~/db/schema";
import { isUnpaidOrOverdue } from "~/features/invoices/invoice-status";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { notifyOwners } from "~/features/orders/order-access.server";
import { type ActivationDeps, activatePaidSubscriptions } from "./activation.server";
import { calendarDayOf, formatCalendarDay, type PlanCycle, periodContaining } from "./periods";
import { refreshPlanCards } from "./plan-cards.server";

/** The plan-states job's name (and its lease's). */
export const PLAN_STATES_JOB = "plan-states";

export interface PlanStatesResult {
  started: string[];
  cards: string[];
  reactivated: string[];
  ended: string[];
}

/** One run of the plan-states job. */
export async function settlePlans(
  deps: ActivationDeps,
  now: Date,
  stopping: () => boolean = () => false,
  /** Only this client's plans (a browser journey's hook); every plan when absent. */
  clientId?: string,
): Promise<PlanStatesResult> {
  const started = await activatePaidSubscriptions(deps, stopping, clientId);
  const cards = await refreshPlanCards(deps, now, stopping, clientId);
  const reactivated = await reactivatePaidPlans(deps.db, now, stopping, clientId);
  const ended = await endCancelledPlans(deps.db, now, stopping, clientId);
  return { started, cards, reactivated, ended };
}

/** The periods of some plans with their invoices' states. */
async function periodsOf(db: Database, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      subscriptionId: planPeriods.subscriptionId,
      startsOn: planPeriods.startsOn,
      endsOn: planPeriods.endsOn,
      status: invoices.status,
    })
    .from(planPeriods)
    .innerJoin(invoices, eq(invoices.id, planPeriods.invoiceId))
    .where(inArray(planPeriods.subscriptionId, ids))
    .orderBy(asc(planPeriods.periodIndex));
}

/** Past-due and suspended plans with nothing left unpaid that is due: active again. */
export async function reactivatePaidPlans(
  db: Database,
  now: Date,
  stopping = () => false,
  clientId?: string,
): Promise<string[]> {
  const today = calendarDayOf(now);
  const subs = await db
    .select()
    .from(planSubscriptions)
    .where(
      and(
        inArray(planSubscriptions.status, ["past_due", "suspended"]),
        clientId ? eq(planSubscriptions.clientId, clientId) : undefined,
      ),
    );
  const periods = await periodsOf(
    db,
    subs.map((s) => s.id),
  );
  const reactivated: string[] = [];
  for (const sub of subs) {
    if (stopping()) break;
    const owed = periods.some(
      (p) => p.subscriptionId === sub.id && p.startsOn <= today && isUnpaidOrOverdue(p.status),
    );
    if (owed) continue;
    // The period running today, counted from the anchor: a suspended plan's missed periods are skipped.
    const running =
      sub.anchorPeriodIndex + periodContaining(sub.anchorDay, sub.cycle as PlanCycle, today).index;
    const done = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(planSubscriptions)
        .set({
          status: "active",
          pastDueSince: null,
          suspendedAt: null,
          ...(sub.status === "suspended" && sub.nextPeriodIndex < running
            ? { nextPeriodIndex: running }
            : {}),
        })
        .where(and(eq(planSubscriptions.id, sub.id), eq(planSubscriptions.status, sub.status)))
        .returning({ id: planSubscriptions.id });
      if (!row) return false;
      if (sub.status === "suspended") {
        await raiseNotification(tx, sub.clientId, {
          title: "Plan active again",
          message: `${sub.planName} is active again: thank you for paying.`,
          type: "success",
          href: "/client/plans",
        });
        await notifyOwners(tx, {
          title: "Plan active again",
          message: `${sub.planName} was suspended and is active again: its invoice is paid.`,
          type: "info",
          href: "/admin/plans",
        });
      }
      return true;
    });
    if (done) reactivated.push(sub.id);
  }
  return reactivated;
}

/** Plans cancelled at their period's end whose last period has ended: cancelled. */
export async function endCancelledPlans(
  db: Database,
  now: Date,
  stopping = () => false,
  clientId?: string,
): Promise<string[]> {
  const today = calendarDayOf(now);
  const subs = await db
    .select()
    .from(planSubscriptions)
    .where(
      and(
        eq(planSubscriptions.cancelAtPeriodEnd, true),
        inArray(planSubscriptions.status, ["active", "past_due", "suspended"]),
        clientId ? eq(planSubscriptions.clientId, clientId) : undefined,
      ),
    );
  const periods = await periodsOf(
    db,
    subs.map((s) => s.id),
  );
  const ended: string[] = [];
  for (const sub of subs) {
    if (stopping()) break;
    // The day chosen when it was cancelled; for a plan set to end without one, its last period's end.
    const own = periods.filter((p) => p.subscriptionId === sub.id && p.status !== "void");
    const endDay =
      sub.endsOn ??
      own.reduce<string | null>((end, p) => (end === null || p.endsOn > end ? p.endsOn : end), null);
    if (endDay === null || endDay > today) continue;
    const done = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(planSubscriptions)
        .set({ status: "cancelled", cancelledAt: now })
        .where(
          and(
            eq(planSubscriptions.id, sub.id),
            eq(planSubscriptions.cancelAtPeriodEnd, true),
            inArray(planSubscriptions.status, ["active", "past_due", "suspended"]),
          ),
        )
        .returning({ id: planSubscriptions.id });
      if (!row) return false;
      await raiseNotification(tx, sub.clientId, {
        title: "Plan ended",
        message: `${sub.planName} ended on ${formatCalendarDay(endDay)}, as you asked.`,
        type: "info",
        href: "/client/plans",
      });
      await notifyOwners(tx, {
        title: "Plan ended",
        message: `${sub.planName} ended on ${formatCalendarDay(endDay)}${sub.cancelReason ? ` (the client's reason: “${sub.cancelReason}”)` : ""}.`,
        type: "info",
        href: "/admin/plans",
      });
      return true;
    });
    if (done) ended.push(sub.id);
  }
  return ended;
}
