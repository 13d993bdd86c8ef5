/**
 * The one way an order comes to exist (checkout, quote acceptance, a plan's renewal; and, at zero with
 * no invoice, an incident a care plan covers: createCoveredOrder): the order row (pending), its
 * live event and its first invoice (sent, numbered gap-free per year; not announced with a 'New
 * Invoice' notice, since the client pays it at once and the payment raises the one notice: ADR 0515),
 * in the caller's transaction. What is bought and at what price is the caller's; what
 * always goes with a new order is here.
 */
import type { Config } from "~/config.server";
import type { Tx } from "~/db/client.server";
import { type Invoice, type InvoiceKind, type Order, orders } from "~/db/schema";
import { sellerSnapshot } from "~/features/invoices/invoice-parties";
import { createInvoiceForOrder, type InvoicePrice } from "~/features/invoices/invoices.server";
import { publishLiveEvent } from "~/features/live/live-events.server";

/** The order's own columns, as its caller priced them; its status is always pending. */
export type NewOrder = Omit<typeof orders.$inferInsert, "id" | "status" | "createdAt" | "updatedAt">;

export interface CreateOrderInput {
  order: NewOrder;
  /** What the first invoice bills: all of the order, or a quote's deposit. */
  invoicePrice: InvoicePrice;
  invoiceKind?: InvoiceKind;
  now?: Date;
  /**
   * Raise the 'New Invoice' notice: no for a checkout (the client pays at once and the payment raises
   * the one notice, ADR 0515), yes for an invoice the client did not ask for (a plan's renewal).
   */
  announce?: boolean;
}

/**
 * Inserts a pending order and its first invoice. With a checkout token, the same purchase form posted
 * twice makes one order: the second call finds the first order's token and answers null (waiting for
 * the first transaction when both run at once).
 */
export async function createOrder(
  tx: Tx,
  config: Pick<Config, "invoices" | "business"> & Partial<Pick<Config, "tax">>,
  input: CreateOrderInput,
): Promise<{ order: Order; invoice: Invoice } | null> {
  const [order] = await tx
    .insert(orders)
    .values({ ...input.order, status: "pending" })
    // Only a checkout token can meet this index: without one (a quote's order) nothing conflicts here.
    .onConflictDoNothing({ target: [orders.clientId, orders.checkoutToken] })
    .returning();
  if (!order) return null;
  await publishLiveEvent(tx, {
    userId: order.clientId,
    kind: "order",
    entityId: order.id,
    status: "pending",
  });
  // Last: it takes the invoice counter's lock, which every other new order waits for until this commits.
  const invoice = await createInvoiceForOrder(tx, {
    order,
    price: input.invoicePrice,
    dueDays: config.invoices.dueDays,
    seller: sellerSnapshot(config.business, config.tax),
    kind: input.invoiceKind,
    now: input.now,
    // By default the client is about to pay it: the payment's one notice tells them (ADR 0515).
    announce: input.announce ?? false,
  });
  return { order, invoice };
}

/** A covered order's own columns: what its caller (plans) names; its amounts are zero, its status paid. */
export type NewCoveredOrder = Omit<
  NewOrder,
  "unitPriceUsd" | "amountUsd" | "amountInCurrency" | "exchangeRate" | "currency" | "coveredByPeriodId"
> & { coveredByPeriodId: string };

/**
 * Inserts an order a care plan's allowance covers (issue 38, item 6; ADR 0531): at zero, with no invoice
 * (nothing is sold, so no number of the gap-free series is used), and paid at once, the status in which
 * the owner works on an order. In the caller's transaction, which counted the allowance. With a checkout
 * token, a form posted twice makes one order: the second call answers null.
 */
export async function createCoveredOrder(
  tx: Tx,
  input: { order: NewCoveredOrder; now?: Date },
): Promise<Order | null> {
  const now = input.now ?? new Date();
  const [order] = await tx
    .insert(orders)
    .values({
      ...input.order,
      unitPriceUsd: 0,
      amountUsd: 0,
      currency: "USD",
      amountInCurrency: 0,
      exchangeRate: 1,
      status: "paid",
      paidAt: now,
    })
    .onConflictDoNothing({ target: [orders.clientId, orders.checkoutToken] })
    .returning();
  if (!order) return null;
  await publishLiveEvent(tx, { userId: order.clientId, kind: "order", entityId: order.id, status: "paid" });
  return order;
}
