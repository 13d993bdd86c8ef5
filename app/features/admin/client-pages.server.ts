/**
 * The back office's clients pages: the list of client accounts (search, paging on the lists' engine),
 * and one client with their figures and the first page of their orders and invoices (the all-clients
 * lists narrowed to the client).
 */
import { and, asc, count, desc, eq, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { clients, orders, user } from "~/db/schema";
import type { SessionUser } from "~/features/accounts/session-user";
import { listInvoices } from "~/features/invoices/invoice-lists.server";
import { moneyFigures } from "~/features/invoices/money-totals";
import { clientMoneyTotals } from "~/features/invoices/money-totals.server";
import { type Paged, pageInfo } from "~/features/lists/listing";
import { ALL_CLIENTS } from "~/features/lists/scope";
import { ilikeContains, readPage } from "~/features/lists/search.server";
import { listOrders } from "~/features/orders/order-lists.server";
import { plansOfClient } from "~/features/plans/plan-subscribers.server";
import { deleteClientByOwner } from "~/features/privacy/account-deletion.server";
import type { AccountDeletionDeps } from "~/features/privacy/deletion-deps.server";
import type { ActionResult, FieldErrors } from "~/ui/form";

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
  const where = and(
    eq(user.role, "client"),
    filter.q
      ? or(
          ilikeContains(user.name, filter.q),
          ilikeContains(user.email, filter.q),
          ilikeContains(clients.company, filter.q),
        )
      : undefined,
  );
  const [counted] = await db
    .select({ n: count() })
    .from(user)
    .leftJoin(clients, eq(clients.id, user.id))
    .where(where);
  const total = counted?.n ?? 0;
  const rows = await readPage(
    pageInfo(filter.page, total),
    ({ limit, offset, reverse }) => {
      const dir = reverse ? asc : desc;
      return db
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
        .orderBy(dir(user.createdAt), dir(user.id))
        .limit(limit)
        .offset(offset);
    },
    filter.page,
  );
  return { rows, total, page: filter.page };
}

export async function getClientDetail(db: Database, id: string) {
  const [row] = await db
    .select({ user, client: clients })
    .from(user)
    .leftJoin(clients, eq(clients.id, user.id))
    .where(and(eq(user.id, id), eq(user.role, "client")))
    .limit(1);
  if (!row) return null;
  // The client's money as the client's own pages show it (invoices/money-totals.ts).
  const figures = moneyFigures(await clientMoneyTotals(db, id));
  return { ...row, figures };
}

/**
 * The client's page in the back office: the client, their care plans (next renewals as of `now`), and
 * the first page of their orders and invoices.
 */
export async function getClientPage(db: Database, id: string, now: Date) {
  const detail = await getClientDetail(db, id);
  if (!detail) return null;
  const [orderList, invoiceList, plans] = await Promise.all([
    listOrders(db, ALL_CLIENTS, { q: "", status: "all", clientId: id, page: 1 }),
    listInvoices(db, ALL_CLIENTS, { q: "", status: "all", clientId: id, page: 1 }),
    plansOfClient(db, id, now),
  ]);
  return { ...detail, plans, orders: orderList, invoices: invoiceList };
}

/**
 * The client page's one form, "Delete client" (issue 25, for a request by email): the privacy feature's
 * owner deletion (DELETE typed, the owner's own password, the client's rules, audited with the owner).
 * Anything else posted is refused (400). A deletion that went through says where to go (the page, with
 * `?deleted=1`).
 */
export async function clientPageAction(
  deps: AccountDeletionDeps,
  request: Request,
  admin: SessionUser,
  clientId: string,
  values: Record<string, string>,
): Promise<ActionResult<{ redirectTo: string }, { fieldErrors: FieldErrors }>> {
  if (values.intent !== "deleteClient")
    return { ok: false, status: 400, error: "Unknown action.", fieldErrors: {} };
  const result = await deleteClientByOwner(deps, request, admin, clientId, values);
  if (!result.ok) return result;
  return { ok: true, redirectTo: `/admin/clients/${encodeURIComponent(clientId)}?deleted=1` };
}
