/**
 * The order list of both audiences, one function with a scope (`listOrders`, features/lists/scope.ts):
 * - one client's orders as the portal lists them (client-portal.md, Orders and Dashboard): cards and
 *   counts from `client_totals`, one page of rows read in order off the (client_id, [status,]
 *   created_at, id) indexes, so a page costs the same few queries, and about the same time, for 10
 *   orders or 10,000 (docs/decisions/0801-portal-pages-flat-with-data.md);
 * - every client's orders as the back office lists them: with the client's name and email and the
 *   invoice's number, a count per status (one grouped count, which the chips show and the paging
 *   reads), a search over clients and invoice numbers too. A paid or in-progress order whose client
 *   has not sent the brief is marked "Brief missing".
 * Both read a page from the nearer end of the list (`pageWindow`).
 */

import { and, asc, count, desc, eq, inArray, isNull, type Placeholder, type SQL, sql } from "drizzle-orm";
import { type Database, preparedOnce } from "~/db/client.server";
import { clients, invoices, type OrderStatus, orderStatuses, orders } from "~/db/schema";
import { UNPAID_INVOICE_STATUSES } from "~/features/invoices/invoice-status";
import { firstInvoiceOf } from "~/features/invoices/invoice-status.server";
import { type MoneyFigures, moneyFigures } from "~/features/invoices/money-totals";
import { moneyTotalsOfClient } from "~/features/invoices/money-totals.server";
import { loadClientTotals } from "~/features/lists/client-totals.server";
import {
  type ListQuery,
  type OrderFilter,
  type Paged,
  type PageInfo,
  pageInfo,
} from "~/features/lists/listing";
import { type AllClients, isAllClients, type ListScope, type OneClient } from "~/features/lists/scope";
import { countMatches, ilikeContains, readPage } from "~/features/lists/search.server";
import { BRIEF_MISSING } from "./brief";
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
  /** A quote's order with only its deposit paid (`orderStatusLabel`). */
  depositPaid: boolean;
}

/**
 * The orders page's cards (issue 37, item 14): every order is in exactly one of pending (awaiting
 * payment), active (paid or in progress), completed and cancelled, so they add up to totalOrders.
 */
export interface OrderSummary {
  totalOrders: number;
  pending: number;
  /** Paid or in progress: the page calls it "Paid or In Progress" (the dashboard's Active Orders adds pending). */
  active: number;
  completed: number;
  cancelled: number;
  /**
   * "Total Spent": the one money truth (invoices/money-totals.ts), in USD, what was paid net of
   * refunds, the same figure as the dashboard's and the invoices page's (README, deviations).
   */
  money: MoneyFigures;
}

/**
 * The SQL twin of `depositProgress`'s badge (issue 37, item 2), for lists: a quote's order whose deposit
 * is paid and whose balance is not, which every list calls "Deposit paid" as the order page does, not
 * "Paid" (`orderStatusLabel`, order-status.ts). Use it in a query over `orders`.
 */
const depositPaidSql: SQL<boolean> = sql<boolean>`(exists (select 1 from ${invoices} d where d.order_id = ${orders.id} and d.kind = 'deposit' and d.status = 'paid') and not exists (select 1 from ${invoices} b where b.order_id = ${orders.id} and b.kind = 'balance' and b.status = 'paid'))`;

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
  depositPaid: depositPaidSql,
};

type RawOrderRow = Omit<OrderRow, "createdAt"> & { createdAt: Date };
const toRow = (r: RawOrderRow): OrderRow => ({ ...r, createdAt: r.createdAt.toISOString() });

/**
 * The ids of a page of orders, newest first (`reverse`: oldest first): a walk of the (client_id, …,
 * created_at, id) index, so a deep page skips index entries, not joined rows. `joined`: the condition
 * reads the client and the invoice too (the back office's search).
 */
function pageIdsQuery(
  db: Database,
  where: SQL | undefined,
  limit: number | Placeholder,
  offset: number | Placeholder,
  reverse: boolean,
  joined = false,
) {
  const dir = reverse ? asc : desc;
  let ids = db.select({ id: orders.id }).from(orders).$dynamic();
  if (joined)
    ids = ids
      .leftJoin(clients, eq(clients.id, orders.clientId))
      .leftJoin(invoices, firstInvoiceOf(orders.id));
  return ids.where(where).orderBy(dir(orders.createdAt), dir(orders.id)).limit(limit).offset(offset);
}

/** Newest orders first, with their invoice (if any); `reverse` reads oldest first instead. */
function orderRowsQuery(
  db: Database,
  where: SQL | undefined,
  limit: number | Placeholder,
  offset: number | Placeholder,
  reverse: boolean,
) {
  const dir = reverse ? asc : desc;
  const pageIds = pageIdsQuery(db, where, limit, offset, reverse);
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

/**
 * A client's selected orders, newest first (`reverse`: oldest first); in the list's order again
 * unless `inOrder` is false (readPage puts them back).
 */
async function orderRows(
  db: Database,
  selection: OrderSelection,
  limit: number,
  offset = 0,
  reverse = false,
  inOrder = true,
): Promise<OrderRow[]> {
  const { clientId, status, search } = selection;
  const rows = search
    ? await orderRowsQuery(db, selected(selection), limit, offset, reverse)
    : await pageStatement(status !== undefined, reverse)(db).execute({ clientId, status, limit, offset });
  const out = rows.map(toRow);
  return reverse && inOrder ? out.reverse() : out;
}

export interface OrdersPage {
  rows: OrderRow[];
  summary: OrderSummary;
  paging: PageInfo;
}

/**
 * The list of orders a scope may see: one client's (the portal's orders page) or every client's (the
 * back office's orders page, and a client's page in it through `clientId`).
 */
export function listOrders(
  db: Database,
  scope: OneClient,
  query: ListQuery<OrderFilter>,
): Promise<OrdersPage>;
export function listOrders(
  db: Database,
  scope: AllClients,
  query: BackOfficeOrderQuery,
): Promise<BackOfficeOrdersPage>;
export function listOrders(
  db: Database,
  scope: ListScope,
  query: ListQuery<OrderFilter> | BackOfficeOrderQuery,
): Promise<OrdersPage | BackOfficeOrdersPage> {
  return isAllClients(scope)
    ? listEveryClientsOrders(db, query as BackOfficeOrderQuery)
    : listClientOrders(db, scope.clientId, query as ListQuery<OrderFilter>);
}

/**
 * The orders page: summary cards and the filter's count from `client_totals`, one page of the matching
 * orders; a search adds one count of its matches, bounded. Two queries (three with a search).
 */
async function listClientOrders(
  db: Database,
  clientId: string,
  query: ListQuery<OrderFilter>,
): Promise<OrdersPage> {
  const selection: OrderSelection = {
    clientId,
    status: query.status === "all" ? undefined : query.status,
    search: orderSearch(query.q),
  };
  const clientTotals = await loadClientTotals(db, clientId);
  const { orders: totals } = clientTotals;
  const paging = selection.search
    ? await countMatches(db, orders, selected(selection), query.page)
    : pageInfo(query.page, query.status === "all" ? totals.all() : totals.count(query.status));
  const rows = await readPage(paging, ({ limit, offset, reverse }) =>
    orderRows(db, selection, limit, offset, reverse, false),
  );
  return {
    rows,
    paging,
    summary: {
      totalOrders: totals.all(),
      pending: totals.count("pending"),
      active: totals.count("paid", "in_progress"),
      completed: totals.count("completed"),
      cancelled: totals.count("cancelled"),
      money: moneyFigures(moneyTotalsOfClient(clientTotals)),
    },
  };
}

export interface DashboardData {
  stats: {
    /** "an active order is any not completed or cancelled" */
    activeOrders: number;
    /**
     * "Total Spent" and the invoices' outstanding: the one money truth (invoices/money-totals.ts), in
     * USD: what was paid net of refunds, not the orders' whole amounts (README, deviations).
     */
    money: MoneyFigures;
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

/** The dashboard's cards (from `client_totals` and the credit notes) and recent orders: two queries. */
export async function dashboardData(db: Database, clientId: string): Promise<DashboardData> {
  const [totals, recentOrders] = await Promise.all([
    loadClientTotals(db, clientId),
    orderRows(db, { clientId }, DASHBOARD_RECENT_FETCHED),
  ]);
  return {
    stats: {
      activeOrders: totals.orders.count(...OPEN_ORDER_STATUSES),
      money: moneyFigures(moneyTotalsOfClient(totals)),
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

/** The back office's query: any order status, and on a client's page that client only. */
export interface BackOfficeOrderQuery extends ListQuery<OrderStatus | "all"> {
  clientId?: string;
}

/** An order as the back office lists it. */
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
  /** A quote's order with only its deposit paid (`orderStatusLabel`). */
  depositPaid: boolean;
  /** One period of a care plan (ADR 0531): a sale, listed, but no work to start. */
  carePlan: boolean;
}

export interface BackOfficeOrdersPage extends Paged<OrderListRow> {
  /** Orders matching the search, in all and per status (the chips). */
  counts: Record<string, number>;
}

const backOfficeColumns = {
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
  depositPaid: depositPaidSql,
  carePlan: sql<boolean>`${orders.planSubscriptionId} is not null`,
};

/** The back office's search: the client's name or email, the service, the invoice number, or the id. */
function backOfficeSearch(q: string): SQL | undefined {
  if (!q) return undefined;
  return sql`(${ilikeContains(clients.name, q)} or ${ilikeContains(clients.email, q)} or ${ilikeContains(orders.serviceName, q)} or ${ilikeContains(invoices.invoiceNumber, q)} or ${orders.id}::text = ${q.toLowerCase()})`;
}

/**
 * Every client's orders (or one client's, on their page in the back office): one grouped count gives
 * the total of the current filter and every status chip, then the page's rows, read from the nearer
 * end. A page past the last one is empty, as the back office has always shown it.
 */
async function listEveryClientsOrders(
  db: Database,
  query: BackOfficeOrderQuery,
): Promise<BackOfficeOrdersPage> {
  const matching = and(
    backOfficeSearch(query.q),
    query.clientId === undefined ? undefined : eq(orders.clientId, query.clientId),
  );
  const countRows = await db
    .select({ status: orders.status, n: count() })
    .from(orders)
    .leftJoin(clients, eq(clients.id, orders.clientId))
    .leftJoin(invoices, firstInvoiceOf(orders.id))
    .where(matching)
    .groupBy(orders.status);
  const counts: Record<string, number> = { all: 0 };
  for (const s of orderStatuses) counts[s] = 0;
  for (const r of countRows) {
    counts[r.status] = r.n;
    counts.all = (counts.all ?? 0) + r.n;
  }
  const total = counts[query.status] ?? 0;
  const where = and(matching, query.status === "all" ? undefined : eq(orders.status, query.status));
  const rows = await readPage(
    pageInfo(query.page, total),
    ({ limit, offset, reverse }) => {
      const dir = reverse ? asc : desc;
      return db
        .select(backOfficeColumns)
        .from(orders)
        .leftJoin(clients, eq(clients.id, orders.clientId))
        .leftJoin(invoices, firstInvoiceOf(orders.id))
        .where(inArray(orders.id, pageIdsQuery(db, where, limit, offset, reverse, true)))
        .orderBy(dir(orders.createdAt), dir(orders.id));
    },
    query.page,
  );
  return {
    rows: rows.map((r) => ({ ...r, briefBadge: r.briefMissing ? BRIEF_MISSING : null })),
    total,
    page: query.page,
    counts,
  };
}

/**
 * Open orders (not completed or cancelled) of every client by status, for the back office's dashboard:
 * the work to do, so a care plan's periods (sales with nothing to start; ADR 0531) are not counted.
 */
export async function openOrdersByStatus(db: Database): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: orders.status, n: count() })
    .from(orders)
    .where(and(inArray(orders.status, [...OPEN_ORDER_STATUSES]), isNull(orders.planSubscriptionId)))
    .groupBy(orders.status);
  const out: Record<string, number> = Object.fromEntries(OPEN_ORDER_STATUSES.map((s) => [s, 0]));
  for (const r of rows) out[r.status] = r.n;
  return out;
}
