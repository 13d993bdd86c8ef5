/** The back office's dashboard figures, each one SQL query (fast however many rows there are). */
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import { type Database, queryRows } from "~/db/client.server";
import { contactMessages, user } from "~/db/schema";
import { listPaymentIssues } from "~/features/payments/payment-issues.server";
import { invoiceTotals } from "./invoices.server";
import { openOrdersByStatus } from "./orders.server";

export interface MonthRevenue {
  /** "YYYY-MM" */
  month: string;
  usd: number;
  invoices: number;
}

/** Paid invoices' USD totals for each of the last 12 months (this month included), empty months as 0. */
export async function revenueByMonth(db: Database): Promise<MonthRevenue[]> {
  const rows = await queryRows<{ month: string; usd: string | number; invoices: number }>(
    db,
    sql`select to_char(m, 'YYYY-MM') as month,
               coalesce(sum(i.amount_usd), 0)::float8 as usd,
               count(i.id)::int as invoices
          from generate_series(date_trunc('month', now()) - interval '11 months', date_trunc('month', now()), interval '1 month') as m
          left join invoices i
            on i.status = 'paid' and i.paid_at >= m and i.paid_at < m + interval '1 month'
         group by m order by m`,
  );
  return rows.map((r) => ({ month: r.month, usd: Number(r.usd), invoices: Number(r.invoices) }));
}

export async function dashboardFigures(db: Database) {
  const [revenue, openOrders, totals, [unread], recentSignups, paymentIssues] = await Promise.all([
    revenueByMonth(db),
    openOrdersByStatus(db),
    invoiceTotals(db),
    db.select({ n: count() }).from(contactMessages).where(isNull(contactMessages.readAt)),
    db
      .select({
        id: user.id,
        name: user.name,
        email: user.email,
        verified: user.emailVerified,
        createdAt: user.createdAt,
      })
      .from(user)
      .where(and(eq(user.role, "client")))
      .orderBy(desc(user.createdAt))
      .limit(5),
    // Payments to look at (ADR 0503): wrong amounts, paid cancelled orders, checkouts the provider lost.
    listPaymentIssues(db, 10),
  ]);
  return { revenue, openOrders, totals, unreadMessages: unread?.n ?? 0, recentSignups, paymentIssues };
}
