/**
 * Incidents covered by a care plan (issue 38, item 6; ADR 0531, "Covered incidents"). A client whose plan
 * is active or past due, in a period whose invoice is paid and whose `incidents_used` is below the
 * plan's allowance, orders per-incident support with "Covered by your plan" instead of paying: an order
 * at zero with no invoice (nothing is sold; no number of the gap-free series is used), paid at once so
 * the owner can work on it, naming the period that covers it, and that period's count raised by one,
 * all in one transaction.
 *
 * The server decides: the form only asks for coverage (which period, by id); the guarded UPDATE checks
 * every rule again (the client's own plan, its status, the period current and paid, an incident left)
 * and counts the incident in one statement, so two orders at once never exceed the allowance.
 *
 * A past-due plan's current period is the one whose invoice failed to be charged: unpaid, it covers
 * nothing until it is paid (by the retry, the client's card update or a bank transfer), and then at once.
 */
import { and, desc, eq, gt, inArray, lte, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Config } from "~/config.server";
import type { Database, Tx } from "~/db/client.server";
import { type Client, invoices, type Order, orders, planPeriods, planSubscriptions } from "~/db/schema";
import { defaultPackage, offeredPackages } from "~/features/catalogue/catalogue";
import { isUuid } from "~/features/ids/ids";
import { enqueueEmail, mailbox } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import { NOTIFICATIONS } from "~/features/notifications/messages";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { createCoveredOrder } from "~/features/orders/create-order.server";
import { SERVICE_NOT_FOUND } from "~/features/orders/messages";
import { adminOrderPath, clientOrderPath, notifyOwners } from "~/features/orders/order-access.server";
import { findPurchasableService, newCheckoutToken } from "~/features/orders/orders.server";
import { BUSINESS_TIME_ZONE, formatMoment } from "~/ui/format";
import {
  COVERED_MESSAGES,
  COVERED_SERVICE_SLUG,
  type CoveredIncidentChoice,
  type CoveredIncidentOffer,
  incidentsLeftText,
} from "./covered-incidents";
import { type CalendarDay, calendarDayOf, formatCalendarDay } from "./periods";

/** The plan states whose benefits run (ADR 0531): suspended, cancelled and incomplete plans cover nothing. */
export const COVERING_PLAN_STATUSES = ["active", "past_due"] as const;

/** The covered form as posted: which period to count against and the form's token; never a price. */
export const coveredIncidentForm = z.object({
  intent: z.literal("covered"),
  checkoutToken: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/, { message: "The order form expired. Please reload." }),
  periodId: z.string().max(64, { message: COVERED_MESSAGES.periodNotFound }),
});

/**
 * The rule of a covering period, over `plan_periods` (correlated): the client's own plan in a covering
 * state, the period running on `today` (starts_on ≤ today < ends_on), its invoice paid, and an incident
 * left. The offer reads with it and the order's guarded UPDATE counts with it: one rule, one place.
 */
function coversNow(clientId: string, today: CalendarDay): SQL {
  return and(
    lte(planPeriods.startsOn, today),
    gt(planPeriods.endsOn, today),
    sql`exists (${sqlSelectOne(
      and(
        eq(planSubscriptions.id, planPeriods.subscriptionId),
        eq(planSubscriptions.clientId, clientId),
        inArray(planSubscriptions.status, [...COVERING_PLAN_STATUSES]),
        sql`${planPeriods.incidentsUsed} < ${planSubscriptions.incidentAllowance}`,
      )!,
      planSubscriptions,
    )})`,
    sql`exists (${sqlSelectOne(
      and(eq(invoices.id, planPeriods.invoiceId), eq(invoices.status, "paid"))!,
      invoices,
    )})`,
  )!;
}

/** `select 1 from {table} where {where}`, for a correlated EXISTS. */
function sqlSelectOne(where: SQL, table: typeof planSubscriptions | typeof invoices): SQL {
  return sql`select 1 from ${table} where ${where}`;
}

/**
 * The periods that cover an incident for this client now, newest plan first, as the purchase page of
 * per-incident support offers them (empty for every other service). Reads only.
 */
export async function coveredIncidentOffers(
  db: Database,
  clientId: string,
  serviceSlug: string,
  now: Date = new Date(),
): Promise<CoveredIncidentOffer[]> {
  if (serviceSlug !== COVERED_SERVICE_SLUG) return [];
  const rows = await db
    .select({
      periodId: planPeriods.id,
      planName: planSubscriptions.planName,
      allowance: planSubscriptions.incidentAllowance,
      used: planPeriods.incidentsUsed,
      startsOn: planPeriods.startsOn,
      endsOn: planPeriods.endsOn,
    })
    .from(planPeriods)
    .innerJoin(planSubscriptions, eq(planSubscriptions.id, planPeriods.subscriptionId))
    .where(and(eq(planSubscriptions.clientId, clientId), coversNow(clientId, calendarDayOf(now))))
    .orderBy(desc(planSubscriptions.createdAt));
  return rows.map((r) => ({
    periodId: r.periodId,
    planName: r.planName,
    allowance: r.allowance,
    left: r.allowance - r.used,
    period: `${formatCalendarDay(r.startsOn)} to ${formatCalendarDay(r.endsOn)}`,
  }));
}

/** The purchase page's covered choice, or null when no plan of the client covers this service now. */
export async function coveredIncidentChoice(
  db: Database,
  clientId: string,
  serviceSlug: string,
  now: Date = new Date(),
): Promise<CoveredIncidentChoice | null> {
  const offers = await coveredIncidentOffers(db, clientId, serviceSlug, now);
  return offers.length ? { offers, checkoutToken: newCheckoutToken() } : null;
}

export interface CoveredIncidentDeps {
  db: Database;
  config: Pick<Config, "business" | "publicUrl">;
  /** Called after the order committed, so this process's outbox sends the client's email at once. */
  wakeOutbox?: () => void;
}

export type CoveredIncidentOutcome =
  | { ok: true; orderId: string; redirectTo: string }
  | { ok: false; status: 400 | 404 | 409; error: string };

/** A repeated post of the same form: its transaction made nothing. */
class RepeatedForm extends Error {}

/**
 * Orders one incident of per-incident support against a period of the client's plan. 404 for a period
 * that is not the client's (or not an id), 409 when it covers nothing now (with the reason), 400 for
 * another service; the same form posted again leads to the order it made.
 */
export async function orderCoveredIncident(
  deps: CoveredIncidentDeps,
  input: {
    client: Pick<Client, "id" | "name" | "email">;
    serviceRouteId: string;
    periodId: string;
    checkoutToken: string;
    now?: Date;
  },
): Promise<CoveredIncidentOutcome> {
  const { db } = deps;
  const now = input.now ?? new Date();
  const repeat = await orderOfToken(db, input.client.id, input.checkoutToken);
  if (repeat) return madeOutcome(repeat);
  const service = await findPurchasableService(db, input.serviceRouteId);
  if (!service) return { ok: false, status: 404, error: SERVICE_NOT_FOUND(input.serviceRouteId) };
  if (service.slug !== COVERED_SERVICE_SLUG) {
    return { ok: false, status: 400, error: COVERED_MESSAGES.notCoveredService };
  }
  if (!isUuid(input.periodId)) return { ok: false, status: 404, error: COVERED_MESSAGES.periodNotFound };
  const periodId = input.periodId.toLowerCase();
  const today = calendarDayOf(now);
  const packageKey = defaultPackage(service);
  let made: Pick<Order, "id"> | null;
  try {
    made = await db.transaction(async (tx) => {
      // The guard: every rule checked again and the incident counted in one statement. A second order
      // at once waits for this row and is checked again against the count this one leaves.
      const [counted] = await tx
        .update(planPeriods)
        .set({ incidentsUsed: sql`${planPeriods.incidentsUsed} + 1` })
        .where(and(eq(planPeriods.id, periodId), coversNow(input.client.id, today)))
        .returning({
          id: planPeriods.id,
          subscriptionId: planPeriods.subscriptionId,
          used: planPeriods.incidentsUsed,
          startsOn: planPeriods.startsOn,
          endsOn: planPeriods.endsOn,
        });
      if (!counted) return null;
      const [plan] = await tx
        .select({ name: planSubscriptions.planName, allowance: planSubscriptions.incidentAllowance })
        .from(planSubscriptions)
        .where(eq(planSubscriptions.id, counted.subscriptionId));
      const order = await createCoveredOrder(tx, {
        order: {
          clientId: input.client.id,
          serviceId: service.id,
          serviceName: service.name,
          serviceCategory: service.category,
          package: packageKey,
          packageName: offeredPackages(service).find((p) => p.key === packageKey)?.name ?? packageKey,
          quantity: 1,
          checkoutToken: input.checkoutToken,
          coveredByPeriodId: counted.id,
        },
        now,
      });
      // The same form's first post made the order (they ran at once): undo this count, lead to that one.
      if (!order) throw new RepeatedForm();
      await tellOfCoveredOrder(tx, deps, {
        order,
        client: input.client,
        planName: plan!.name,
        left: incidentsLeftText(plan!.allowance - counted.used, plan!.allowance),
        period: `${formatCalendarDay(counted.startsOn)} to ${formatCalendarDay(counted.endsOn)}`,
        now,
      });
      return order;
    });
  } catch (error) {
    if (!(error instanceof RepeatedForm)) throw error;
    made = await orderOfToken(db, input.client.id, input.checkoutToken);
  }
  if (made) {
    deps.wakeOutbox?.();
    return madeOutcome(made);
  }
  // Nothing counted: the same form may have been used a moment ago, else say why the plan covers nothing.
  const again = await orderOfToken(db, input.client.id, input.checkoutToken);
  if (again) return madeOutcome(again);
  return whyNotCovered(db, input.client.id, periodId, today);
}

function madeOutcome(order: Pick<Order, "id">): CoveredIncidentOutcome {
  return { ok: true, orderId: order.id, redirectTo: clientOrderPath(order.id) };
}

async function orderOfToken(db: Database, clientId: string, checkoutToken: string) {
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.clientId, clientId), eq(orders.checkoutToken, checkoutToken)))
    .limit(1);
  return order ?? null;
}

const STATE_WORDS: Record<string, string> = {
  incomplete: "not started yet",
  suspended: "suspended until its invoice is paid",
  cancelled: "cancelled",
};

/** The reason a period covered nothing, read after the guard refused (404 when it is not the client's). */
async function whyNotCovered(
  db: Database,
  clientId: string,
  periodId: string,
  today: CalendarDay,
): Promise<CoveredIncidentOutcome & { ok: false }> {
  const [row] = await db
    .select({
      planName: planSubscriptions.planName,
      status: planSubscriptions.status,
      startsOn: planPeriods.startsOn,
      endsOn: planPeriods.endsOn,
      invoiceStatus: invoices.status,
    })
    .from(planPeriods)
    .innerJoin(planSubscriptions, eq(planSubscriptions.id, planPeriods.subscriptionId))
    .innerJoin(invoices, eq(invoices.id, planPeriods.invoiceId))
    .where(and(eq(planPeriods.id, periodId), eq(planSubscriptions.clientId, clientId)))
    .limit(1);
  if (!row) return { ok: false, status: 404, error: COVERED_MESSAGES.periodNotFound };
  const covering: readonly string[] = COVERING_PLAN_STATUSES;
  if (!covering.includes(row.status)) {
    const state = STATE_WORDS[row.status] ?? row.status;
    return { ok: false, status: 409, error: COVERED_MESSAGES.notCovering(row.planName, state) };
  }
  if (!(row.startsOn <= today && today < row.endsOn)) {
    return { ok: false, status: 409, error: COVERED_MESSAGES.periodOver(row.planName) };
  }
  if (row.invoiceStatus !== "paid") {
    return { ok: false, status: 409, error: COVERED_MESSAGES.unpaid(row.planName) };
  }
  return { ok: false, status: 409, error: COVERED_MESSAGES.noneLeft };
}

/**
 * What a new paid order raises, for an order nothing was paid for (no "Payment Received"): the client's
 * notice and email that the order is placed and covered (with the way to its brief), and the owner's
 * notice of a new order to work on. In the order's transaction.
 */
async function tellOfCoveredOrder(
  tx: Tx,
  deps: CoveredIncidentDeps,
  input: {
    order: Order;
    client: Pick<Client, "name" | "email">;
    planName: string;
    left: string;
    period: string;
    now: Date;
  },
): Promise<void> {
  const { order, client, planName } = input;
  const what = `${order.serviceName} (${order.packageName})`;
  await raiseNotification(tx, order.clientId, {
    ...NOTIFICATIONS.orderCovered(order.serviceName, planName),
    href: clientOrderPath(order.id),
  });
  await notifyOwners(tx, {
    ...NOTIFICATIONS.newCoveredOrder(
      client.name,
      what,
      planName,
      formatMoment(input.now, BUSINESS_TIME_ZONE),
    ),
    href: adminOrderPath(order.id),
  });
  const { business, publicUrl } = deps.config;
  // Like a paid order's receipt, the confirmation of what was ordered is always sent.
  await enqueueEmail(tx, {
    kind: "order-covered",
    to: mailbox(client.email, client.name),
    ...noticeEmail({
      business,
      publicUrl,
      subject: `Order placed: ${order.serviceName}, covered by ${planName}`,
      greetingName: client.name,
      lines: [
        `Your order for ${what} is covered by your ${planName} plan: there is nothing to pay.`,
        `${input.left} (${input.period}).`,
        "Tell us what is wrong on the order's page, so we can start at once.",
      ],
      link: { path: clientOrderPath(order.id), label: "Open your order" },
    }),
  });
}
