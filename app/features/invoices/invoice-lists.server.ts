/**
 * The invoice list of both audiences, one function with a scope (`listInvoices`,
 * features/lists/scope.ts):
 * - one client's invoices as the portal lists them (client-portal.md, Invoices): totals and chip counts
 *   from `client_totals`, by the status each invoice is shown with (`shownInvoiceStatus`: an unpaid
 *   invoice past its due date is overdue, a paid one with refunds (partially) refunded), one page of
 *   rows read in order off the (client_id, [status,] created_at, invoice_number) indexes: two queries
 *   (three with a search) (docs/decisions/0801-portal-pages-flat-with-data.md);
 * - every client's invoices as the back office lists them: with the client's name and email, every
 *   chip's count in one pass, a search over clients too.
 * Both read a page from the nearer end of the list (`pageWindow`).
 */
import { and, asc, count, desc, eq, gt, inArray, lt, or, type Placeholder, type SQL, sql } from "drizzle-orm";
import { type Database, preparedOnce } from "~/db/client.server";
import { clients, clientTotals, creditNotes, invoices, orders } from "~/db/schema";
import { isUuid } from "~/features/ids/ids";
import { type StatusMove, statusTotalsOf } from "~/features/lists/client-totals.server";
import { type ListQuery, type Paged, type PageInfo, pageInfo } from "~/features/lists/listing";
import { type AllClients, isAllClients, type ListScope, type OneClient } from "~/features/lists/scope";
import { containsPattern, countMatches, ilikeContains, readPage } from "~/features/lists/search.server";
import type { ClientInvoiceFilter, InvoiceFilter } from "./invoice-filters";
import type { ShownInvoiceStatus } from "./invoice-status";
import {
  overdueInvoiceSql,
  shownInvoiceStatusSql,
  shownStatusIs,
  unpaidInvoiceSql,
} from "./invoice-status.server";
import { type MoneyFigures, moneyFigures } from "./money-totals";
import { moneyTotalsOfClient } from "./money-totals.server";

export interface InvoiceRow {
  id: string;
  invoiceNumber: string;
  /** What it bills of its order: all of it, or a quote's deposit or balance (labelled in the list). */
  kind: string;
  serviceName: string;
  status: string;
  currency: string;
  subtotal: number;
  taxAmount: number;
  totalAmount: number;
  /** What came back through refunds: the list shows "Refunded" or "Partially refunded" (ADR 0505). */
  refundedAmount: number;
  createdAt: string;
  dueDate: string;
  paidAt: string | null;
}

export interface InvoiceTotals {
  /**
   * Invoiced, paid, refunded, net paid and outstanding: the one money truth (money-totals.ts), in USD
   * (invoices may be in different currencies), the same figures as the dashboard's and the orders'.
   */
  money: MoneyFigures;
  /** By the status each invoice is shown with, as its row shows it. */
  counts: Record<ClientInvoiceFilter, number>;
}

const PART_OF_UUID = /^[0-9a-f-]+$/i;

/**
 * "Search by invoice number or id", and (issue 37) by its order's service name ("SSL", "migration"):
 * the number contains the text, or the service name does, or the id does. The id is only compared when
 * it could match: a whole id is looked up by the primary key, a text with anything but hex digits and
 * dashes (such as "INV-…") is in no id, so the id is not turned into text for every row. The service is
 * read in a subquery, so the lists' counts of matches stay on the invoices table alone.
 */
function invoiceSearch(q: string): SQL | undefined {
  if (!q) return undefined;
  const byService = sql`exists (select 1 from ${orders} where ${orders.id} = ${invoices.orderId} and ${ilikeContains(orders.serviceName, q)})`;
  const byNumber = sql`(${ilikeContains(invoices.invoiceNumber, q)} or ${byService})`;
  if (isUuid(q)) return sql`(${byNumber} or ${invoices.id} = ${q.toLowerCase()})`;
  if (PART_OF_UUID.test(q)) return sql`(${byNumber} or ${invoices.id}::text ilike ${containsPattern(q)})`;
  return byNumber;
}

type Raw = Omit<InvoiceRow, "createdAt" | "dueDate" | "paidAt"> & {
  createdAt: Date;
  dueDate: Date;
  paidAt: Date | null;
};
const toRow = (r: Raw): InvoiceRow => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  dueDate: r.dueDate.toISOString(),
  paidAt: r.paidAt?.toISOString() ?? null,
});

/** Newest invoices first, with their order's service name; `reverse` reads oldest first instead. */
function invoiceRowsQuery(
  db: Database,
  where: SQL | undefined,
  limit: number | Placeholder,
  offset: number | Placeholder,
  reverse: boolean,
) {
  const dir = reverse ? asc : desc;
  // The page's ids first (a walk of the (client_id, …, created_at, invoice_number) index), then their
  // rows and orders: a deep page skips index entries, not joined rows.
  const pageIds = db
    .select({ id: invoices.id })
    .from(invoices)
    .where(where)
    .orderBy(dir(invoices.createdAt), dir(invoices.invoiceNumber))
    .limit(limit)
    .offset(offset);
  return db
    .select({
      id: invoices.id,
      invoiceNumber: invoices.invoiceNumber,
      kind: invoices.kind,
      serviceName: orders.serviceName,
      status: invoices.status,
      currency: invoices.currency,
      subtotal: invoices.subtotal,
      taxAmount: invoices.taxAmount,
      totalAmount: invoices.totalAmount,
      refundedAmount: invoices.refundedAmount,
      createdAt: invoices.createdAt,
      dueDate: invoices.dueDate,
      paidAt: invoices.paidAt,
    })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(inArray(invoices.id, pageIds))
    .orderBy(dir(invoices.createdAt), dir(invoices.invoiceNumber));
}

/**
 * A page of rows without a search (with or without a status, from either end): prepared once per
 * database, as every signed-in client's invoices page reads one (ADR 0820).
 */
const pageStatements = new Map<string, (db: Database) => ReturnType<typeof preparePage>>();

type ShownFilter = Exclude<ClientInvoiceFilter, "all">;

/**
 * The invoices under a client's chip: sent and overdue as the rows show them (a sent invoice past its
 * due date is under Overdue), and Paid every paid invoice, refunds or not (its row reads "Paid",
 * "Partially refunded" or "Refunded": it was paid, and the chips add up to All).
 */
function chipIs(status: ShownFilter): SQL {
  return status === "paid" ? eq(invoices.status, "paid") : shownStatusIs(status);
}

function preparePage(db: Database, name: string, status: ShownFilter | undefined, reverse: boolean) {
  const mine = eq(invoices.clientId, sql.placeholder("clientId"));
  return invoiceRowsQuery(
    db,
    and(mine, status === undefined ? undefined : chipIs(status)),
    sql.placeholder("limit"),
    sql.placeholder("offset"),
    reverse,
  ).prepare(name);
}

/** One statement per shown status (each its own condition), and one for all. */
function pageStatement(status: ShownFilter | undefined, reverse: boolean) {
  const name = `client_invoice_rows${status ? `_${status}` : ""}${reverse ? "_oldest_first" : ""}`;
  let statement = pageStatements.get(name);
  if (!statement) {
    statement = preparedOnce((db) => preparePage(db, name, status, reverse));
    pageStatements.set(name, statement);
  }
  return statement;
}

/** Which of a client's invoices: all, or those shown with one status; matching a search or not. */
interface InvoiceSelection {
  clientId: string;
  status?: ShownFilter;
  search?: SQL;
}

const selected = ({ clientId, status, search }: InvoiceSelection) =>
  and(eq(invoices.clientId, clientId), status === undefined ? undefined : chipIs(status), search);

/**
 * A client's selected invoices, newest first (`reverse`: oldest first); in the list's order again
 * unless `inOrder` is false (readPage puts them back).
 */
async function invoiceRows(
  db: Database,
  selection: InvoiceSelection,
  limit: number,
  offset = 0,
  reverse = false,
  inOrder = true,
): Promise<InvoiceRow[]> {
  const { clientId, status, search } = selection;
  const rows = search
    ? await invoiceRowsQuery(db, selected(selection), limit, offset, reverse)
    : await pageStatement(status, reverse)(db).execute({ clientId, limit, offset });
  const out = rows.map(toRow);
  return reverse && inOrder ? out.reverse() : out;
}

/**
 * A client's invoice totals from `client_totals` (by stored status) and, in the same statement, the few
 * invoices shown with another status: sent but past due (overdue), paid with refunds ((partially)
 * refunded). Those are read off the (client_id, status, …) index among the client's sent and paid
 * invoices. And the client's credit notes by their invoice's status, for the money figures
 * (money-totals.server.ts). Prepared once, as every client's invoices page reads it (ADR 0820).
 */
const invoiceTotalsStatement = preparedOnce((db) =>
  db
    .select({
      part: sql<TotalsPart>`'stored'`,
      status: clientTotals.status,
      shown: clientTotals.status,
      count: clientTotals.count,
      amountUsd: sql<string>`${clientTotals.amountUsd}::text`,
    })
    .from(clientTotals)
    .where(and(eq(clientTotals.clientId, sql.placeholder("clientId")), eq(clientTotals.kind, "invoice")))
    .unionAll(
      db
        .select({
          part: sql<TotalsPart>`'moved'`,
          status: sql<string>`${invoices.status}`,
          shown: sql<string>`${shownInvoiceStatusSql}`,
          count: sql<number>`count(*)::int`,
          amountUsd: sql<string>`sum(${invoices.amountUsd} - ${invoices.refundedUsd})::text`,
        })
        .from(invoices)
        .where(
          and(
            eq(invoices.clientId, sql.placeholder("clientId")),
            or(
              and(eq(invoices.status, "sent"), lt(invoices.dueDate, sql`now()`)),
              and(eq(invoices.status, "paid"), gt(invoices.refundedAmount, 0)),
            ),
          ),
        )
        .groupBy(sql`2`, sql`3`),
    )
    .unionAll(
      db
        .select({
          part: sql<TotalsPart>`'credit_note'`,
          status: sql<string>`${invoices.status}`,
          shown: sql<string>`${invoices.status}`,
          count: sql<number>`count(*)::int`,
          amountUsd: sql<string>`sum(${creditNotes.amountUsd})::text`,
        })
        .from(creditNotes)
        .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
        .where(eq(creditNotes.clientId, sql.placeholder("clientId")))
        .groupBy(invoices.status),
    )
    .prepare("client_invoice_totals"),
);

/** Which rows of the statement: client_totals' own, the invoices shown otherwise, the credit notes. */
type TotalsPart = "stored" | "moved" | "credit_note";

/** A client's invoice totals by stored status, and by the status each invoice is shown with. */
async function loadInvoiceTotals(db: Database, clientId: string) {
  const rows = await invoiceTotalsStatement(db).execute({ clientId });
  const stored = statusTotalsOf(rows.filter((r) => r.part === "stored"));
  const moves: StatusMove[] = rows
    .filter((r) => r.part === "moved")
    .map((r) => ({ from: r.status, to: r.shown, count: Number(r.count), amountUsd: Number(r.amountUsd) }));
  const creditNotes = statusTotalsOf(rows.filter((r) => r.part === "credit_note"));
  return {
    stored,
    shown: stored.shownAs(moves),
    money: moneyTotalsOfClient({ invoices: stored, creditNotes }),
  };
}

export interface InvoicesPage {
  rows: InvoiceRow[];
  totals: InvoiceTotals;
  paging: PageInfo;
}

/**
 * The list of invoices a scope may see: one client's (the portal's invoices page) or every client's
 * (the back office's invoices page, and a client's page in it through `clientId`).
 */
export function listInvoices(
  db: Database,
  scope: OneClient,
  query: ListQuery<ClientInvoiceFilter>,
): Promise<InvoicesPage>;
export function listInvoices(
  db: Database,
  scope: AllClients,
  query: BackOfficeInvoiceQuery,
): Promise<BackOfficeInvoicesPage>;
export function listInvoices(
  db: Database,
  scope: ListScope,
  query: ListQuery<ClientInvoiceFilter> | BackOfficeInvoiceQuery,
): Promise<InvoicesPage | BackOfficeInvoicesPage> {
  return isAllClients(scope)
    ? listEveryClientsInvoices(db, query as BackOfficeInvoiceQuery)
    : listClientInvoices(db, scope.clientId, query as ListQuery<ClientInvoiceFilter>);
}

/**
 * The client's invoices page: the totals, the chips' counts by shown status, and one page of the
 * invoices shown with the chip's status (a row's badge and its chip agree).
 */
async function listClientInvoices(
  db: Database,
  clientId: string,
  query: ListQuery<ClientInvoiceFilter>,
): Promise<InvoicesPage> {
  const selection: InvoiceSelection = {
    clientId,
    status: query.status === "all" ? undefined : query.status,
    search: invoiceSearch(query.q),
  };
  const { shown, money } = await loadInvoiceTotals(db, clientId);
  const counts: Record<ClientInvoiceFilter, number> = {
    all: shown.all(),
    paid: shown.count("paid", "partially_refunded", "refunded"),
    sent: shown.count("sent"),
    overdue: shown.count("overdue"),
  };
  const paging = selection.search
    ? await countMatches(db, invoices, selected(selection), query.page)
    : pageInfo(query.page, counts[query.status]);
  const rows = await readPage(paging, ({ limit, offset, reverse }) =>
    invoiceRows(db, selection, limit, offset, reverse, false),
  );
  return {
    rows,
    paging,
    totals: {
      money: moneyFigures(money),
      counts,
    },
  };
}

/** The header search: a client's invoices whose number, service or id matches, newest first. */
export function searchClientInvoices(db: Database, clientId: string, q: string, limit: number) {
  return invoiceRows(db, { clientId, search: invoiceSearch(q) }, limit);
}

/** The back office's query: any of its filters, and on a client's page that client only. */
export interface BackOfficeInvoiceQuery extends ListQuery<InvoiceFilter> {
  clientId?: string;
}

/** An invoice as the back office lists it. */
export interface InvoiceListRow {
  id: string;
  invoiceNumber: string;
  /** What it bills of its order: all of it, or a quote's deposit or balance (labelled in the list). */
  kind: string;
  status: string;
  /** The status it is shown with (overdue, refunds counted): shownInvoiceStatus, in SQL. */
  shownStatus: ShownInvoiceStatus;
  currency: string;
  totalAmount: number;
  /** What came back through refunds: the status column shows it (ADR 0505). */
  refundedAmount: number;
  amountUsd: number;
  dueDate: Date;
  paidAt: Date | null;
  createdAt: Date;
  clientId: string;
  clientName: string | null;
  clientEmail: string | null;
  orderId: string;
  serviceName: string | null;
}

export interface BackOfficeInvoicesPage extends Paged<InvoiceListRow> {
  counts: Record<InvoiceFilter, number>;
}

/** The back office's filters: outstanding, overdue and "sent (not yet due)" by due date, paid, void. */
function backOfficeFilter(filter: InvoiceFilter) {
  switch (filter) {
    case "outstanding":
      return unpaidInvoiceSql;
    case "overdue":
      return overdueInvoiceSql;
    case "sent":
      return and(eq(invoices.status, "sent"), sql`${invoices.dueDate} >= now()`);
    case "paid":
      return eq(invoices.status, "paid");
    case "void":
      return eq(invoices.status, "void");
    default:
      return undefined;
  }
}

/** The back office's search: the invoice number, the client's name or email. */
function backOfficeSearch(q: string): SQL | undefined {
  if (!q) return undefined;
  return sql`(${ilikeContains(invoices.invoiceNumber, q)} or ${ilikeContains(clients.name, q)} or ${ilikeContains(clients.email, q)})`;
}

/**
 * Every client's invoices (or one client's, on their page in the back office): every chip's count in
 * one pass, then the page's rows, newest first, read from the nearer end. A page past the last one is
 * empty, as the back office has always shown it.
 */
async function listEveryClientsInvoices(
  db: Database,
  query: BackOfficeInvoiceQuery,
): Promise<BackOfficeInvoicesPage> {
  const matching = and(
    backOfficeSearch(query.q),
    query.clientId === undefined ? undefined : eq(invoices.clientId, query.clientId),
  );
  const [c] = await db
    .select({
      all: count(),
      outstanding: sql<number>`count(*) filter (where ${unpaidInvoiceSql})`.mapWith(Number),
      overdue: sql<number>`count(*) filter (where ${overdueInvoiceSql})`.mapWith(Number),
      sent: sql<number>`count(*) filter (where ${invoices.status} = 'sent' and ${invoices.dueDate} >= now())`.mapWith(
        Number,
      ),
      paid: sql<number>`count(*) filter (where ${invoices.status} = 'paid')`.mapWith(Number),
      void: sql<number>`count(*) filter (where ${invoices.status} = 'void')`.mapWith(Number),
    })
    .from(invoices)
    .leftJoin(clients, eq(clients.id, invoices.clientId))
    .where(matching);
  const counts = c ?? { all: 0, outstanding: 0, overdue: 0, sent: 0, paid: 0, void: 0 };
  const total = counts[query.status];
  const where = and(matching, backOfficeFilter(query.status));
  const rows = await readPage(
    pageInfo(query.page, total),
    ({ limit, offset, reverse }) => {
      const dir = reverse ? asc : desc;
      return db
        .select({
          id: invoices.id,
          invoiceNumber: invoices.invoiceNumber,
          kind: invoices.kind,
          status: invoices.status,
          shownStatus: shownInvoiceStatusSql,
          currency: invoices.currency,
          totalAmount: invoices.totalAmount,
          refundedAmount: invoices.refundedAmount,
          amountUsd: invoices.amountUsd,
          dueDate: invoices.dueDate,
          paidAt: invoices.paidAt,
          createdAt: invoices.createdAt,
          clientId: invoices.clientId,
          clientName: clients.name,
          clientEmail: clients.email,
          orderId: invoices.orderId,
          serviceName: orders.serviceName,
        })
        .from(invoices)
        .leftJoin(clients, eq(clients.id, invoices.clientId))
        .leftJoin(orders, eq(orders.id, invoices.orderId))
        .where(where)
        .orderBy(dir(invoices.createdAt), dir(invoices.id))
        .limit(limit)
        .offset(offset);
    },
    query.page,
  );
  return { rows: rows as InvoiceListRow[], total, page: query.page, counts };
}

/** Every client's outstanding (unpaid) and overdue totals in USD, for the back office's dashboard. */
export async function invoiceTotals(db: Database) {
  const [row] = await db
    .select({
      outstandingUsd:
        sql<number>`coalesce(sum(${invoices.amountUsd}) filter (where ${unpaidInvoiceSql}), 0)`.mapWith(
          Number,
        ),
      outstandingCount: sql<number>`count(*) filter (where ${unpaidInvoiceSql})`.mapWith(Number),
      overdueUsd:
        sql<number>`coalesce(sum(${invoices.amountUsd}) filter (where ${overdueInvoiceSql}), 0)`.mapWith(
          Number,
        ),
      overdueCount: sql<number>`count(*) filter (where ${overdueInvoiceSql})`.mapWith(Number),
    })
    .from(invoices)
    .where(unpaidInvoiceSql);
  return row ?? { outstandingUsd: 0, outstandingCount: 0, overdueUsd: 0, overdueCount: 0 };
}
