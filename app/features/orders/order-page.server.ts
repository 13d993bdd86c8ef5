/**
 * One order as its page shows it (ADR 0512): what was bought and for how much, its invoice, the status
 * timeline, the brief and whether the viewer may write on the conversation. Scoped by the viewer: the
 * client's own orders, or any for an admin; anything else (a malformed id too) is null, a 404.
 * The conversation's messages are `listThread` (conversation.server.ts), read beside this.
 */
import { asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { type InvoiceStatus, invoices, type Order, orderBriefs, type QuoteLine, quotes } from "~/db/schema";
import { invoiceKindTitle } from "~/features/invoices/invoice-kind";
import {
  isUnpaidOrOverdue,
  type ShownInvoiceStatus,
  shownInvoiceStatus,
} from "~/features/invoices/invoice-status";
import { type MoneyFigures, moneyFigures } from "~/features/invoices/money-totals";
import { orderMoneyTotals } from "~/features/invoices/money-totals.server";
import { formatMoney } from "~/features/money/format";
import { fromMinorUnits, lineAmountMinor } from "~/features/money/minor-units";
import { type BriefView, briefView } from "./brief.server";
import type { ConversationState } from "./conversation";
import { conversationStateFor } from "./conversation.server";
import { coveringPlanName } from "./covered-by.server";
import { type DepositProgress, depositProgress } from "./deposit-progress";
import { alertOfOrder, alertPrefill, type OrderAlert } from "./from-alert.server";
import { findOrderFor, type Viewer } from "./order-access.server";
import { orderTimeline, type TimelineStep } from "./order-timeline";
import { statusNotesOf } from "./status-notes.server";

export interface OrderPage {
  order: Pick<
    Order,
    | "id"
    | "clientId"
    | "serviceId"
    | "serviceName"
    | "serviceCategory"
    | "package"
    | "packageName"
    | "quantity"
    | "unitPriceUsd"
    | "addons"
    | "amountUsd"
    | "currency"
    | "amountInCurrency"
    | "exchangeRate"
    | "status"
    | "createdAt"
  >;
  /** The service's page slug, when the service still exists. */
  serviceSlug: string | null;
  /**
   * The care plan whose allowance covered this order (an order at zero with no invoice), by name; null
   * for an order that was paid for (issue 38, item 6).
   */
  coveredBy: string | null;
  /** The domain alert the order was made from (issue 39), with its domain's page. */
  fromAlert: OrderAlert | null;
  /** The invoice to act on: the open one (a quote's balance once issued), else the first. */
  invoice: OrderPageInvoice | null;
  /** Every invoice of the order, oldest first: one for a purchase, a quote's deposit and balance. */
  invoices: OrderPageInvoice[];
  /** A quote's order with a deposit: what is paid of the whole ("Deposit paid $152.50 of $305.00"). */
  payment: DepositProgress | null;
  /**
   * What this order's invoices asked, received, gave back and still ask (the one money truth,
   * invoices/money-totals.ts), in their currency: a quote's deposit alone paid counts the deposit.
   */
  money: MoneyFigures;
  /** A quote's order (issue "quotes"): the quote, its lines as quoted, and the viewer's page of it. */
  quote: {
    id: string;
    number: string;
    href: string;
    lines: Array<{ description: string; quantity: number; unitPrice: string; amount: string }>;
  } | null;
  timeline: TimelineStep[];
  brief: BriefView;
  conversation: ConversationState;
}

export interface OrderPageInvoice {
  id: string;
  invoiceNumber: string;
  /** "Invoice", "Deposit invoice" or "Balance invoice" (issue 37, item 2). */
  title: string;
  /** As every page shows it (shownInvoiceStatus): overdue once past due, refunds counted. */
  status: ShownInvoiceStatus;
  storedStatus: InvoiceStatus;
  totalAmount: number;
  currency: string;
  /** The viewer's side's page of the invoice. */
  href: string;
}

export async function getOrderPage(
  db: Database,
  viewer: Viewer,
  orderId: string,
  now: Date = new Date(),
): Promise<OrderPage | null> {
  const scoped = await findOrderFor(db, viewer, orderId);
  if (!scoped) return null;
  const { order } = scoped;
  const [all, [brief], [quote], notes, money, coveredBy, alert] = await Promise.all([
    db
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, order.id))
      .orderBy(asc(invoices.createdAt), asc(invoices.invoiceSeq)),
    db.select().from(orderBriefs).where(eq(orderBriefs.orderId, order.id)).limit(1),
    // Only a quote's order asks.
    order.quoteId
      ? db
          .select({
            id: quotes.id,
            quoteNumber: quotes.quoteNumber,
            lines: quotes.lines,
            totalUsd: quotes.totalUsd,
          })
          .from(quotes)
          .where(eq(quotes.id, order.quoteId))
          .limit(1)
      : Promise.resolve([]),
    // The owner's notes with the status changes, shown on the timeline.
    statusNotesOf(db, order.id),
    orderMoneyTotals(db, order.id),
    coveringPlanName(db, order),
    alertOfOrder(db, order, viewer.role),
  ]);
  const shown: OrderPageInvoice[] = all.map((invoice) => ({
    id: invoice.id,
    invoiceNumber: invoice.invoiceNumber,
    title: invoiceKindTitle(invoice.kind),
    status: shownInvoiceStatus(invoice, now),
    storedStatus: invoice.status,
    totalAmount: invoice.totalAmount,
    currency: invoice.currency,
    href: viewer.role === "admin" ? `/admin/invoices/${invoice.id}` : `/client/invoice/${invoice.id}`,
  }));
  return {
    order: {
      id: order.id,
      clientId: order.clientId,
      serviceId: order.serviceId,
      serviceName: order.serviceName,
      serviceCategory: order.serviceCategory,
      package: order.package,
      packageName: order.packageName,
      quantity: order.quantity,
      unitPriceUsd: order.unitPriceUsd,
      addons: order.addons,
      amountUsd: order.amountUsd,
      currency: order.currency,
      amountInCurrency: order.amountInCurrency,
      exchangeRate: order.exchangeRate,
      status: order.status,
      createdAt: order.createdAt,
    },
    serviceSlug: scoped.serviceSlug,
    coveredBy,
    fromAlert: alert ? { title: alert.title, domain: alert.domain, href: alert.href } : null,
    invoice: shown.find((i) => isUnpaidOrOverdue(i.storedStatus)) ?? shown[0] ?? null,
    invoices: shown,
    payment: quote ? depositProgress(all, quote.totalUsd) : null,
    money: moneyFigures(money),
    quote: quote ? quoteOfOrder(quote, viewer) : null,
    timeline: orderTimeline(order, notes),
    brief: briefView(
      scoped,
      brief ?? null,
      viewer.role,
      alert && !brief ? alertPrefill(scoped.intakeQuestions, alert) : undefined,
    ),
    conversation: conversationStateFor(viewer, scoped, now),
  };
}

function quoteOfOrder(
  quote: { id: string; quoteNumber: string | null; lines: QuoteLine[] },
  viewer: Viewer,
): NonNullable<OrderPage["quote"]> {
  return {
    id: quote.id,
    number: quote.quoteNumber ?? "",
    href: viewer.role === "admin" ? `/admin/quotes/${quote.id}` : `/client/quotes/${quote.id}`,
    lines: quote.lines.map((line) => ({
      description: line.kind === "catalogue" ? `${line.serviceName} — ${line.packageName}` : line.description,
      quantity: line.quantity,
      unitPrice: formatMoney(line.unitPriceUsd, "USD"),
      amount: formatMoney(
        fromMinorUnits(lineAmountMinor(line.unitPriceUsd, line.quantity, "USD"), "USD"),
        "USD",
      ),
    })),
  };
}

/** The client's order page (`/client/orders/{id}`): null for another client's order or a malformed id. */
export function getClientOrder(
  db: Database,
  clientId: string,
  orderId: string,
  now: Date = new Date(),
): Promise<OrderPage | null> {
  return getOrderPage(db, { id: clientId, role: "client" }, orderId, now);
}
