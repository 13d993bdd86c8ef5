/**
 * A client's orders as the portal lists them (client-portal.md, Orders and Dashboard): cards and counts
 * from `client_totals`, one page of rows read in order off the (client_id, [status,] created_at, id)
 * indexes, so a page costs the same few queries, and about the same time, for 10 orders or 10,000
 * (docs/decisions/0801-portal-pages-flat-with-data.md).
 */

import { and, asc, desc, eq, inArray, type Placeholder, type SQL, sql } from "drizzle-orm";
import { type Database, preparedOnce } from "~/db/client.server";
import { invoices, orders } from "~/db/schema";
import { UNPAID_INVOICE_STATUSES } from "~/features/invoices/invoice-status";
import { firstInvoiceOf } from "~/features/invoices/invoice-status.server";
import { loadClientTotals } from "~/features/lists/client-totals.server";
import {
  type ListQuery,
  type OrderFilter,
  type PageInfo,
  pageInfo,
  pageWindow,
} from "~/features/lists/listing";
import { countMatches, ilikeContains } from "~/features/lists/search.server";
import { briefMissingSql } from "./brief.server";
import { OPEN_ORDER_STATUSES } from "./order-status";

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
  /** Paid or in progress, and the client has not answered the service's questions yet (ADR 0512). */
  briefMissing: boolean;
}

export interface OrderSummary {
  totalOrders: number;
  completed: number;
  pending: number;
  /** "Total Spent (of completed orders)", in USD (orders in any currency), net of refunds. */
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
  briefMissing: briefMissingSql,
};

type RawOrderRow = Omit<OrderRow, "createdAt"> & { createdAt: Date };
const toRow = (r: RawOrderRow): OrderRow => ({ ...r, createdAt: r.createdAt.toISOString() });

/** Newest orders first, with their invoice (if any); `reverse` reads oldest first instead. */
function orderRowsQuery(
  db: Database,
  where: SQL | undefined,
  limit: number | Placeholder,
  offset: number | Placeholder,
  reverse: boolean,
) {
  const dir = reverse ? asc : desc;
  // The page's ids first (a walk of the (client_id, …, created_at, id) index), then their rows and
  // invoices: a deep page skips index entries, not joined rows.
  const pageIds = db
    .select({ id: orders.id })
    .from(orders)
    .where(where)
    .orderBy(dir(orders.createdAt), dir(orders.id))
    .limit(limit)
    .offset(offset);
  return db
    .select(rowColumns)
    .from(orders)
    .leftJoin(invoices, firstInvoiceOf(orders.id))
    .where(inArray(orders.id, pageIds))
    .orderBy(dir(orders.createdAt), dir(orders.id));
}

/**
 * A page of rows without a search (the lists, with or without a status, from either end, and the
 * dashboard): prepared once per database, as every signed-in client's list page reads one (ADR 0820).
 */
const pageStatements = new Map<string, (db: Database) => ReturnType<typeof preparePage>>();

function preparePage(db: Database, name: string, byStatus: boolean, reverse: boolean) {
  const mine = eq(orders.clientId, sql.placeholder("clientId"));
  const status = byStatus ? eq(orders.status, sql.placeholder("status")) : undefined;
  return orderRowsQuery(
    db,
    and(mine, status),
    sql.placeholder("limit"),
    sql.placeholder("offset"),
    reverse,
  ).prepare(name);
}

function pageStatement(byStatus: boolean, reverse: boolean) {
  const name = `client_order_rows${byStatus ? "_by_status" : ""}${reverse ? "_oldest_first" : ""}`;
  let statement = pageStatements.get(name);
  if (!statement) {
    statement = preparedOnce((db) => preparePage(db, name, byStatus, reverse));
    pageStatements.set(name, statement);
  }
  return statement;
}

/** Which of a client's orders: all, or of one status; matching a search or not. */
interface OrderSelection {
  clientId: string;
  status?: Exclude<OrderFilter, "all">;
  search?: SQL;
}

const selected = ({ clientId, status, search }: OrderSelection) =>
  and(eq(orders.clientId, clientId), status === undefined ? undefined : eq(orders.status, status), search);

/** A client's selected orders, newest first (`reverse`: oldest first). */
async function orderRows(
  db: Database,
  selection: OrderSelection,
  limit: number,
  offset = 0,
  reverse = false,
): Promise<OrderRow[]> {
  const { clientId, status, search } = selection;
  const rows = search
    ? await orderRowsQuery(db, selected(selection), limit, offset, reverse)
    : await pageStatement(status !== undefined, reverse)(db).execute({ clientId, status, limit, offset });
  const out = rows.map(toRow);
  return reverse ? out.reverse() : out;
}

export interface OrdersPage {
  rows: OrderRow[];
  summary: OrderSummary;
  paging: PageInfo;
}

/**
 * The orders page: summary cards and the filter's count from `client_totals`, one page of the matching
 * orders; a search adds one count of its matches, bounded. Two queries (three with a search).
 */
export async function listClientOrders(
  db: Database,
  clientId: string,
  query: ListQuery<OrderFilter>,
): Promise<OrdersPage> {
  const selection: OrderSelection = {
    clientId,
    status: query.status === "all" ? undefined : query.status,
    search: orderSearch(query.q),
  };
  const { orders: totals } = await loadClientTotals(db, clientId);
  const paging = selection.search
    ? await countMatches(db, orders, selected(selection), query.page)
    : pageInfo(query.page, query.status === "all" ? totals.all() : totals.count(query.status));
  const { offset, limit, reverse } = pageWindow(paging);
  const rows = paging.total ? await orderRows(db, selection, limit, offset, reverse) : [];
  return {
    rows,
    paging,
    summary: {
      totalOrders: totals.all(),
      completed: totals.count("completed"),
      pending: totals.count("pending"),
      totalSpentUsd: totals.amount("completed"),
    },
  };
}

export interface DashboardData {
  stats: {
    /** "an active order is any not completed or cancelled" */
    activeOrders: number;
    /**
     * "Total Spent counts paid or completed orders", in USD, net of refunds (a fully refunded order is
     * cancelled, so not counted).
     */
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

/** The dashboard's cards (from `client_totals`) and recent orders: two queries. */
export async function dashboardData(db: Database, clientId: string): Promise<DashboardData> {
  const [totals, recentOrders] = await Promise.all([
    loadClientTotals(db, clientId),
    orderRows(db, { clientId }, DASHBOARD_RECENT_FETCHED),
  ]);
  return {
    stats: {
      activeOrders: totals.orders.count(...OPEN_ORDER_STATUSES),
      totalSpentUsd: totals.orders.amount("paid", "completed"),
      completed: totals.orders.count("completed"),
      invoices: totals.invoices.all(),
      pendingInvoices: totals.invoices.count(...UNPAID_INVOICE_STATUSES),
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
  return orderRows(db, { clientId, search: orderSearch(q) }, limit);
}
