/**
 * An order's state changes (docs/decisions/0010-domains-not-audiences.md): one function per change,
 * each in the caller's transaction with the spec's notifications and live events, whoever asks (the
 * back office today; refunds and quotes next). Paid is `recordPayment` (payment.server.ts), shared with
 * the providers' webhooks. `transitionOrder` is the command a person gives: it checks the life cycle
 * (order-status.ts), applies the change, writes the audit rows and emails the client, in one transaction.
 */
import { asc, eq } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { clients, type Invoice, invoices, type Order, type OrderStatus, orders } from "~/db/schema";
import { clientWantsEmail } from "~/features/accounts/notification-preferences.server";
import { type Actor, type ChangeDeps, type ChangeResult, recordAudit } from "~/features/audit/audit.server";
// Emails write money as the portal's pages do (the page's formatter), not as the back office's tables.
import { voidUnpaidInvoice } from "~/features/invoices/invoice-lifecycle.server";
import { isUnpaidOrOverdue } from "~/features/invoices/invoice-status";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { enqueueEmail, mailbox } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import { formatMoney } from "~/features/money/format";
import { NOTIFICATIONS, ORDER_PAID_MESSAGE } from "~/features/notifications/messages";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { returnCoveredIncident } from "./covered-by.server";
import { type AfterSaleDeps, clientOrderPath } from "./order-access.server";
import { canTransition, ORDER_STATUS_LABELS } from "./order-status";
import { reachedAt } from "./order-timeline";
import { recordPayment } from "./payment.server";

/**
 * An order and its invoices, all locked FOR UPDATE by the caller's transaction. `invoice` is the one a
 * change of the order concerns: the open one if any (a quote's balance once it is issued), else the
 * first (a purchase's only invoice, a quote's deposit).
 */
export interface LockedOrder {
  order: Order;
  invoice: Invoice | null;
  invoices: Invoice[];
}

export async function lockOrder(tx: Tx, orderId: string): Promise<LockedOrder | null> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update").limit(1);
  if (!order) return null;
  const all = await tx
    .select()
    .from(invoices)
    .where(eq(invoices.orderId, orderId))
    .orderBy(asc(invoices.createdAt), asc(invoices.invoiceSeq))
    .for("update");
  const invoice = all.find((i) => isUnpaidOrOverdue(i.status)) ?? all[0] ?? null;
  return { order, invoice, invoices: all };
}

async function setOrderStatus(tx: Tx, order: Order, to: OrderStatus): Promise<void> {
  // The step's timestamp with it (the order page's timeline).
  await tx
    .update(orders)
    .set({ status: to, ...reachedAt(to, new Date()) })
    .where(eq(orders.id, order.id));
  await publishLiveEvent(tx, { userId: order.clientId, kind: "order", entityId: order.id, status: to });
}

/** pending → paid, by hand: the webhook's rule (recordPayment); the invoice it paid is audited. */
export async function payOrderByHand(tx: Tx, actor: Actor, { order, invoice }: LockedOrder): Promise<void> {
  const { invoice: after } = await recordPayment(tx, order, invoice, { provider: "manual", reference: null });
  if (invoice && after?.status !== invoice.status) {
    await recordAudit(tx, actor, {
      action: "invoice.paid",
      entity: "invoice",
      entityId: invoice.id,
      before: { status: invoice.status },
      after: { status: "paid", via: "order marked paid" },
    });
  }
}

/** paid → in_progress. */
export async function startOrderWork(tx: Tx, order: Order): Promise<void> {
  await setOrderStatus(tx, order, "in_progress");
}

/**
 * What a feature above orders adds to an order's completion, in the completing transaction: a quote's
 * order with a deposit gets its balance invoice (quotes/quote-balance.server.ts, issue "quotes"). Given
 * in the deps by whoever wires the change (features/admin/admin-order-page.server.ts), so orders never
 * import the features above them (ADR 0012).
 */
export type AfterOrderCompleted = (tx: Tx, order: Order) => Promise<unknown>;

/**
 * A change of an order's status: the audit's deps, the completion's step from above, if any, and what
 * follows a committed change (the outbox woken, a cancelled order's checkout expired: AfterSaleDeps').
 */
export interface OrderChangeDeps extends ChangeDeps, Pick<AfterSaleDeps, "wakeOutbox" | "expireCheckout"> {
  afterCompleted?: AfterOrderCompleted;
}

/** in_progress → completed: the client is notified; then the step the deps add (a quote's balance). */
export async function completeOrder(
  tx: Tx,
  order: Order,
  afterCompleted?: AfterOrderCompleted,
): Promise<void> {
  await setOrderStatus(tx, order, "completed");
  await raiseNotification(tx, order.clientId, {
    ...NOTIFICATIONS.orderCompleted,
    href: clientOrderPath(order.id),
  });
  await afterCompleted?.(tx, order);
}

/**
 * Any open order → cancelled: the client is notified, and nothing is owed any more, so its unpaid
 * invoice is voided (keeping its number); an incident a care plan covered is given back to its period.
 */
export async function cancelOrder(tx: Tx, actor: Actor, locked: LockedOrder): Promise<void> {
  const { order } = locked;
  await setOrderStatus(tx, order, "cancelled");
  await raiseNotification(tx, order.clientId, {
    ...NOTIFICATIONS.orderCancelled,
    href: clientOrderPath(order.id),
  });
  for (const invoice of locked.invoices ?? (locked.invoice ? [locked.invoice] : [])) {
    if (isUnpaidOrOverdue(invoice.status)) await voidUnpaidInvoice(tx, actor, invoice, "order cancelled");
  }
  // An incident a care plan covered goes back to the plan's allowance (issue 38, item 6).
  await returnCoveredIncident(tx, order);
}

const STATUS_EMAIL_LINES: Record<OrderStatus, (o: Order) => string[]> = {
  pending: () => [],
  paid: (o) => [
    ORDER_PAID_MESSAGE,
    `We have received ${formatMoney(o.amountInCurrency, o.currency)} for ${o.serviceName} (${o.packageName}).`,
  ],
  in_progress: (o) => [`Work on your order for ${o.serviceName} (${o.packageName}) has started.`],
  completed: (o) => [NOTIFICATIONS.orderCompleted.message, `Your order for ${o.serviceName} is complete.`],
  cancelled: (o) => [
    NOTIFICATIONS.orderCancelled.message,
    `The order was for ${o.serviceName} (${o.packageName}).`,
  ],
};

async function applyChange(
  tx: Tx,
  actor: Actor,
  locked: LockedOrder,
  to: OrderStatus,
  afterCompleted: AfterOrderCompleted | undefined,
): Promise<void> {
  switch (to) {
    case "paid":
      return payOrderByHand(tx, actor, locked);
    case "in_progress":
      return startOrderWork(tx, locked.order);
    case "completed":
      return completeOrder(tx, locked.order, afterCompleted);
    case "cancelled":
      return cancelOrder(tx, actor, locked);
    case "pending":
      // No transition leads back to pending (order-status.ts); canTransition has refused it.
      throw new Error("an order cannot become pending again");
  }
}

async function emailOrderClient(
  tx: Tx,
  deps: ChangeDeps,
  order: Order,
  to: OrderStatus,
  note: string | null,
) {
  const [contact] = await tx
    .select({ name: clients.name, email: clients.email })
    .from(clients)
    .where(eq(clients.id, order.clientId))
    .limit(1);
  if (!contact) return;
  // The client's Notifications switches (order updates, email notifications); the bell still rings.
  if (!(await clientWantsEmail(tx, order.clientId, "orderUpdate"))) return;
  await enqueueEmail(tx, {
    kind: "order-status",
    to: mailbox(contact.email, contact.name),
    ...noticeEmail({
      business: deps.config.business,
      publicUrl: deps.config.publicUrl,
      subject: `Your order is ${ORDER_STATUS_LABELS[to].toLowerCase()}: ${order.serviceName}`,
      greetingName: contact.name,
      lines: STATUS_EMAIL_LINES[to](order),
      note,
      link: { path: clientOrderPath(order.id), label: "Open your order" },
    }),
  });
}

/**
 * Moves an order to its next status (or cancels it), with an optional note to the client. Once it is
 * committed, the outbox is woken (the client's email) and a cancelled order that was never paid has
 * its checkout expired at its provider (it may still be open there).
 */
export async function transitionOrder(
  deps: OrderChangeDeps,
  orderId: string,
  to: OrderStatus,
  note: string | null,
): Promise<ChangeResult> {
  const done = await changeOrderStatus(deps, orderId, to, note);
  if (!done.ok) return done;
  deps.wakeOutbox?.();
  if (to === "cancelled" && deps.expireCheckout) {
    const [o] = await deps.db
      .select({ provider: orders.provider, reference: orders.providerReference, paidAt: orders.paidAt })
      .from(orders)
      .where(eq(orders.id, orderId));
    // An unpaid order's checkout may still be open; a paid one's is complete.
    if (o && !o.paidAt) deps.expireCheckout({ orderId, provider: o.provider, reference: o.reference });
  }
  return done;
}

/**
 * Why a care plan period's order has no status change (ADR 0531, "Owner's view"): nothing is to be
 * started or completed; its invoice is paid, refunded or voided on the invoice's page.
 */
export const PLAN_PERIOD_STATUS_FIXED =
  "This order is a period of a care plan: a sale, not a job, so its status is not changed by hand. Its invoice can be marked paid, refunded or voided on the invoice's page; the plan itself is under Care plans.";

/** The change itself, in one transaction: check, apply, audit, email. */
async function changeOrderStatus(
  deps: OrderChangeDeps,
  orderId: string,
  to: OrderStatus,
  note: string | null,
): Promise<ChangeResult> {
  const { db, actor } = deps;
  return db.transaction(async (tx) => {
    const locked = await lockOrder(tx, orderId);
    if (!locked) return { ok: false, status: 404, error: "Order not found." };
    const { order } = locked;
    // A care plan's period (ADR 0531) is a sale, not work: its status follows its invoice's payment.
    if (order.planSubscriptionId) return { ok: false, status: 409, error: PLAN_PERIOD_STATUS_FIXED };
    if (!canTransition(order.status, to)) {
      return {
        ok: false,
        status: 409,
        error: `An order that is ${ORDER_STATUS_LABELS[order.status].toLowerCase()} cannot become ${ORDER_STATUS_LABELS[to].toLowerCase()}.`,
      };
    }
    await applyChange(tx, actor, locked, to, deps.afterCompleted);
    await recordAudit(tx, actor, {
      action: "order.status",
      entity: "order",
      entityId: order.id,
      before: { status: order.status },
      after: { status: to, ...(note ? { note } : {}) },
    });
    await emailOrderClient(tx, deps, order, to, note);
    return { ok: true, message: `The order is now ${ORDER_STATUS_LABELS[to].toLowerCase()}.` };
  });
}
