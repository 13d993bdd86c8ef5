/**
 * Orders in the back office: the list (search, status filter, SQL paging), one order, and moving an
 * order through its life cycle. Every change happens in one transaction with its notifications, live
 * events, the client's email and the audit row, so none exists without the others.
 */
import { and, count, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import {
  auditLog,
  clients,
  type Invoice,
  invoices,
  type Order,
  type OrderStatus,
  orderStatuses,
  orders,
} from "~/db/schema";
// Emails write money as the portal's pages do (the page's formatter), not as the back office's tables.
import { type ChangeDeps, type ChangeResult, recordAudit } from "~/features/audit/audit.server";
import { formatMoney } from "~/features/currency/currency";
import { isUnpaidOrOverdue } from "~/features/invoices/invoice-status";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { enqueueEmail } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import { NOTIFICATIONS } from "~/features/notifications/messages";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { canTransition, ORDER_STATUS_LABELS } from "~/features/orders/order-status";
import { recordPayment } from "~/features/orders/payment.server";
import { escapeLike } from "./audit.server";
import { type Paged, pageOffset } from "./paging";

export interface OrderListRow {
  id: string;
  createdAt: Date;
  status: OrderStatus;
  serviceName: string;
  packageName: string;
  quantity: number;
  amountUsd: number;
  currency: string;
  amountInCurrency: number;
  clientId: string;
  clientName: string | null;
  clientEmail: string | null;
  invoiceId: string | null;
  invoiceNumber: string | null;
}

const orderListColumns = {
  id: orders.id,
  createdAt: orders.createdAt,
  status: orders.status,
  serviceName: orders.serviceName,
  packageName: orders.packageName,
  quantity: orders.quantity,
  amountUsd: orders.amountUsd,
  currency: orders.currency,
  amountInCurrency: orders.amountInCurrency,
  clientId: orders.clientId,
  clientName: clients.name,
  clientEmail: clients.email,
  invoiceId: invoices.id,
  invoiceNumber: invoices.invoiceNumber,
};

export function orderSearch(q: string) {
  if (!q) return undefined;
  const like = `%${escapeLike(q)}%`;
  return or(
    ilike(clients.name, like),
    ilike(clients.email, like),
    ilike(orders.serviceName, like),
    ilike(invoices.invoiceNumber, like),
    sql`${orders.id}::text = ${q.toLowerCase()}`,
  );
}

export async function listOrders(
  db: Database,
  filter: { q: string; status: OrderStatus | null; clientId?: string; page: number },
): Promise<Paged<OrderListRow> & { counts: Record<string, number> }> {
  const search = orderSearch(filter.q);
  const scope = filter.clientId ? eq(orders.clientId, filter.clientId) : undefined;
  const where = and(search, scope, filter.status ? eq(orders.status, filter.status) : undefined);
  const { limit, offset } = pageOffset(filter.page);
  const base = () =>
    db
      .select(orderListColumns)
      .from(orders)
      .leftJoin(clients, eq(clients.id, orders.clientId))
      .leftJoin(invoices, eq(invoices.orderId, orders.id));
  const [rows, countRows] = await Promise.all([
    base().where(where).orderBy(desc(orders.createdAt), desc(orders.id)).limit(limit).offset(offset),
    // One grouped count gives the total of the current filter and every status chip.
    db
      .select({ status: orders.status, n: count() })
      .from(orders)
      .leftJoin(clients, eq(clients.id, orders.clientId))
      .leftJoin(invoices, eq(invoices.orderId, orders.id))
      .where(and(search, scope))
      .groupBy(orders.status),
  ]);
  const counts: Record<string, number> = { all: 0 };
  for (const s of orderStatuses) counts[s] = 0;
  for (const r of countRows) {
    counts[r.status] = r.n;
    counts.all = (counts.all ?? 0) + r.n;
  }
  return {
    rows: rows as OrderListRow[],
    total: filter.status ? (counts[filter.status] ?? 0) : (counts.all ?? 0),
    page: filter.page,
    counts,
  };
}

export async function getOrderDetail(db: Database, id: string) {
  const [row] = await db
    .select({ order: orders, client: clients, invoice: invoices })
    .from(orders)
    .leftJoin(clients, eq(clients.id, orders.clientId))
    .leftJoin(invoices, eq(invoices.orderId, orders.id))
    .where(eq(orders.id, id))
    .limit(1);
  if (!row) return null;
  const history = await db
    .select()
    .from(auditLog)
    .where(
      or(
        and(eq(auditLog.entity, "order"), eq(auditLog.entityId, id)),
        row.invoice ? and(eq(auditLog.entity, "invoice"), eq(auditLog.entityId, row.invoice.id)) : undefined,
      ),
    )
    .orderBy(desc(auditLog.at))
    .limit(50);
  return { ...row, history };
}

async function clientContact(tx: Tx, clientId: string) {
  const [c] = await tx
    .select({ name: clients.name, email: clients.email })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  return c ?? null;
}

/**
 * Marks an order paid and its open invoice paid (by hand or by a transition): the same rule as a
 * provider's webhook (`recordPayment`). The caller holds the order's row lock and writes the audit rows.
 */
export function applyPayment(
  tx: Tx,
  order: Order,
  invoice: Invoice | null,
  payment: { provider: string; reference: string | null },
): Promise<{ order: Order; invoice: Invoice | null }> {
  return recordPayment(tx, order, invoice, payment);
}

const STATUS_EMAIL_LINES: Record<OrderStatus, (o: Order) => string[]> = {
  pending: () => [],
  paid: (o) => [
    NOTIFICATIONS.orderPaid.message,
    `We have received ${formatMoney(o.amountInCurrency, o.currency)} for ${o.serviceName} (${o.packageName}).`,
  ],
  in_progress: (o) => [`Work on your order for ${o.serviceName} (${o.packageName}) has started.`],
  completed: (o) => [NOTIFICATIONS.orderCompleted.message, `Your order for ${o.serviceName} is complete.`],
  cancelled: (o) => [
    NOTIFICATIONS.orderCancelled.message,
    `The order was for ${o.serviceName} (${o.packageName}).`,
  ],
};

/** Moves an order to its next status (or cancels it), with an optional note to the client. */
export async function transitionOrder(
  deps: ChangeDeps,
  orderId: string,
  to: OrderStatus,
  note: string | null,
): Promise<ChangeResult> {
  const { db, config, actor } = deps;
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update").limit(1);
    if (!order) return { ok: false, status: 404, error: "Order not found." };
    if (!canTransition(order.status, to)) {
      return {
        ok: false,
        status: 409,
        error: `An order that is ${ORDER_STATUS_LABELS[order.status].toLowerCase()} cannot become ${ORDER_STATUS_LABELS[to].toLowerCase()}.`,
      };
    }
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.orderId, orderId)).for("update");
    let invoiceAfter: Invoice | null = invoice ?? null;
    if (to === "paid") {
      ({ invoice: invoiceAfter } = await applyPayment(tx, order, invoice ?? null, {
        provider: "manual",
        reference: null,
      }));
    } else {
      await tx.update(orders).set({ status: to }).where(eq(orders.id, orderId));
      await publishLiveEvent(tx, { userId: order.clientId, kind: "order", entityId: order.id, status: to });
      if (to === "completed")
        await raiseNotification(tx, order.clientId, {
          ...NOTIFICATIONS.orderCompleted,
          href: "/client/orders",
        });
      if (to === "cancelled") {
        await raiseNotification(tx, order.clientId, {
          ...NOTIFICATIONS.orderCancelled,
          href: "/client/orders",
        });
        // Nothing is owed for a cancelled order: its unpaid invoice is voided (keeping its number).
        if (invoice && isUnpaidOrOverdue(invoice.status)) {
          const [voided] = await tx
            .update(invoices)
            .set({ status: "void" })
            .where(eq(invoices.id, invoice.id))
            .returning();
          invoiceAfter = voided!;
          await publishLiveEvent(tx, {
            userId: order.clientId,
            kind: "invoice",
            entityId: invoice.id,
            status: "void",
          });
          await recordAudit(tx, actor, {
            action: "invoice.void",
            entity: "invoice",
            entityId: invoice.id,
            before: { status: invoice.status },
            after: { status: "void", reason: "order cancelled" },
          });
        }
      }
    }
    if (to === "paid" && invoice && invoiceAfter?.status !== invoice.status) {
      await recordAudit(tx, actor, {
        action: "invoice.paid",
        entity: "invoice",
        entityId: invoice.id,
        before: { status: invoice.status },
        after: { status: "paid", via: "order marked paid" },
      });
    }
    await recordAudit(tx, actor, {
      action: "order.status",
      entity: "order",
      entityId: order.id,
      before: { status: order.status },
      after: { status: to, ...(note ? { note } : {}) },
    });
    const contact = await clientContact(tx, order.clientId);
    if (contact) {
      await enqueueEmail(tx, {
        kind: "order-status",
        to: contact.email,
        ...noticeEmail({
          business: config.business,
          publicUrl: config.publicUrl,
          subject: `Your order is ${ORDER_STATUS_LABELS[to].toLowerCase()}: ${order.serviceName}`,
          greetingName: contact.name,
          lines: STATUS_EMAIL_LINES[to](order),
          note,
          link: { path: "/client/orders", label: "See your orders" },
        }),
      });
    }
    return { ok: true, message: `The order is now ${ORDER_STATUS_LABELS[to].toLowerCase()}.` };
  });
}

/** Open orders (not completed or cancelled) by status, for the dashboard. */
export async function openOrdersByStatus(db: Database): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: orders.status, n: count() })
    .from(orders)
    .where(inArray(orders.status, ["pending", "paid", "in_progress"]))
    .groupBy(orders.status);
  const out: Record<string, number> = { pending: 0, paid: 0, in_progress: 0 };
  for (const r of rows) out[r.status] = r.n;
  return out;
}
