/**
 * The client's changes to a care plan (issue 38, item 5; ADR 0531): cancel at the period's end (with an
 * optional reason), resume before that day, switch between monthly and yearly from the first period not
 * yet invoiced, and a new card. Each change is previewed first (what changes, from which day, for how
 * much) by the same function that decides it when confirmed, inside the confirming transaction with the
 * plan's row locked: what is done is what was shown, or the client is shown the new preview. A plan that
 * is still waiting for its first payment, or suspended, is cancelled at once (its unpaid invoices voided).
 */
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Config } from "~/config.server";
import type { Database, Tx } from "~/db/client.server";
import {
  carePlans,
  clients,
  invoices,
  type PlanSubscription,
  planPeriods,
  planSubscriptions,
} from "~/db/schema";
import { type Actor, recordAudit } from "~/features/audit/audit.server";
import type { Rates } from "~/features/currency/currency";
import { isUnpaidOrOverdue } from "~/features/invoices/invoice-status";
import { enqueueEmail, mailbox } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import { formatMoney } from "~/features/money/format";
import { notifyOwners } from "~/features/orders/order-access.server";
import { cancelOrder, lockOrder } from "~/features/orders/order-lifecycle.server";
import { chargeCurrency, priceOrder } from "~/features/orders/pricing";
import { type CalendarDay, calendarDayOf, formatCalendarDay, periodContaining } from "./periods";
import type { PlanCycle } from "./plans";
import { cardBrandName, subscriptionIssueDay, subscriptionPeriod } from "./renewals.server";

export const PLAN_CHANGES = ["cancel", "resume", "cycle", "card"] as const;
export type PlanChange = (typeof PLAN_CHANGES)[number];

export function isPlanChange(value: unknown): value is PlanChange {
  return typeof value === "string" && (PLAN_CHANGES as readonly string[]).includes(value);
}

/** The confirming form: the change's one reason, and the figure the preview showed (checked again). */
export const planChangeForm = z.object({
  reason: z.string().trim().max(500, { message: "Keep the reason under 500 characters." }).optional(),
  /** The preview's fingerprint: the change is made only if the server still sees the same. */
  shown: z.string().max(200),
});

export interface ChangeContext {
  rates: Rates;
  taxRatePercent: number;
  noticeDays: number;
  now: Date;
}

export interface PlanChangePreview {
  change: PlanChange;
  subscriptionId: string;
  planName: string;
  heading: string;
  /** What the change does, each with its day and amount. */
  lines: string[];
  confirmLabel: string;
  asksReason: boolean;
  /** For a new card while an invoice is unpaid: paying it with the new card saves the card too. */
  payInvoice: { id: string; number: string; amount: string } | null;
  /** What the confirming post sends back: the same figures, or the change is shown again. */
  shown: string;
}

export type PreviewOutcome =
  | { ok: true; preview: PlanChangePreview }
  | { ok: false; status: number; error: string };

interface PeriodRow {
  id: string;
  index: number;
  startsOn: CalendarDay;
  endsOn: CalendarDay;
  orderId: string;
  invoiceId: string;
  invoiceNumber: string;
  invoiceStatus: string;
  total: number;
  currency: string;
}

interface PlanState {
  sub: PlanSubscription;
  periods: PeriodRow[];
  /** The catalogue's price of one period of the other cycle (null when not sold so). */
  otherCyclePriceUsd: number | null;
}

const idSchema = z.string().uuid();
const NOT_FOUND = { ok: false as const, status: 404, error: "Care plan not found." };
const cycleWord = (cycle: PlanCycle) => (cycle === "yearly" ? "yearly" : "monthly");
const unitWord = (cycle: PlanCycle) => (cycle === "yearly" ? "year" : "month");
const otherCycle = (cycle: PlanCycle): PlanCycle => (cycle === "yearly" ? "monthly" : "yearly");

/** The client's own plan with its periods; the row locked when asked inside a transaction. */
async function planState(
  db: Database | Tx,
  clientId: string,
  id: string,
  lock: boolean,
): Promise<PlanState | null> {
  if (!idSchema.safeParse(id).success) return null;
  const query = db
    .select()
    .from(planSubscriptions)
    .where(and(eq(planSubscriptions.id, id), eq(planSubscriptions.clientId, clientId)))
    .limit(1);
  const [sub] = lock ? await query.for("update") : await query;
  if (!sub) return null;
  const periods = await db
    .select({
      id: planPeriods.id,
      index: planPeriods.periodIndex,
      startsOn: planPeriods.startsOn,
      endsOn: planPeriods.endsOn,
      orderId: planPeriods.orderId,
      invoiceId: invoices.id,
      invoiceNumber: invoices.invoiceNumber,
      invoiceStatus: invoices.status,
      total: invoices.totalAmount,
      currency: invoices.currency,
    })
    .from(planPeriods)
    .innerJoin(invoices, eq(invoices.id, planPeriods.invoiceId))
    .where(eq(planPeriods.subscriptionId, sub.id))
    .orderBy(asc(planPeriods.periodIndex));
  const [plan] = await db
    .select({ monthly: carePlans.monthlyPriceUsd, yearly: carePlans.yearlyPriceUsd })
    .from(carePlans)
    .where(eq(carePlans.id, sub.planId))
    .limit(1);
  const other = otherCycle(sub.cycle as PlanCycle);
  return {
    sub,
    periods,
    otherCyclePriceUsd: plan ? (other === "yearly" ? plan.yearly : plan.monthly) : null,
  };
}

/** A period's amount at today's rate, as a renewal invoice issued today would say it (tax included). */
export function periodAmount(
  priceUsd: number,
  currency: string,
  ctx: Pick<ChangeContext, "rates" | "taxRatePercent">,
) {
  const price = priceOrder({
    unitPriceUsd: priceUsd,
    quantity: 1,
    ...chargeCurrency(currency, ctx.rates),
    taxRatePercent: ctx.taxRatePercent,
  });
  return formatMoney(price.total, price.currency);
}

/**
 * The day a plan ends if cancelled at its period's end now: the end of the period running today (counted
 * from the anchor), or of a later one already paid; the renewals issued for later and unpaid are voided.
 */
export function planEndDay<P extends { startsOn: CalendarDay; endsOn: CalendarDay; invoiceStatus: string }>(
  sub: Pick<PlanSubscription, "anchorDay" | "anchorPeriodIndex" | "cycle">,
  periods: P[],
  today: CalendarDay,
): { endDay: CalendarDay; voided: P[] } {
  // Before the anchor of a switched cycle, the period running is the old cycle's last: it ends there.
  const running =
    today < sub.anchorDay && sub.anchorPeriodIndex > 0
      ? sub.anchorDay
      : subscriptionPeriod(
          sub,
          sub.anchorPeriodIndex + periodContaining(sub.anchorDay, sub.cycle as PlanCycle, today).index,
        ).endsOn;
  const paidAhead = periods.filter((p) => p.startsOn > today && p.invoiceStatus === "paid");
  // Calendar days sort as strings: the latest end.
  const endDay = [running, ...paidAhead.map((p) => p.endsOn)].sort().at(-1)!;
  const voided = periods.filter((p) => p.startsOn > today && isUnpaidOrOverdue(p.invoiceStatus));
  return { endDay, voided };
}

const endDayOf = (state: Pick<PlanState, "sub" | "periods">, today: CalendarDay) =>
  planEndDay(state.sub, state.periods, today);

const invoiceLine = (p: PeriodRow) =>
  `invoice ${p.invoiceNumber} (${formatMoney(p.total, p.currency)}) for ${formatCalendarDay(p.startsOn)} to ${formatCalendarDay(p.endsOn)}`;

function cardText(sub: PlanSubscription): string {
  return sub.cardLast4 ? `your ${cardBrandName(sub.cardBrand)} ending ${sub.cardLast4}` : "no card yet";
}

/** What a change would do now; the same decision the confirmation makes. */
export function previewChange(state: PlanState, change: PlanChange, ctx: ChangeContext): PreviewOutcome {
  const { sub } = state;
  const today = calendarDayOf(ctx.now);
  const cycle = sub.cycle as PlanCycle;
  const base = {
    change,
    subscriptionId: sub.id,
    planName: sub.planName,
    payInvoice: null,
    asksReason: false,
  };
  // What is owed now: the periods begun and unpaid; for a declined plan, the declined renewal too.
  const declined = sub.status === "past_due" || sub.status === "suspended";
  const unpaid = state.periods.filter(
    (p) => (p.startsOn <= today || declined) && isUnpaidOrOverdue(p.invoiceStatus),
  );
  if (sub.status === "cancelled")
    return { ok: false, status: 409, error: `${sub.planName} is already cancelled.` };
  const { endDay, voided } = endDayOf(state, today);
  switch (change) {
    case "cancel": {
      if (sub.status === "incomplete" || sub.status === "suspended") {
        const all = state.periods.filter((p) => isUnpaidOrOverdue(p.invoiceStatus));
        return {
          ok: true,
          preview: {
            ...base,
            heading: `Cancel ${sub.planName}`,
            lines: [
              sub.status === "incomplete"
                ? `${sub.planName} has not started: it is cancelled now.`
                : `${sub.planName} is suspended: it is cancelled now and does not renew.`,
              ...all.map((p) => `${capital(invoiceLine(p))} is voided: nothing is due on it.`),
            ],
            confirmLabel: "Cancel the plan now",
            asksReason: true,
            shown: `now:${all.map((p) => p.invoiceId).join(",")}`,
          },
        };
      }
      if (sub.cancelAtPeriodEnd) {
        return {
          ok: false,
          status: 409,
          error: `${sub.planName} already ends on ${formatCalendarDay(sub.endsOn ?? endDay)}.`,
        };
      }
      const end = endDay;
      return {
        ok: true,
        preview: {
          ...base,
          heading: `Cancel ${sub.planName} at the end of its period`,
          lines: [
            `${sub.planName} stays active until ${formatCalendarDay(end)} and is not renewed after that.`,
            ...voided.map((p) => `The renewal ${invoiceLine(p)} is voided: nothing is charged for it.`),
            ...unpaid.map((p) => `${capital(invoiceLine(p))} is still due.`),
            `You can resume the plan until ${formatCalendarDay(end)}.`,
          ],
          confirmLabel: "Cancel at period end",
          asksReason: true,
          shown: `end:${end}:${voided.map((p) => p.invoiceId).join(",")}`,
        },
      };
    }
    case "resume": {
      if (!sub.cancelAtPeriodEnd || (sub.endsOn ?? endDay) <= today) {
        return {
          ok: false,
          status: 409,
          error: `${sub.planName} is not set to end, so there is nothing to resume.`,
        };
      }
      const next = subscriptionPeriod(sub, sub.nextPeriodIndex);
      const issueDay = subscriptionIssueDay(sub, sub.nextPeriodIndex, ctx.noticeDays);
      const amount = periodAmount(sub.priceUsd, sub.currency, ctx);
      return {
        ok: true,
        preview: {
          ...base,
          heading: `Resume ${sub.planName}`,
          lines: [
            `${sub.planName} renews on ${formatCalendarDay(next.startsOn)} for ${amount} (at that day's rate), then each ${unitWord(cycle)}.`,
            issueDay <= today
              ? `Its renewal invoice is issued today and charged to ${cardText(sub)} on ${formatCalendarDay(next.startsOn)}.`
              : `Its renewal invoice is emailed on ${formatCalendarDay(issueDay)} and charged to ${cardText(sub)} on ${formatCalendarDay(next.startsOn)}.`,
          ],
          confirmLabel: "Resume the plan",
          shown: `resume:${next.startsOn}:${sub.priceUsd}`,
        },
      };
    }
    case "cycle": {
      if (sub.status !== "active" && sub.status !== "past_due") {
        return { ok: false, status: 409, error: `${sub.planName} can change its cycle once it is active.` };
      }
      if (sub.cancelAtPeriodEnd) {
        return {
          ok: false,
          status: 409,
          error: `${sub.planName} ends on ${formatCalendarDay(sub.endsOn ?? endDay)}: resume it first.`,
        };
      }
      const from = subscriptionPeriod(sub, sub.nextPeriodIndex).startsOn;
      if (sub.nextCycle) {
        return {
          ok: true,
          preview: {
            ...base,
            heading: `Keep ${sub.planName} ${cycleWord(cycle)}`,
            lines: [
              `The switch to ${cycleWord(sub.nextCycle as PlanCycle)} from ${formatCalendarDay(from)} is called off.`,
              `${sub.planName} keeps renewing each ${unitWord(cycle)} for ${periodAmount(sub.priceUsd, sub.currency, ctx)} (at each renewal's rate).`,
            ],
            confirmLabel: `Keep ${cycleWord(cycle)}`,
            shown: `keep:${cycle}`,
          },
        };
      }
      const to = otherCycle(cycle);
      const priceUsd = state.otherCyclePriceUsd;
      if (priceUsd === null)
        return { ok: false, status: 409, error: `${sub.planName} is not sold ${cycleWord(to)}.` };
      const issued = state.periods.filter((p) => p.startsOn > today && p.invoiceStatus !== "void");
      return {
        ok: true,
        preview: {
          ...base,
          heading: `Switch ${sub.planName} to ${cycleWord(to)}`,
          lines: [
            `From ${formatCalendarDay(from)}, ${sub.planName} renews each ${unitWord(to)} for ${periodAmount(priceUsd, sub.currency, ctx)} (${formatMoney(priceUsd, "USD")} at that day's rate) instead of each ${unitWord(cycle)} for ${periodAmount(sub.priceUsd, sub.currency, ctx)}.`,
            ...issued.map(
              (p) => `The renewal already invoiced, ${invoiceLine(p)}, stays ${cycleWord(cycle)}.`,
            ),
            `Nothing changes before ${formatCalendarDay(from)}. Its first ${cycleWord(to)} invoice is emailed ${ctx.noticeDays} days before that day.`,
          ],
          confirmLabel: `Switch to ${cycleWord(to)}`,
          shown: `switch:${to}:${from}:${priceUsd}`,
        },
      };
    }
    case "card": {
      if (sub.status === "incomplete") {
        return {
          ok: false,
          status: 409,
          error: `${sub.planName} has not started: the card you pay its first invoice with is saved.`,
        };
      }
      const due = unpaid[0] ?? null;
      // The next charge: a renewal already invoiced and unpaid, else the next one to invoice.
      const nextRenewal =
        sub.cancelAtPeriodEnd || sub.status === "suspended"
          ? null
          : (state.periods.find((p) => p.startsOn > today && isUnpaidOrOverdue(p.invoiceStatus))?.startsOn ??
            subscriptionPeriod(sub, sub.nextPeriodIndex).startsOn);
      return {
        ok: true,
        preview: {
          ...base,
          heading: `A new card for ${sub.planName}`,
          lines: [
            "You enter the card on the payment provider's page. Nothing is charged now.",
            `It replaces ${cardText(sub)}${nextRenewal ? ` from the renewal on ${formatCalendarDay(nextRenewal)}` : ""}.`,
            ...(due
              ? [
                  `${capital(invoiceLine(due))} is unpaid: paying it with the new card saves the card too, in one step.`,
                ]
              : []),
          ],
          confirmLabel: "Continue to the card form",
          payInvoice: due
            ? { id: due.invoiceId, number: due.invoiceNumber, amount: formatMoney(due.total, due.currency) }
            : null,
          shown: "card",
        },
      };
    }
  }
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The preview of a change to the client's own plan, outside any transaction (the confirmation page). */
export async function planChangePreview(
  db: Database,
  clientId: string,
  id: string,
  change: PlanChange,
  ctx: ChangeContext,
): Promise<PreviewOutcome> {
  const state = await planState(db, clientId, id, false);
  return state ? previewChange(state, change, ctx) : NOT_FOUND;
}

export interface PlanChangeDeps {
  db: Database;
  actor: Actor;
  config: Pick<Config, "business" | "publicUrl">;
  wakeOutbox: () => void;
}

export type ConfirmOutcome =
  | { ok: true; message: string }
  | { ok: false; status: number; error: string; preview?: PlanChangePreview };

/**
 * Makes a previewed change (not the card: that is a checkout, cards.server.ts). In one transaction with
 * the plan's row locked: the preview is made again and must match what the client saw.
 */
export async function confirmPlanChange(
  deps: PlanChangeDeps,
  clientId: string,
  id: string,
  change: Exclude<PlanChange, "card">,
  form: { reason?: string; shown: string },
  ctx: ChangeContext,
): Promise<ConfirmOutcome> {
  const outcome = await deps.db.transaction(async (tx): Promise<ConfirmOutcome> => {
    const state = await planState(tx, clientId, id, true);
    if (!state) return NOT_FOUND;
    const decided = previewChange(state, change, ctx);
    if (!decided.ok) return decided;
    if (decided.preview.shown !== form.shown) {
      return {
        ok: false,
        status: 409,
        error: "The plan changed since this page was opened. Please read the change again before confirming.",
        preview: decided.preview,
      };
    }
    const done = await applyChange(tx, deps.actor, state, change, form.reason?.trim() || null, ctx);
    // The client's copy of what was done, in the words the preview used.
    if (done.ok) await emailPlanClient(tx, deps.config, state.sub, done.message, decided.preview.lines);
    return done;
  });
  if (outcome.ok) deps.wakeOutbox();
  return outcome;
}

async function applyChange(
  tx: Tx,
  actor: Actor,
  { sub, periods }: PlanState,
  change: Exclude<PlanChange, "card">,
  reason: string | null,
  ctx: ChangeContext,
): Promise<ConfirmOutcome> {
  const today = calendarDayOf(ctx.now);
  const audit = (action: string, after: Record<string, unknown>) =>
    recordAudit(tx, actor, {
      action,
      entity: "plan_subscription",
      entityId: sub.id,
      before: { status: sub.status, cycle: sub.cycle, cancelAtPeriodEnd: sub.cancelAtPeriodEnd },
      after: { planName: sub.planName, ...after },
    });
  const set = (values: Partial<PlanSubscription>) =>
    tx.update(planSubscriptions).set(values).where(eq(planSubscriptions.id, sub.id));
  if (change === "cancel" && (sub.status === "incomplete" || sub.status === "suspended")) {
    await voidPeriods(
      tx,
      actor,
      periods.filter((p) => isUnpaidOrOverdue(p.invoiceStatus)),
      false,
    );
    await set({ status: "cancelled", cancelledAt: ctx.now, cancelReason: reason, cancelAtPeriodEnd: false });
    await audit("subscription.cancel", { status: "cancelled", reason });
    await tellOwners(tx, sub, `${sub.planName} was cancelled by the client${reason ? `: “${reason}”` : "."}`);
    return { ok: true, message: `${sub.planName} is cancelled.` };
  }
  if (change === "cancel") {
    const { endDay, voided } = endDayOf({ sub, periods }, today);
    // The voided renewals' periods are issued again if the plan is resumed (a new invoice, a new number).
    await voidPeriods(tx, actor, voided, true);
    const firstVoided = voided[0]?.index;
    await set({
      cancelAtPeriodEnd: true,
      cancelReason: reason,
      endsOn: endDay,
      nextCycle: null,
      nextPriceUsd: null,
      ...(firstVoided !== undefined ? { nextPeriodIndex: firstVoided } : {}),
    });
    const end = formatCalendarDay(endDay);
    await audit("subscription.cancel", { cancelAtPeriodEnd: true, endsOn: endDay, reason });
    await tellOwners(
      tx,
      sub,
      `${sub.planName} ends on ${end}: the client cancelled it${reason ? ` (“${reason}”)` : ""}.`,
    );
    return { ok: true, message: `${sub.planName} ends on ${end}. You can resume it until then.` };
  }
  if (change === "resume") {
    await set({ cancelAtPeriodEnd: false, cancelReason: null, endsOn: null });
    await audit("subscription.resume", { cancelAtPeriodEnd: false });
    await tellOwners(tx, sub, `${sub.planName} was resumed by the client: it renews again.`);
    const next = subscriptionPeriod(sub, sub.nextPeriodIndex).startsOn;
    return { ok: true, message: `${sub.planName} renews on ${formatCalendarDay(next)}.` };
  }
  // The cycle: a switch from the first period not yet invoiced, or the switch called off.
  if (sub.nextCycle) {
    await set({ nextCycle: null, nextPriceUsd: null });
    await audit("subscription.cycle", { nextCycle: null });
    return { ok: true, message: `${sub.planName} stays ${cycleWord(sub.cycle as PlanCycle)}.` };
  }
  const [plan] = await tx
    .select({ monthly: carePlans.monthlyPriceUsd, yearly: carePlans.yearlyPriceUsd })
    .from(carePlans)
    .where(eq(carePlans.id, sub.planId))
    .limit(1);
  const to = otherCycle(sub.cycle as PlanCycle);
  const priceUsd = to === "yearly" ? plan?.yearly : plan?.monthly;
  if (priceUsd === null || priceUsd === undefined)
    return { ok: false, status: 409, error: `${sub.planName} is not sold ${to}.` };
  const from = subscriptionPeriod(sub, sub.nextPeriodIndex).startsOn;
  await set({ nextCycle: to, nextPriceUsd: priceUsd });
  await audit("subscription.cycle", { nextCycle: to, from, priceUsd });
  await tellOwners(tx, sub, `${sub.planName} switches to ${to} from ${formatCalendarDay(from)}.`);
  return { ok: true, message: `${sub.planName} switches to ${to} from ${formatCalendarDay(from)}.` };
}

/** Voids the periods' unpaid invoices (their orders cancelled); renewals not begun lose their period row. */
async function voidPeriods(tx: Tx, actor: Actor, periods: PeriodRow[], forgetPeriods: boolean) {
  for (const p of periods) {
    const locked = await lockOrder(tx, p.orderId);
    if (locked && locked.order.status === "pending") await cancelOrder(tx, actor, locked);
    if (forgetPeriods) await tx.delete(planPeriods).where(eq(planPeriods.id, p.id));
  }
}

async function emailPlanClient(
  tx: Tx,
  config: PlanChangeDeps["config"],
  sub: PlanSubscription,
  message: string,
  lines: string[],
) {
  const [c] = await tx
    .select({ name: clients.name, email: clients.email })
    .from(clients)
    .where(eq(clients.id, sub.clientId))
    .limit(1);
  if (!c) return;
  await enqueueEmail(tx, {
    kind: "plan-change",
    to: mailbox(c.email, c.name),
    ...noticeEmail({
      business: config.business,
      publicUrl: config.publicUrl,
      subject: message,
      greetingName: c.name,
      lines,
      link: { path: "/client/plans", label: "See your care plans" },
    }),
  });
}

async function tellOwners(tx: Tx, sub: PlanSubscription, message: string) {
  await notifyOwners(tx, {
    title: "Care plan changed",
    message,
    type: "info",
    href: `/admin/clients/${sub.clientId}`,
  });
}
