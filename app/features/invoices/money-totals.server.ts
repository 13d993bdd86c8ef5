/**
 * The figures of money-totals.ts read from the database, for a client or for one order.
 * - A client's are in USD, each invoice and credit note at its own frozen rate (`amount_usd`), as the
 *   portal and the back office have always added invoices of several currencies; one statement of a
 *   few rows: `client_totals` (per stored status, net of refunds, kept by triggers: ADR 0801) and the
 *   client's credit notes summed per status of their invoice, which gives each status its gross back.
 * - An order's are in its invoices' currency (one order, one currency; USD should they ever differ).
 */
import { and, eq, sql } from "drizzle-orm";
import { type Database, preparedOnce } from "~/db/client.server";
import { clientTotals, creditNotes, invoices } from "~/db/schema";
import { toMinorUnits } from "~/features/money/minor-units";
import { type InvoiceSums, type MoneyTotals, moneyTotals } from "./money-totals";

const clientMoneyStatement = preparedOnce((db) =>
  db
    .select({
      status: clientTotals.status,
      netUsd: sql<string>`${clientTotals.amountUsd}::text`,
      refundedUsd: sql<string>`'0'`,
    })
    .from(clientTotals)
    .where(and(eq(clientTotals.clientId, sql.placeholder("clientId")), eq(clientTotals.kind, "invoice")))
    .unionAll(
      db
        .select({
          status: sql<string>`${invoices.status}`,
          netUsd: sql<string>`'0'`,
          refundedUsd: sql<string>`sum(${creditNotes.amountUsd})::text`,
        })
        .from(creditNotes)
        .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
        .where(eq(creditNotes.clientId, sql.placeholder("clientId")))
        .groupBy(invoices.status),
    )
    .prepare("client_money_totals"),
);

/** A client's invoiced, paid, refunded, net paid and outstanding, in USD minor units. */
export async function clientMoneyTotals(db: Database, clientId: string): Promise<MoneyTotals> {
  const rows = await clientMoneyStatement(db).execute({ clientId });
  const byStatus = new Map<string, InvoiceSums>();
  for (const r of rows) {
    const s = byStatus.get(r.status) ?? { status: r.status, totalMinor: 0, refundedMinor: 0 };
    const refunded = toMinorUnits(Number(r.refundedUsd), "USD");
    // client_totals holds each status's totals less their refunds: the credit notes add them back.
    s.totalMinor += toMinorUnits(Number(r.netUsd), "USD") + refunded;
    s.refundedMinor += refunded;
    byStatus.set(r.status, s);
  }
  return moneyTotals("USD", byStatus.values());
}

/** One order's figures, from its invoices (one, or a quote's deposit and balance). */
export async function orderMoneyTotals(db: Database, orderId: string): Promise<MoneyTotals> {
  const rows = await db
    .select({
      status: invoices.status,
      currency: invoices.currency,
      totalAmount: invoices.totalAmount,
      refundedAmount: invoices.refundedAmount,
      amountUsd: invoices.amountUsd,
      refundedUsd: invoices.refundedUsd,
    })
    .from(invoices)
    .where(eq(invoices.orderId, orderId));
  const currencies = new Set(rows.map((r) => r.currency));
  const [only] = currencies;
  if (currencies.size === 1 && only) {
    return moneyTotals(
      only,
      rows.map((r) => ({
        status: r.status,
        totalMinor: toMinorUnits(r.totalAmount, only),
        refundedMinor: toMinorUnits(r.refundedAmount, only),
      })),
    );
  }
  return moneyTotals(
    "USD",
    rows.map((r) => ({
      status: r.status,
      totalMinor: toMinorUnits(r.amountUsd, "USD"),
      refundedMinor: toMinorUnits(r.refundedUsd, "USD"),
    })),
  );
}
