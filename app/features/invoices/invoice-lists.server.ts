/**
 * A client's invoices as the portal lists them (client-portal.md, Invoices): totals and chip counts from
 * `client_totals`, one page of rows read in order off the (client_id, [status,] created_at,
 * invoice_number) indexes: two queries (three with a search) and flat time for any number of invoices
 * (docs/decisions/0801-portal-pages-flat-with-data.md).
 */
import { and, asc, desc, eq, inArray, type Placeholder, type SQL, sql } from "drizzle-orm";
import { type Database, preparedOnce } from "~/db/client.server";
import { invoices, orders } from "~/db/schema";
import { isUuid } from "~/features/ids/ids";
import { loadClientTotals } from "~/features/lists/client-totals.server";
import { type ListQuery, type PageInfo, pageInfo, pageWindow } from "~/features/lists/listing";
import { containsPattern, countMatches, ilikeContains } from "~/features/lists/search.server";
import type { ClientInvoiceFilter } from "./invoice-filters";
import { UNPAID_INVOICE_STATUSES } from "./invoice-status";

export interface InvoiceRow {
  id: string;
  invoiceNumber: string;
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
   * In USD: invoices may be in different currencies. Void invoices are not counted; paid ones count net
   * of what was refunded (client_totals). Unpaid invoices have no refunds.
   */
  totalInvoicedUsd: number;
  paidUsd: number;
  outstandingUsd: number;
  counts: Record<ClientInvoiceFilter, number>;
}

const PART_OF_UUID = /^[0-9a-f-]+$/i;

/**
 * "Search by invoice number or id": the number contains the text, or the id does. The id is only
 * compared when it could match: a whole id is looked up by the primary key, a text with anything but
 * hex digits and dashes (such as "INV-…") is in no id, so the id is not turned into text for every row.
 */
function invoiceSearch(q: string): SQL | undefined {
  if (!q) return undefined;
  const byNumber = ilikeContains(invoices.invoiceNumber, q);
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

function preparePage(db: Database, name: string, byStatus: boolean, reverse: boolean) {
  const mine = eq(invoices.clientId, sql.placeholder("clientId"));
  const status = byStatus ? eq(invoices.status, sql.placeholder("status")) : undefined;
  return invoiceRowsQuery(
    db,
    and(mine, status),
    sql.placeholder("limit"),
    sql.placeholder("offset"),
    reverse,
  ).prepare(name);
}

function pageStatement(byStatus: boolean, reverse: boolean) {
  const name = `client_invoice_rows${byStatus ? "_by_status" : ""}${reverse ? "_oldest_first" : ""}`;
  let statement = pageStatements.get(name);
  if (!statement) {
    statement = preparedOnce((db) => preparePage(db, name, byStatus, reverse));
    pageStatements.set(name, statement);
  }
  return statement;
}

/** Which of a client's invoices: all, or of one status; matching a search or not. */
interface InvoiceSelection {
  clientId: string;
  status?: Exclude<ClientInvoiceFilter, "all">;
  search?: SQL;
}

const selected = ({ clientId, status, search }: InvoiceSelection) =>
  and(
    eq(invoices.clientId, clientId),
    status === undefined ? undefined : eq(invoices.status, status),
    search,
  );

/** A client's selected invoices, newest first (`reverse`: oldest first). */
async function invoiceRows(
  db: Database,
  selection: InvoiceSelection,
  limit: number,
  offset = 0,
  reverse = false,
): Promise<InvoiceRow[]> {
  const { clientId, status, search } = selection;
  const rows = search
    ? await invoiceRowsQuery(db, selected(selection), limit, offset, reverse)
    : await pageStatement(status !== undefined, reverse)(db).execute({ clientId, status, limit, offset });
  const out = rows.map(toRow);
  return reverse ? out.reverse() : out;
}

export interface InvoicesPage {
  rows: InvoiceRow[];
  totals: InvoiceTotals;
  paging: PageInfo;
}

export async function listClientInvoices(
  db: Database,
  clientId: string,
  query: ListQuery<ClientInvoiceFilter>,
): Promise<InvoicesPage> {
  const selection: InvoiceSelection = {
    clientId,
    status: query.status === "all" ? undefined : query.status,
    search: invoiceSearch(query.q),
  };
  const { invoices: t } = await loadClientTotals(db, clientId);
  const counts: Record<ClientInvoiceFilter, number> = {
    all: t.all(),
    paid: t.count("paid"),
    sent: t.count("sent"),
    overdue: t.count("overdue"),
  };
  const paging = selection.search
    ? await countMatches(db, invoices, selected(selection), query.page)
    : pageInfo(query.page, counts[query.status]);
  const { offset, limit, reverse } = pageWindow(paging);
  const rows = paging.total ? await invoiceRows(db, selection, limit, offset, reverse) : [];
  return {
    rows,
    paging,
    totals: {
      totalInvoicedUsd: t.amountExcept("void"),
      paidUsd: t.amount("paid"),
      outstandingUsd: t.amount(...UNPAID_INVOICE_STATUSES),
      counts,
    },
  };
}

/** The header search: a client's invoices whose number or id matches, newest first. */
export function searchClientInvoices(db: Database, clientId: string, q: string, limit: number) {
  return invoiceRows(db, { clientId, search: invoiceSearch(q) }, limit);
}
