/**
 * What a verified payment webhook does, for every provider alike (ARCHITECTURE.md "Main flows"). In one
 * transaction: the event is stored (provider + event id unique, so a repeat is a no-op), then, when it
 * pays an open invoice (the one its checkout was made for) for the right amount, the invoice (and its
 * order, if pending) become paid, the client gets the spec's notifications and live events, and a
 * receipt is queued in the outbox. Anything else (unknown order or invoice, already paid, cancelled,
 * wrong amount, an expiry) is recorded with its outcome and changes nothing.
 */
import { asc, eq } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database, Tx } from "~/db/client.server";
import { clients, type Invoice, invoices, orders, paymentEvents } from "~/db/schema";
import { accountLocaleOf } from "~/features/accounts/account-locale";
import type { BusinessIdentity } from "~/features/business/business";
import { isUuid } from "~/features/ids/ids";
import { isUnpaidOrOverdue } from "~/features/invoices/invoice-status";
import { mailbox } from "~/features/mail/email";
import { enqueueEmail } from "~/features/mail/outbox.server";
import { toMinorUnits } from "~/features/money/minor-units";
import { recordPayment } from "~/features/orders/payment.server";
import { paymentReceiptEmail } from "./email-templates.server";
import { recordPaymentIssue } from "./payment-issues.server";
import type { ProviderName, RefundUpdate, VerifiedPaymentEvent } from "./provider";

/**
 * Applies one refund a provider's event reports, in the webhook's transaction, and answers its outcome
 * for payment_events: the refunds feature's `applyRefundUpdate` (refunds/refund-webhooks.server.ts,
 * ADR 0505). Refunds sit above payments (ADR 0012), so it is given in the deps by the webhook's route.
 */
export type RefundUpdateHandler = (
  tx: Tx,
  ctx: { business: BusinessIdentity; publicUrl: string },
  provider: ProviderName,
  update: RefundUpdate,
) => Promise<string>;

export interface WebhookDeps {
  db: Database;
  business: BusinessIdentity;
  publicUrl: string;
  wakeOutbox: () => void;
  logger: Pick<Logger, "info" | "warn">;
  /**
   * Required where refund events arrive (the webhook's route); the checkouts' reconciliation only ever
   * applies paid answers, so it goes without.
   */
  refundUpdates?: RefundUpdateHandler;
}

export type WebhookResult = { duplicate: true } | { duplicate: false; outcome: string };

export async function processPaymentEvent(
  deps: WebhookDeps,
  event: VerifiedPaymentEvent,
): Promise<WebhookResult> {
  const orderId = isUuid(event.orderId) ? event.orderId.toLowerCase() : null;
  const result = await deps.db.transaction(async (tx): Promise<WebhookResult & { receipt?: boolean }> => {
    const [stored] = await tx
      .insert(paymentEvents)
      .values({
        provider: event.provider,
        eventId: event.eventId,
        type: event.type,
        orderId,
        payload: event.payload as object,
      })
      .onConflictDoNothing({ target: [paymentEvents.provider, paymentEvents.eventId] })
      .returning({ id: paymentEvents.id });
    if (!stored) return { duplicate: true };

    const outcome = await apply(tx, deps, event, orderId);
    await tx
      .update(paymentEvents)
      .set({ outcome, processedAt: new Date() })
      .where(eq(paymentEvents.id, stored.id));
    return { duplicate: false, outcome, receipt: outcome === "applied" };
  });
  if (result.duplicate) {
    deps.logger.info(
      { provider: event.provider, eventId: event.eventId },
      "payment webhook: repeat, ignored",
    );
    return result;
  }
  if (result.receipt) deps.wakeOutbox();
  deps.logger.info(
    { provider: event.provider, eventId: event.eventId, type: event.type, orderId, outcome: result.outcome },
    "payment webhook processed",
  );
  return { duplicate: false, outcome: result.outcome };
}

async function apply(
  tx: Tx,
  deps: WebhookDeps,
  event: VerifiedPaymentEvent,
  orderId: string | null,
): Promise<string> {
  if (event.kind === "other") return "ignored: not a payment outcome";
  if (event.kind === "refund") {
    // Each refund the event reports, once (ADR 0505); a charge.refunded without its refunds is noted.
    // A wiring mistake, not news to record: the event is rolled back and the provider sends it again.
    if (!deps.refundUpdates)
      throw new Error("payment webhook: a refund event, but no refundUpdates in the deps");
    const outcomes: string[] = [];
    for (const update of event.refunds ?? []) {
      outcomes.push(await deps.refundUpdates(tx, deps, event.provider, update));
    }
    return outcomes.length ? outcomes.join("; ") : "ignored: no refund in the event";
  }
  if (!orderId) return "ignored: unknown order";
  // The order row's lock (FOR UPDATE below) makes concurrent events for one order apply one after the other.
  const [found] = await tx
    .select({
      order: orders,
      client: {
        name: clients.name,
        email: clients.email,
        timeZone: clients.timeZone,
        language: clients.language,
      },
    })
    .from(orders)
    .innerJoin(clients, eq(clients.id, orders.clientId))
    .where(eq(orders.id, orderId))
    .limit(1)
    .for("update", { of: orders });
  if (!found) return "ignored: unknown order";
  const { order, client } = found;
  const orderInvoices = await tx
    .select()
    .from(invoices)
    .where(eq(invoices.orderId, order.id))
    .orderBy(asc(invoices.createdAt), asc(invoices.invoiceSeq));
  const invoice = invoicePaidBy(event, orderInvoices);
  if (invoice === "unknown") {
    deps.logger.warn(
      { orderId, invoiceId: event.invoiceId },
      "payment webhook: the checkout's invoice is not one of its order's",
    );
    return "ignored: unknown invoice";
  }
  if (!invoice) return "ignored: unknown order";

  if (event.kind === "expired") {
    return order.status === "pending"
      ? "noted: checkout expired, order stays pending"
      : `ignored: order ${order.status}`;
  }
  const issueReference = event.reference ?? event.eventId;
  if (order.status === "cancelled") {
    await recordPaymentIssue(tx, {
      kind: "order-cancelled",
      orderId: order.id,
      provider: event.provider,
      reference: issueReference,
      detail: `${event.amount ?? "?"} ${event.currency ?? ""} paid for a cancelled order`.trim(),
    });
    return "ignored: order cancelled";
  }
  if (invoice.status === "paid") {
    // News of the payment the invoice was paid with (a retry, the sweep after the webhook) is nothing;
    // another payment of it is money taken twice, for the back office to give back.
    if (event.reference && event.reference !== invoice.paymentReference) {
      await recordPaymentIssue(tx, {
        kind: "already-paid",
        orderId: order.id,
        provider: event.provider,
        reference: event.reference,
        detail: `${event.amount ?? "?"} ${event.currency ?? ""} paid again for invoice ${invoice.invoiceNumber}, already paid`,
      });
    }
    return "ignored: already paid";
  }
  if (!isUnpaidOrOverdue(invoice.status))
    return order.status === "pending" ? "ignored: invoice void" : "ignored: already paid";
  if (
    event.amount !== null &&
    (event.currency !== invoice.currency ||
      toMinorUnits(event.amount, invoice.currency) !== toMinorUnits(invoice.totalAmount, invoice.currency))
  ) {
    deps.logger.warn(
      {
        orderId,
        paid: `${event.amount} ${event.currency}`,
        due: `${invoice.totalAmount} ${invoice.currency}`,
      },
      "payment webhook: amount does not match the invoice",
    );
    await recordPaymentIssue(tx, {
      kind: "wrong-amount",
      orderId: order.id,
      provider: event.provider,
      reference: issueReference,
      detail: `paid ${event.amount} ${event.currency ?? "?"}, due ${invoice.totalAmount} ${invoice.currency}`,
    });
    return "ignored: amount does not match the invoice";
  }

  const paidAt = new Date();
  await recordPayment(tx, order, invoice, { provider: event.provider, reference: event.reference, paidAt });
  await enqueueEmail(tx, {
    kind: "payment-receipt",
    to: mailbox(client.email, client.name),
    ...paymentReceiptEmail({
      business: deps.business,
      publicUrl: deps.publicUrl,
      name: client.name,
      invoiceId: invoice.id,
      invoiceNumber: invoice.invoiceNumber,
      description: `${order.serviceName} — ${order.packageName}${order.quantity > 1 ? ` × ${order.quantity}` : ""}`,
      total: invoice.totalAmount,
      currency: invoice.currency,
      amountUsd: invoice.amountUsd,
      paidAt,
      timeZone: accountLocaleOf(client).timeZone,
    }),
  });
  return "applied";
}

/**
 * The invoice a payment pays. A checkout names its invoice (ADR 0503, amended 2026-11-25): that one,
 * and never another of the order's, so a late payment of a quote's deposit cannot pay its balance;
 * "unknown" when the named invoice is not the order's. A checkout made before checkouts named their
 * invoice pays what it always paid: the invoice already paid with this very payment (news of it
 * again), else the order's open invoice (a purchase's only one, a quote's deposit, then its balance),
 * else its first (to say it is already paid).
 */
export function invoicePaidBy<I extends Pick<Invoice, "id" | "status" | "paymentReference">>(
  event: Pick<VerifiedPaymentEvent, "invoiceId" | "reference">,
  orderInvoices: I[],
): I | "unknown" | undefined {
  if (event.invoiceId) {
    const named = event.invoiceId.toLowerCase();
    return orderInvoices.find((i) => i.id === named) ?? "unknown";
  }
  return (
    (event.reference ? orderInvoices.find((i) => i.paymentReference === event.reference) : undefined) ??
    orderInvoices.find((i) => isUnpaidOrOverdue(i.status)) ??
    orderInvoices[0]
  );
}
