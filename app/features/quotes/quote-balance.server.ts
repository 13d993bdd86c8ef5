/**
 * The balance of a quote with a deposit (issue "quotes"), invoiced when the owner completes its order,
 * and emailed to the client with it (issue 37, item 2: invoices are always sent).
 */
import { eq, sql } from "drizzle-orm";
import type { Config } from "~/config.server";
import type { Tx } from "~/db/client.server";
import { type Invoice, type Order, quotes } from "~/db/schema";
import { emailInvoiceClient } from "~/features/invoices/invoice-email.server";
import { sellerSnapshot } from "~/features/invoices/invoice-parties";
import { documentDate } from "~/features/invoices/invoice-view";
import { createInvoiceForOrder } from "~/features/invoices/invoices.server";
import { formatMoney } from "~/features/money/format";
import type { AfterOrderCompleted } from "~/features/orders/order-lifecycle.server";
import { invoicePrice } from "./quote-acceptance.server";
import { cents, depositSplit } from "./quote-pricing";

/** The seller and, when configured, the invoices' terms (7 days due by default). */
type QuoteBalanceConfig = Pick<Config, "business" | "publicUrl"> & Partial<Pick<Config, "invoices" | "tax">>;

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
  const invoice = await createInvoiceForOrder(tx, {
    order,
    price: invoicePrice(split.balance, quote),
    // The configured term (every caller's config has it; 7 days is INVOICE_DUE_DAYS's default).
    dueDays: deps.config.invoices?.dueDays ?? 7,
    seller: sellerSnapshot(deps.config.business, deps.config.tax),
    kind: "balance",
  });
  // Once per invoice: only the transaction that issued it gets here (the check above, the unique
  // index on (order_id, kind) and the order's lock). A billing document: no notification switch stops it.
  const amount = formatMoney(invoice.totalAmount, invoice.currency);
  await emailInvoiceClient(tx, deps.config, invoice, {
    kind: "invoice-balance",
    subject: `Balance invoice ${invoice.invoiceNumber} for quote ${quote.quoteNumber}`,
    lines: [
      `The work quoted in ${quote.quoteNumber} is complete. Here is balance invoice ${invoice.invoiceNumber} for ${amount}, due ${documentDate(invoice.dueDate)}.`,
      `The deposit was invoiced when you accepted the quote; this invoice is the rest. You can pay it from the invoice's page with Pay Now.`,
    ],
  });
  return invoice;
}

/**
 * The step a quote adds to its order's completion (orders' `AfterOrderCompleted`, given in the deps of
 * the change that completes it): the balance invoice, when the quote asked for a deposit.
 */
export function balanceOnCompletion(config: QuoteBalanceConfig): AfterOrderCompleted {
  return (tx, order) => issueBalanceInvoice(tx, { config }, order);
}
