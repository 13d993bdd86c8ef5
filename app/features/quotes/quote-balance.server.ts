/** The balance of a quote with a deposit (issue "quotes"), invoiced when the owner completes its order. */
import { eq, sql } from "drizzle-orm";
import type { Config } from "~/config.server";
import type { Tx } from "~/db/client.server";
import { type Invoice, type Order, quotes } from "~/db/schema";
import { sellerSnapshot } from "~/features/invoices/invoice-parties";
import { createInvoiceForOrder } from "~/features/invoices/invoices.server";
import type { AfterOrderCompleted } from "~/features/orders/order-lifecycle.server";
import { invoicePrice } from "./quote-acceptance.server";
import { cents, depositSplit } from "./quote-pricing";

/** The seller and, when configured, the invoices' terms (7 days due by default). */
type QuoteBalanceConfig = Pick<Config, "business" | "publicUrl"> & Partial<Pick<Config, "invoices">>;

/**
 * When a quote's order is completed: the balance invoice, if the quote asked for a deposit (once: a
 * unique index on the order's invoices by kind). In the completing transaction.
 */
export async function issueBalanceInvoice(
  tx: Tx,
  deps: { config: QuoteBalanceConfig },
  order: Order,
): Promise<Invoice | null> {
  if (!order.quoteId) return null;
  const [quote] = await tx.select().from(quotes).where(eq(quotes.id, order.quoteId)).limit(1);
  if (!quote?.depositPercent) return null;
  const split = depositSplit(
    { taxCents: cents(quote.taxUsd), totalCents: cents(quote.totalUsd) },
    quote.depositPercent,
  );
  if (!split.balance) return null;
  const existing = await tx.execute(
    sql`select 1 from invoices where order_id = ${order.id} and kind = 'balance' limit 1`,
  );
  if ((existing as unknown as { rows: unknown[] }).rows.length > 0) return null;
  return createInvoiceForOrder(tx, {
    order,
    price: invoicePrice(split.balance, quote.taxRatePercent),
    // The configured term (every caller's config has it; 7 days is INVOICE_DUE_DAYS's default).
    dueDays: deps.config.invoices?.dueDays ?? 7,
    seller: sellerSnapshot(deps.config.business),
    kind: "balance",
  });
}

/**
 * The step a quote adds to its order's completion (orders' `AfterOrderCompleted`, given in the deps of
 * the change that completes it): the balance invoice, when the quote asked for a deposit.
 */
export function balanceOnCompletion(config: QuoteBalanceConfig): AfterOrderCompleted {
  return (tx, order) => issueBalanceInvoice(tx, { config }, order);
}
