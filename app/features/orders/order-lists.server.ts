/**
 * A client's orders as the portal lists them (client-portal.md, Orders and Dashboard): searching,
 * filtering, counting and totals in SQL over the (client_id, …) indexes, one page of rows at a time,
 * so the page costs the same few queries for 10 orders or 10,000.
 */
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, orders } from "~/db/schema";
import {
  type ListQuery,
  type OrderFilter,
  PAGE_SIZE,
  type PageInfo,
  pageInfo,
} from "~/features/portal/listing";
import { ilikeContains } from "~/features/portal/search.server";

export interface OrderRow {
  id: string;
  serviceName: string;
  serviceCategory: string;
  package: string;
  packageName: string;
  quantity: number;
  currency: string;
  amountInCurrency: number;
  amountUsd: number;
  status: string;
  createdAt: string;
  invoiceId: string | null;
}

export interface OrderSummary {
  totalOrders: number;
  completed: number;
  pending: number;
  /** "Total Spent (of completed orders)", in USD (orders may be in different currencies). */
  totalSpentUsd: number;
}

function orderSearch(q: string): SQL | undefined {
  if (!q) return undefined;
  return sql`(${ilikeContains(orders.serviceName, q)} or ${ilikeContains(orders.package, q)} or ${ilikeContains(orders.packageName, q)})`;
}

const rowColumns = {
  id: orders.id,
  serviceName: orders.serviceName,
  serviceCategory: orders.serviceCategory,
  package: orders.package,
  packageName: orders.packageName,
  quantity: orders.quantity,
  currency: orders.currency,
  amountInCurrency: orders.amountInCurrency,
  amountUsd: orders.amountUsd,
  status: orders.status,
  createdAt: orders.createdAt,
  invoiceId: invoices.id,
};

type RawOrderRow = Omit<OrderRow, "createdAt"> & { createdAt: Date };
const toRow = (r: RawOrderRow): OrderRow => ({ ...r, createdAt: r.createdAt.toISOString() });

/** Newest orders of a client, with their invoice (if any). */
async function orderRows(
  db: Database,
  where: SQL | undefined,
  limit: number,
  offset = 0,
): Promise<OrderRow[]> {
  const rows = await db
    .select(rowColumns)
    .from(orders)
    .leftJoin(invoices, eq(invoices.orderId, orders.id))
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit)
    .offset(offset);
  return rows.map(toRow);
}

export interface OrdersPage {
  rows: OrderRow[];
  summary: OrderSummary;
  paging: PageInfo;
}

/** The orders page: summary cards over all orders, one page of the matching ones. Two queries. */
export async function listClientOrders(
  db: Database,
  clientId: string,
  query: ListQuery<OrderFilter>,
): Promise<OrdersPage> {
  const mine = eq(orders.clientId, clientId);
  const match = and(
    query.status === "all" ? undefined : eq(orders.status, query.status),
    orderSearch(query.q),
  );
  const [stats] = await db
    .select({
      totalOrders: sql<number>`count(*)::int`,
      completed: sql<number>`(count(*) filter (where ${orders.status} = 'completed'))::int`,
      pending: sql<number>`(count(*) filter (where ${orders.status} = 'pending'))::int`,
      totalSpentUsd: sql<string>`coalesce(sum(${orders.amountUsd}) filter (where ${orders.status} = 'completed'), 0)`,
      matching: match ? sql<number>`(count(*) filter (where ${match}))::int` : sql<number>`count(*)::int`,
    })
    .from(orders)
    .where(mine);
  const paging = pageInfo(query.page, stats?.matching ?? 0);
  const rows = paging.total
    ? await orderRows(db, and(mine, match), PAGE_SIZE, (paging.page - 1) * PAGE_SIZE)
    : [];
  return {
    rows,
    paging,
    summary: {
      totalOrders: stats?.totalOrders ?? 0,
      completed: stats?.completed ?? 0,
      pending: stats?.pending ?? 0,
      totalSpentUsd: Number(stats?.totalSpentUsd ?? 0),
    },
  };
}

export interface DashboardData {
  stats: {
    /** "an active order is any not completed or cancelled" */
    activeOrders: number;
    /** "Total Spent counts paid or completed orders", in USD. */
    totalSpentUsd: number;
    completed: number;
    invoices: number;
    /** Invoices not yet paid (sent or overdue). */
    pendingInvoices: number;
  };
  /** "Dashboard fetches 5 recent orders and shows 3." */
  recentOrders: OrderRow[];
}

/** "Dashboard fetches 5 recent orders" */
export const DASHBOARD_RECENT_FETCHED = 5;

/** The dashboard's cards and recent orders: two queries. */
export async function dashboardData(db: Database, clientId: string): Promise<DashboardData> {
  const [stats] = await db
    .select({
      activeOrders: sql<number>`(count(*) filter (where ${orders.status} not in ('completed', 'cancelled')))::int`,
      totalSpentUsd: sql<string>`coalesce(sum(${orders.amountUsd}) filter (where ${orders.status} in ('paid', 'completed')), 0)`,
      completed: sql<number>`(count(*) filter (where ${orders.status} = 'completed'))::int`,
      invoices: sql<number>`(select count(*)::int from ${invoices} where ${invoices.clientId} = ${clientId})`,
      pendingInvoices: sql<number>`(select count(*)::int from ${invoices} where ${invoices.clientId} = ${clientId} and ${invoices.status} in ('sent', 'overdue'))`,
    })
    .from(orders)
    .where(eq(orders.clientId, clientId));
  const recentOrders = await orderRows(db, eq(orders.clientId, clientId), DASHBOARD_RECENT_FETCHED);
  return {
    stats: {
      activeOrders: stats?.activeOrders ?? 0,
      totalSpentUsd: Number(stats?.totalSpentUsd ?? 0),
      completed: stats?.completed ?? 0,
      invoices: Number(stats?.invoices ?? 0),
      pendingInvoices: Number(stats?.pendingInvoices ?? 0),
    },
    recentOrders,
  };
}

/** The header search: a client's orders whose service or package matches, newest first. */
export async function searchClientOrders(
  db: Database,
  clientId: string,
  q: string,
  limit: number,
): Promise<OrderRow[]> {
  return orderRows(db, and(eq(orders.clientId, clientId), orderSearch(q)), limit);
}
