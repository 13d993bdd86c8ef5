/**
 * Orders in the back office: the list (search, status filter, SQL paging), one order with its history,
 * the dashboard's open orders. A paid or in-progress order whose client has not sent the brief is
 * marked "Brief missing" in the lists. Moving an order through its life cycle is the order's own
 * (orders/order-lifecycle.server.ts).
 */

import { and, count, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog, clients, invoices, type OrderStatus, orderStatuses, orders } from "~/db/schema";
import { firstInvoiceOf } from "~/features/invoices/invoice-status.server";
import { BRIEF_MISSING } from "~/features/orders/brief";
import { briefMissingSql } from "~/features/orders/brief.server";
import { OPEN_ORDER_STATUSES } from "~/features/orders/order-status";
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
  /** Paid or in progress, and the client has not sent the brief the service asks for. */
  briefMissing: boolean;
  /** "Brief missing" then, else null. */
  briefBadge: string | null;
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
  briefMissing: briefMissingSql,
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
      .leftJoin(invoices, firstInvoiceOf(orders.id));
  const [rows, countRows] = await Promise.all([
    base().where(where).orderBy(desc(orders.createdAt), desc(orders.id)).limit(limit).offset(offset),
    // One grouped count gives the total of the current filter and every status chip.
    db
      .select({ status: orders.status, n: count() })
      .from(orders)
      .leftJoin(clients, eq(clients.id, orders.clientId))
      .leftJoin(invoices, firstInvoiceOf(orders.id))
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
    rows: rows.map((r) => ({
      ...(r as Omit<OrderListRow, "briefBadge">),
      briefBadge: r.briefMissing ? BRIEF_MISSING : null,
    })),
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
    .leftJoin(invoices, firstInvoiceOf(orders.id))
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

/** Open orders (not completed or cancelled) by status, for the dashboard. */
export async function openOrdersByStatus(db: Database): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: orders.status, n: count() })
    .from(orders)
    .where(inArray(orders.status, [...OPEN_ORDER_STATUSES]))
    .groupBy(orders.status);
  const out: Record<string, number> = Object.fromEntries(OPEN_ORDER_STATUSES.map((s) => [s, 0]));
  for (const r of rows) out[r.status] = r.n;
  return out;
}
