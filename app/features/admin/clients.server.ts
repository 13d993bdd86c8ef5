/** Clients in the back office: the list (search, SQL paging) and one client with their figures. */
import { and, count, desc, eq, ilike, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { clients, invoices, orders, user } from "~/db/schema";
import { unpaidInvoiceSql } from "~/features/invoices/invoice-status.server";
import { escapeLike } from "./audit.server";
import { listInvoices } from "./invoices.server";
import { listOrders } from "./orders.server";
import { type Paged, pageOffset } from "./paging";

export interface ClientListRow {
  id: string;
  name: string;
  email: string;
  company: string | null;
  verified: boolean;
  createdAt: Date;
  orders: number;
}

/** Client accounts (role client), with or without a client record yet (unverified sign-ups have none). */
export async function listClients(
  db: Database,
  filter: { q: string; page: number },
): Promise<Paged<ClientListRow>> {
  const like = `%${escapeLike(filter.q)}%`;
  const where = and(
    eq(user.role, "client"),
    filter.q ? or(ilike(user.name, like), ilike(user.email, like), ilike(clients.company, like)) : undefined,
  );
  const { limit, offset } = pageOffset(filter.page);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: user.id,
        name: sql<string>`coalesce(${clients.name}, ${user.name})`,
        email: user.email,
        company: clients.company,
        verified: user.emailVerified,
        createdAt: user.createdAt,
        orders: sql<number>`(select count(*) from ${orders} where ${orders.clientId} = ${user.id})`.mapWith(
          Number,
        ),
      })
      .from(user)
      .leftJoin(clients, eq(clients.id, user.id))
      .where(where)
      .orderBy(desc(user.createdAt), desc(user.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(user).leftJoin(clients, eq(clients.id, user.id)).where(where),
  ]);
  return { rows, total: total?.n ?? 0, page: filter.page };
}

export async function getClientDetail(db: Database, id: string) {
  const [row] = await db
    .select({ user, client: clients })
    .from(user)
    .leftJoin(clients, eq(clients.id, user.id))
    .where(and(eq(user.id, id), eq(user.role, "client")))
    .limit(1);
  if (!row) return null;
  const [figures] = await db
    .select({
      // Net of refunds: what the client paid less what was given back (credit notes).
      spentUsd:
        sql<number>`coalesce(sum(${invoices.amountUsd} - ${invoices.refundedUsd}) filter (where ${invoices.status} = 'paid'), 0)`.mapWith(
          Number,
        ),
      outstandingUsd:
        sql<number>`coalesce(sum(${invoices.amountUsd}) filter (where ${unpaidInvoiceSql}), 0)`.mapWith(
          Number,
        ),
    })
    .from(invoices)
    .where(eq(invoices.clientId, id));
  return { ...row, figures: figures ?? { spentUsd: 0, outstandingUsd: 0 } };
}

/** The client's page in the back office: the client, and the first page of their orders and invoices. */
export async function getClientPage(db: Database, id: string) {
  const detail = await getClientDetail(db, id);
  if (!detail) return null;
  const [orderList, invoiceList] = await Promise.all([
    listOrders(db, { q: "", status: null, clientId: id, page: 1 }),
    listInvoices(db, { q: "", filter: "all", clientId: id, page: 1 }),
  ]);
  return { ...detail, orders: orderList, invoices: invoiceList };
}
