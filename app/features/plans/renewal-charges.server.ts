/**
 * Charging care plans' renewal invoices on their due day, and what follows a decline (issue 38, item 4;
 * ADR 0531). The decisions are `nextDunningStep`'s (dunning.ts); this module carries them out.
 *
 * At most one charge per attempt: the attempt's row (unique per period and attempt) is written before the
 * provider is asked, with the idempotency key `renewalChargeKey`. A run that crashes or loses the answer
 * leaves the row pending, and the next run asks again with the same key: the provider answers the same
 * charge instead of making another. A payment is recorded as a webhook's would be (processPaymentEvent,
 * with an event id made from the key), so its webhook arriving too changes nothing.
 */
import { and, asc, eq, inArray, isNotNull, lte } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  type Invoice,
  invoices,
  type PlanChargeOutcome,
  planChargeAttempts,
  planPeriods,
  planSubscriptions,
} from "~/db/schema";
import { emailInvoiceClient } from "~/features/invoices/invoice-email.server";
import { formatMoney } from "~/features/money/format";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { notifyOwners } from "~/features/orders/order-access.server";
import {
  isProviderName,
  PaymentProviderError,
  type ProviderName,
  type SavedCardChargeResult,
  type SavedCardProvider,
} from "~/features/payments/provider";
import { processPaymentEvent, type WebhookDeps } from "~/features/payments/webhooks.server";
import { type ChargeAttempt, classifyDecline, nextDunningStep, renewalChargeKey } from "./dunning";
import { calendarDayOf, formatCalendarDay } from "./periods";
import { cardBrandName } from "./renewals.server";

/** The charging job's name (and its lease's). */
export const RENEWAL_CHARGES_JOB = "plan-renewal-charges";

export interface RenewalChargeDeps extends WebhookDeps {
  /** The provider holding a subscription's card; null when it is not configured. */
  provider: (name: ProviderName) => SavedCardProvider | null;
}

export type RenewalChargeResult =
  | { periodId: string; did: "charged"; attempt: number; outcome: PlanChargeOutcome }
  | { periodId: string; did: "suspended" }
  | { periodId: string; did: "provider-error"; attempt: number; message: string };

/** The renewal periods whose invoice is unpaid and due by `today`, on a plan that has a card to charge. */
async function unpaidDuePeriods(db: Database, today: string, clientId?: string) {
  return db
    .select({ period: planPeriods, invoice: invoices, subscription: planSubscriptions })
    .from(planPeriods)
    .innerJoin(invoices, eq(invoices.id, planPeriods.invoiceId))
    .innerJoin(planSubscriptions, eq(planSubscriptions.id, planPeriods.subscriptionId))
    .where(
      and(
        inArray(invoices.status, ["sent", "overdue"]),
        lte(planPeriods.startsOn, today),
        inArray(planSubscriptions.status, ["active", "past_due"]),
        isNotNull(planSubscriptions.paymentMethodId),
        clientId ? eq(planSubscriptions.clientId, clientId) : undefined,
      ),
    )
    .orderBy(asc(planPeriods.startsOn));
}

/** The charging job's run: every unpaid renewal that is due, one after another. */
export async function chargeDueRenewals(
  deps: RenewalChargeDeps,
  now: Date,
  stopping: () => boolean = () => false,
  /** Only this client's plans (a browser journey's hook); every plan when absent. */
  clientId?: string,
): Promise<RenewalChargeResult[]> {
  const today = calendarDayOf(now);
  const results: RenewalChargeResult[] = [];
  for (const row of await unpaidDuePeriods(deps.db, today, clientId)) {
    if (stopping()) break;
    const result = await chargePeriod(deps, row, now);
    if (result) results.push(result);
  }
  return results;
}

type DueRow = Awaited<ReturnType<typeof unpaidDuePeriods>>[number];

async function chargePeriod(
  deps: RenewalChargeDeps,
  row: DueRow,
  now: Date,
): Promise<RenewalChargeResult | null> {
  const { period, invoice, subscription: sub } = row;
  const attempts = await deps.db
    .select()
    .from(planChargeAttempts)
    .where(eq(planChargeAttempts.periodId, period.id))
    .orderBy(asc(planChargeAttempts.attempt));
  // A charge the provider has accepted and not settled: its webhook (or the sweep) ends it.
  if (attempts.some((a) => a.outcome === "processing")) return null;
  // A charge whose answer never came back (a crash, a lost connection): asked again, same key.
  const unanswered = attempts.find((a) => a.outcome === "pending");
  let attempt: number;
  if (unanswered) {
    attempt = unanswered.attempt;
  } else {
    const made: ChargeAttempt[] = attempts.map((a) => ({
      attempt: a.attempt,
      outcome: a.outcome as ChargeAttempt["outcome"],
    }));
    const step = nextDunningStep(period.startsOn, made, calendarDayOf(now));
    if (step.kind === "suspend") return suspend(deps, row, now);
    if (step.kind !== "charge") return null;
    attempt = step.attempt;
    const [claimed] = await deps.db
      .insert(planChargeAttempts)
      .values({
        periodId: period.id,
        attempt,
        idempotencyKey: renewalChargeKey(sub.id, period.periodIndex, attempt),
      })
      .onConflictDoNothing()
      .returning({ id: planChargeAttempts.id });
    // Another process claimed this attempt first: it makes the charge.
    if (!claimed) return null;
  }
  const key = renewalChargeKey(sub.id, period.periodIndex, attempt);
  const provider = isProviderName(sub.provider) ? deps.provider(sub.provider) : null;
  if (!provider || !sub.providerCustomerId || !sub.paymentMethodId) {
    return {
      periodId: period.id,
      did: "provider-error",
      attempt,
      message: "the plan's provider is not configured",
    };
  }
  let answer: SavedCardChargeResult;
  try {
    answer = await provider.chargeSavedCard({
      customerId: sub.providerCustomerId,
      paymentMethodId: sub.paymentMethodId,
      orderId: period.orderId,
      invoiceId: invoice.id,
      invoiceNumber: invoice.invoiceNumber,
      description: `${sub.planName}: ${formatCalendarDay(period.startsOn)} to ${formatCalendarDay(period.endsOn)}`,
      amount: invoice.totalAmount,
      currency: invoice.currency,
      idempotencyKey: key,
    });
  } catch (error) {
    // Left pending: the next run asks again with the same key.
    deps.logger.warn({ err: error, periodId: period.id, attempt }, "renewal charge: the provider failed");
    const message = error instanceof PaymentProviderError ? error.message : String(error);
    return { periodId: period.id, did: "provider-error", attempt, message };
  }
  const outcome = await recordAnswer(deps, row, attempt, key, answer, now);
  return { periodId: period.id, did: "charged", attempt, outcome };
}

async function recordAnswer(
  deps: RenewalChargeDeps,
  { period, invoice, subscription: sub }: DueRow,
  attempt: number,
  key: string,
  answer: SavedCardChargeResult,
  now: Date,
): Promise<PlanChargeOutcome> {
  const where = and(eq(planChargeAttempts.periodId, period.id), eq(planChargeAttempts.attempt, attempt));
  if (answer.status === "succeeded" || answer.status === "processing") {
    if (answer.status === "succeeded") {
      await processPaymentEvent(deps, {
        provider: sub.provider as ProviderName,
        eventId: `renewal-charge:${key}`,
        type: "renewal.charged",
        kind: "paid",
        orderId: period.orderId,
        invoiceId: invoice.id,
        amount: invoice.totalAmount,
        currency: invoice.currency,
        reference: answer.paymentReference,
        payload: { key, paymentReference: answer.paymentReference },
      });
    }
    await deps.db.transaction(async (tx) => {
      await tx
        .update(planChargeAttempts)
        .set({ outcome: answer.status, paymentReference: answer.paymentReference })
        .where(where);
      if (answer.status === "succeeded" && sub.status === "past_due") {
        await tx
          .update(planSubscriptions)
          .set({ status: "active", pastDueSince: null })
          .where(eq(planSubscriptions.id, sub.id));
      }
    });
    return answer.status;
  }
  const kind = classifyDecline(answer.decline);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(planChargeAttempts)
      .set({
        outcome: kind,
        code: answer.decline.code ?? null,
        declineCode: answer.decline.declineCode ?? null,
        adviceCode: answer.decline.adviceCode ?? null,
        message: answer.message,
        paymentReference: answer.paymentReference,
      })
      .where(where);
    await tx
      .update(planSubscriptions)
      .set({ status: "past_due", pastDueSince: sub.pastDueSince ?? now })
      .where(eq(planSubscriptions.id, sub.id));
    const text = declinedNotice(sub, invoice, kind, attempt);
    await raiseNotification(tx, sub.clientId, { ...text, href: `/client/invoice/${invoice.id}` });
    await emailInvoiceClient(tx, deps, invoice, {
      kind: "plan-charge-failed",
      subject: `${sub.planName}: the payment for invoice ${invoice.invoiceNumber} did not go through`,
      lines: [text.message, declineAdvice(kind)],
      linkLabel: "Pay with a new card",
    });
    await notifyOwners(tx, {
      title: "Renewal payment failed",
      message: `${sub.planName}: invoice ${invoice.invoiceNumber} (${formatMoney(invoice.totalAmount, invoice.currency)}) was declined (${answer.decline.declineCode ?? answer.decline.code ?? "declined"}).`,
      type: "warning",
      href: `/admin/invoices/${invoice.id}`,
    });
  });
  deps.wakeOutbox();
  return kind;
}

function declinedNotice(
  sub: DueRow["subscription"],
  invoice: Invoice,
  kind: "soft" | "hard" | "authentication",
  attempt: number,
) {
  const card = sub.cardLast4 ? `Your ${cardBrandName(sub.cardBrand)} ending ${sub.cardLast4}` : "Your card";
  const amount = formatMoney(invoice.totalAmount, invoice.currency);
  return {
    title: "Payment failed",
    message: `${card} was declined for invoice ${invoice.invoiceNumber} (${amount}, ${sub.planName}).${
      kind === "soft" && attempt < 3 ? " We will try again in a few days." : ""
    }`,
    type: "warning" as const,
  };
}

function declineAdvice(kind: "soft" | "hard" | "authentication"): string {
  if (kind === "authentication") {
    return "Your bank asks you to confirm this payment yourself: open the invoice and pay it with your card.";
  }
  if (kind === "hard") {
    return "This card cannot be charged again: pay the invoice with another card, which is then saved for the renewals; otherwise the plan is suspended 7 days after its due date.";
  }
  return "You can pay the invoice now with another card, which is then saved for the renewals; otherwise we try again on days 1, 3 and 7 after the due date.";
}

/** Unpaid 7 days after its due date, out of attempts: the plan's benefits stop until it is paid. */
async function suspend(deps: RenewalChargeDeps, { period, invoice, subscription: sub }: DueRow, now: Date) {
  const suspended = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(planSubscriptions)
      .set({ status: "suspended", suspendedAt: now })
      .where(and(eq(planSubscriptions.id, sub.id), inArray(planSubscriptions.status, ["active", "past_due"])))
      .returning({ id: planSubscriptions.id });
    if (!row) return false;
    const amount = formatMoney(invoice.totalAmount, invoice.currency);
    await raiseNotification(tx, sub.clientId, {
      title: "Plan suspended",
      message: `${sub.planName} is suspended: invoice ${invoice.invoiceNumber} (${amount}) is unpaid. Paying it restarts the plan.`,
      type: "warning",
      href: `/client/invoice/${invoice.id}`,
    });
    await emailInvoiceClient(tx, deps, invoice, {
      kind: "plan-suspended",
      linkLabel: "Pay the invoice",
      subject: `${sub.planName} is suspended`,
      lines: [
        `Invoice ${invoice.invoiceNumber} (${amount}) for ${formatCalendarDay(period.startsOn)} to ${formatCalendarDay(period.endsOn)} is still unpaid, so ${sub.planName} is suspended.`,
        "Paying the invoice restarts the plan at once.",
      ],
    });
    await notifyOwners(tx, {
      title: "Plan suspended",
      message: `${sub.planName} is suspended: invoice ${invoice.invoiceNumber} (${amount}) is unpaid 7 days after its due date.`,
      type: "warning",
      href: `/admin/invoices/${invoice.id}`,
    });
    return true;
  });
  if (!suspended) return null;
  deps.wakeOutbox();
  return { periodId: period.id, did: "suspended" as const };
}
