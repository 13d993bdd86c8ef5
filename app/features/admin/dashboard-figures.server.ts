/** The back office's dashboard figures, each one SQL query (fast however many rows there are). */

import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { type Database, queryRows } from "~/db/client.server";
import { clients, user } from "~/db/schema";
import { backupStatus } from "~/features/backups/scheduled-backups.server";
import { unreadInboxCount } from "~/features/contact/contact-inbox.server";
import { invoiceTotals } from "~/features/invoices/invoice-lists.server";
import { invoicesToReissue } from "~/features/invoices/vat-reissue.server";
import { openOrdersByStatus } from "~/features/orders/order-lists.server";
import { listPaymentIssues } from "~/features/payments/payment-issues.server";
import { troubledPlans } from "~/features/plans/plan-subscribers.server";

export interface MonthRevenue {
  /** "YYYY-MM" */
  month: string;
  /** Paid invoices less refunds (credit notes) in the month; below 0 if more went back than came in. */
  usd: number;
  /** Of `usd`, care plans' periods (orders with a plan subscription, ADR 0531): recurring revenue. */
  recurringUsd: number;
  /** Of `usd`, every other sale: one-off revenue. */
  oneOffUsd: number;
  /** Invoices paid in the month. */
  invoices: number;
}

/**
 * Revenue net of refunds for each of the 12 months up to `now`'s (included), empty months as 0: the
 * USD of the invoices paid in the month less the USD of the credit notes issued in it (a refund counts
 * in the month it was made, whenever the invoice was paid, so past months never change), each split
 * into recurring (the invoice's or credit note's order is a care plan's period) and one-off. `invoices`
 * is the number of invoices paid in the month. One query; each month reads its own range of both tables.
 */
export async function revenueByMonth(db: Database, now: Date = new Date()): Promise<MonthRevenue[]> {
  const rows = await queryRows<{
    month: string;
    usd: string | number;
    recurring_usd: string | number;
    one_off_usd: string | number;
    invoices: number;
  }>(
    db,
    sql`select to_char(m, 'YYYY-MM') as month,
               (paid.usd - credited.usd)::float8 as usd,
               (paid.recurring - credited.recurring)::float8 as recurring_usd,
               ((paid.usd - paid.recurring) - (credited.usd - credited.recurring))::float8 as one_off_usd,
               paid.n as invoices
          from generate_series(date_trunc('month', ${now.toISOString()}::timestamptz) - interval '11 months', date_trunc('month', ${now.toISOString()}::timestamptz), interval '1 month') as m
          cross join lateral (
            select coalesce(sum(i.amount_usd), 0) as usd,
                   coalesce(sum(i.amount_usd) filter (where o.plan_subscription_id is not null), 0) as recurring,
                   count(*)::int as n
              from invoices i
              join orders o on o.id = i.order_id
             where i.status = 'paid' and i.paid_at >= m and i.paid_at < m + interval '1 month'
          ) as paid
          cross join lateral (
            select coalesce(sum(cn.amount_usd), 0) as usd,
                   coalesce(sum(cn.amount_usd) filter (where o.plan_subscription_id is not null), 0) as recurring
              from credit_notes cn
              join orders o on o.id = cn.order_id
             where cn.created_at >= m and cn.created_at < m + interval '1 month'
          ) as credited
         order by m`,
  );
  return rows.map((r) => ({
    month: r.month,
    usd: Number(r.usd),
    recurringUsd: Number(r.recurring_usd),
    oneOffUsd: Number(r.one_off_usd),
    invoices: Number(r.invoices),
  }));
}

/** The dashboard's past-due and suspended plans (the rest are on /admin/plans). */
const PLAN_ISSUES_SHOWN = 10;

export async function dashboardFigures(
  db: Database,
  backupSchedule: { dir: string; intervalMs: number } | null,
  now: Date,
) {
  const [revenue, openOrders, totals, unread, recentSignups, paymentIssues, backups, planIssues, vatIssues] =
    await Promise.all([
      revenueByMonth(db, now),
      openOrdersByStatus(db),
      invoiceTotals(db),
      // The sidebar's count too: one number for the owner's unread messages.
      unreadInboxCount(db),
      db
        .select({
          id: user.id,
          name: user.name,
          email: user.email,
          verified: user.emailVerified,
          createdAt: user.createdAt,
        })
        .from(user)
        // A deleted account keeps its rows (ADR 0520) but is no sign-up to show.
        .innerJoin(clients, eq(clients.id, user.id))
        .where(and(eq(user.role, "client"), isNull(clients.deletedAt)))
        .orderBy(desc(user.createdAt))
        .limit(5),
      // Payments to look at (ADR 0503): wrong amounts, paid cancelled orders, checkouts the provider lost.
      listPaymentIssues(db, 10),
      // The last scheduled backup, or its error (ADR 0902).
      backupStatus(db, backupSchedule),
      // Care plans whose renewal is unpaid (ADR 0531): past due, or suspended.
      troubledPlans(db, PLAN_ISSUES_SHOWN),
      // Invoices that charged VAT on a number VIES has confirmed since (issue 40).
      invoicesToReissue(db, PLAN_ISSUES_SHOWN),
    ]);
  return {
    revenue,
    openOrders,
    totals,
    unreadMessages: unread.total,
    recentSignups,
    paymentIssues,
    planIssues,
    vatIssues,
    backups,
  };
}
