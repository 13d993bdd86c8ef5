/**
 * What the thank-you page says after a payment (issue 37, item 4): the service, the invoice and its
 * amount in its currency, and the sentence for a deposit, a balance or a whole order, all read from the
 * database for the signed-in client's own order. The page's query (order_id, amount) is never shown:
 * it only says which order to look at, and another client's order answers nothing.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { type Invoice, invoices, orders, quotes } from "~/db/schema";
import { isUuid } from "~/features/ids/ids";
import { invoiceKindTitle } from "~/features/invoices/invoice-kind";
import { isUnpaidOrOverdue } from "~/features/invoices/invoice-status";
import { formatMoney } from "~/features/money/format";
import { fromMinorUnits, toMinorUnits } from "~/features/money/minor-units";

export interface PaymentThanks {
  /** The sentence under the heading. */
  sentence: string;
  serviceName: string;
  packageName: string;
  /** "Invoice", "Deposit invoice" or "Balance invoice". */
  invoiceTitle: string;
  invoiceNumber: string;
  /** The invoice's total in its currency, formatted ("$10.00"). */
  amount: string;
  /** After a deposit: the balance still to come, formatted; else null. */
  balance: string | null;
  /** The invoice's page and its PDF (the client's own: another client gets 404 there). */
  invoiceHref: string;
  pdfHref: string;
}

export const THANKS = {
  full: "Your payment was successful. Your order is being processed.",
  deposit: "Deposit received, thank you: the work can start. The balance will be invoiced on completion.",
  balance: "Balance received, thank you: your order is now paid in full.",
  confirming: "Thank you! Your payment is being confirmed; we email your receipt as soon as it is.",
  /** A care plan's period (issue 38): the plan runs; it is seen under Care Plans. */
  plan: "Your payment was successful. Your care plan is active: see it under Care Plans.",
} as const;

/**
 * The invoice a return from the provider is about: the one of the order paid last (a quote's balance
 * once paid, else its deposit), or while the provider's confirmation is still on its way, the open one.
 */
function invoiceOfPayment(all: Invoice[]): Invoice | null {
  const paid = all
    .filter((i) => i.status === "paid" && i.paidAt)
    .sort((a, b) => b.paidAt!.getTime() - a.paidAt!.getTime());
  return paid[0] ?? all.find((i) => isUnpaidOrOverdue(i.status)) ?? null;
}

/** The thank-you page's facts for the client's own order, or null (not theirs, malformed, no invoice). */
export async function paymentThanks(
  db: Database,
  clientId: string,
  orderId: string,
): Promise<PaymentThanks | null> {
  if (!isUuid(orderId)) return null;
  const [order] = await db
    .select({
      id: orders.id,
      serviceName: orders.serviceName,
      packageName: orders.packageName,
      quoteTotalUsd: quotes.totalUsd,
      planSubscriptionId: orders.planSubscriptionId,
    })
    .from(orders)
    .leftJoin(quotes, eq(quotes.id, orders.quoteId))
    .where(and(eq(orders.id, orderId), eq(orders.clientId, clientId)))
    .limit(1);
  if (!order) return null;
  const all = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, order.id), eq(invoices.clientId, clientId)))
    .orderBy(asc(invoices.createdAt), asc(invoices.invoiceSeq));
  const invoice = invoiceOfPayment(all);
  if (!invoice) return null;
  const { currency } = invoice;
  const money = (amount: number) => formatMoney(amount, currency);
  const paid = invoice.status === "paid";
  let balance: string | null = null;
  if (invoice.kind === "deposit") {
    const issued = all.find((i) => i.kind === "balance");
    const rest =
      issued?.totalAmount ??
      (order.quoteTotalUsd === null
        ? null
        : fromMinorUnits(
            toMinorUnits(order.quoteTotalUsd, currency) - toMinorUnits(invoice.totalAmount, currency),
            currency,
          ));
    balance = rest === null ? null : money(rest);
  }
  const kind = invoice.kind === "deposit" || invoice.kind === "balance" ? invoice.kind : "full";
  return {
    sentence: paid ? (order.planSubscriptionId ? THANKS.plan : THANKS[kind]) : THANKS.confirming,
    serviceName: order.serviceName,
    packageName: order.packageName,
    invoiceTitle: invoiceKindTitle(invoice.kind),
    invoiceNumber: invoice.invoiceNumber,
    amount: money(invoice.totalAmount),
    balance,
    invoiceHref: `/client/invoice/${invoice.id}`,
    pdfHref: `/invoice/${invoice.id}/pdf`,
  };
}
