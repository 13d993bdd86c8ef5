/**
 * A client's invoices as the portal lists them (client-portal.md, Invoices): totals, chip counts,
 * search and one page of rows, in SQL over the (client_id, …) indexes: two queries for any number.
 */
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, orders } from "~/db/schema";
import {
  type InvoiceFilter,
  type ListQuery,
  PAGE_SIZE,
  type PageInfo,
  pageInfo,
} from "~/features/portal/listing";
import { containsPattern, ilikeContains } from "~/features/portal/search.server";

export interface InvoiceRow {
  id: string;
  invoiceNumber: string;
  serviceName: string;
  status: string;
  currency: string;
  subtotal: number;
  taxAmount: number;
  totalAmount: number;
  createdAt: string;
  dueDate: string;
  paidAt: string | null;
}

export interface InvoiceTotals {
  /** In USD: invoices may be in different currencies. Void invoices are not counted. */
  totalInvoicedUsd: number;
  paidUsd: number;
  outstandingUsd: number;
  counts: Record<InvoiceFilter, number>;
}

/** "Search by invoice number or id." */
function invoiceSearch(q: string): SQL | undefined {
  if (!q) return undefined;
  return sql`(${ilikeContains(invoices.invoiceNumber, q)} or ${invoices.id}::text ilike ${containsPattern(q)})`;
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

async function invoiceRows(db: Database, where: SQL | undefined, limit: number, offset = 0) {
  const rows = await db
    .select({
      id: invoices.id,
      invoiceNumber: invoices.invoiceNumber,
      serviceName: orders.serviceName,
      status: invoices.status,
      currency: invoices.currency,
      subtotal: invoices.subtotal,
      taxAmount: invoices.taxAmount,
      totalAmount: invoices.totalAmount,
      createdAt: invoices.createdAt,
      dueDate: invoices.dueDate,
      paidAt: invoices.paidAt,
    })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(where)
    .orderBy(desc(invoices.createdAt), desc(invoices.invoiceNumber))
    .limit(limit)
    .offset(offset);
  return rows.map(toRow);
}

export interface InvoicesPage {
  rows: InvoiceRow[];
  totals: InvoiceTotals;
  paging: PageInfo;
}

export async function listClientInvoices(
  db: Database,
  clientId: string,
  query: ListQuery<InvoiceFilter>,
): Promise<InvoicesPage> {
  const mine = eq(invoices.clientId, clientId);
  const match = and(
    query.status === "all" ? undefined : eq(invoices.status, query.status),
    invoiceSearch(query.q),
  );
  const [t] = await db
    .select({
      all: sql<number>`count(*)::int`,
      paid: sql<number>`(count(*) filter (where ${invoices.status} = 'paid'))::int`,
      sent: sql<number>`(count(*) filter (where ${invoices.status} = 'sent'))::int`,
      overdue: sql<number>`(count(*) filter (where ${invoices.status} = 'overdue'))::int`,
      invoiced: sql<string>`coalesce(sum(${invoices.amountUsd}) filter (where ${invoices.status} <> 'void'), 0)`,
      paidUsd: sql<string>`coalesce(sum(${invoices.amountUsd}) filter (where ${invoices.status} = 'paid'), 0)`,
      outstanding: sql<string>`coalesce(sum(${invoices.amountUsd}) filter (where ${invoices.status} in ('sent', 'overdue')), 0)`,
      matching: match ? sql<number>`(count(*) filter (where ${match}))::int` : sql<number>`count(*)::int`,
    })
    .from(invoices)
    .where(mine);
  const paging = pageInfo(query.page, t?.matching ?? 0);
  const rows = paging.total
    ? await invoiceRows(db, and(mine, match), PAGE_SIZE, (paging.page - 1) * PAGE_SIZE)
    : [];
  return {
    rows,
    paging,
    totals: {
      totalInvoicedUsd: Number(t?.invoiced ?? 0),
      paidUsd: Number(t?.paidUsd ?? 0),
      outstandingUsd: Number(t?.outstanding ?? 0),
      counts: { all: t?.all ?? 0, paid: t?.paid ?? 0, sent: t?.sent ?? 0, overdue: t?.overdue ?? 0 },
    },
  };
}

/** The header search: a client's invoices whose number or id matches, newest first. */
export function searchClientInvoices(db: Database, clientId: string, q: string, limit: number) {
  return invoiceRows(db, and(eq(invoices.clientId, clientId), invoiceSearch(q)), limit);
}
