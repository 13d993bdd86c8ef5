/** What the back office reads of an invoice's refunds: how it is refunded, and the refunds made. */
import { eq, sql } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { type Invoice, type Order, type Refund, refunds } from "~/db/schema";
import type { ProviderName } from "~/features/payments/provider";

/** How the invoice was paid, so how it is refunded: through its provider, or by hand. */
export type RefundVia = ProviderName | "manual";

/** Marked paid by hand (a bank transfer, or the order marked paid): refunded by hand too. */
export function refundVia(
  order: Pick<Order, "provider">,
  invoice: Pick<Invoice, "paymentReference">,
): RefundVia {
  const reference = invoice.paymentReference;
  if (!reference || reference.startsWith("Bank transfer:")) return "manual";
  return order.provider === "stripe" || order.provider === "sandbox" ? order.provider : "manual";
}

/** An invoice's refunds, newest first (the back office's invoice page). */
export async function refundsOfInvoice(tx: Pick<Tx, "select">, invoiceId: string): Promise<Refund[]> {
  return tx
    .select()
    .from(refunds)
    .where(eq(refunds.invoiceId, invoiceId))
    .orderBy(sql`${refunds.createdAt} desc`);
}
