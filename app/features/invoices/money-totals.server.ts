/**
 * The figures of money-totals.ts read from the database, for a client or for one order.
 * - A client's are in USD, each invoice and credit note at its own frozen rate (`amount_usd`), as the
 *   portal and the back office have always added invoices of several currencies, from the client's
 *   totals statement (lists/client-totals.server.ts): `client_totals` (per stored status, net of
 *   refunds, kept by triggers: ADR 0801) and the client's credit notes per status of their invoice.
 * - An order's are in its invoices' currency (one order, one currency; USD should they ever differ).
 */
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoiceStatuses, invoices } from "~/db/schema";
import { loadClientTotals, type StatusTotals } from "~/features/lists/client-totals.server";
import { toMinorUnits } from "~/features/money/minor-units";
import { type MoneyTotals, moneyTotals } from "./money-totals";

/**
 * A client's figures from their totals: `invoices` per stored status net of refunds (client_totals),
 * `creditNotes` per status of their invoice, which gives each status its gross back.
 */
export function moneyTotalsOfClient(totals: {
  invoices: StatusTotals;
  creditNotes: StatusTotals;
}): MoneyTotals {
  return moneyTotals(
    "USD",
    invoiceStatuses.map((status) => {
      const refundedMinor = toMinorUnits(totals.creditNotes.amount(status), "USD");
      return {
        status,
        totalMinor: toMinorUnits(totals.invoices.amount(status), "USD") + refundedMinor,
        refundedMinor,
      };
    }),
  );
}

/** A client's invoiced, paid, refunded, net paid and outstanding, in USD minor units: one statement. */
export async function clientMoneyTotals(db: Database, clientId: string): Promise<MoneyTotals> {
  return moneyTotalsOfClient(await loadClientTotals(db, clientId));
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
