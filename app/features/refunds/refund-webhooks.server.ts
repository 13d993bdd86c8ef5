/**
 * The provider's refund webhooks (docs/decisions/0505-refunds-and-credit-notes.md): a refund the
 * provider reports, recorded through `settleRefund` (refund-settle.server.ts) in the webhook's
 * transaction, whether Portico asked for it or it was made at the provider's own dashboard.
 */
import { and, eq } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { invoices, orders, refunds } from "~/db/schema";
import { isUuid } from "~/features/ids/ids";
import { fromMinorUnits, toMinorUnits } from "~/features/money/minor-units";
import { lockOrder } from "~/features/orders/order-lifecycle.server";
import { recordPaymentIssue } from "~/features/payments/payment-issues.server";
import type { ProviderName, RefundUpdate } from "~/features/payments/provider";
import { type SettleContext, type Settled, settleRefund, stillRefundable } from "./refund-settle.server";

/**
 * A refund webhook's update, in the webhook's transaction: the refund it names (Portico's id in the
 * provider's metadata, or the provider's refund id), or, for a refund made at the provider's own
 * dashboard, a new refund of the invoice that payment paid. Returns the outcome for payment_events.
 */
export async function applyRefundUpdate(
  tx: Tx,
  ctx: SettleContext,
  provider: ProviderName,
  update: RefundUpdate,
): Promise<string> {
  const conditions = [eq(refunds.provider, provider)];
  const byId =
    update.refundId && isUuid(update.refundId) ? eq(refunds.id, update.refundId.toLowerCase()) : undefined;
  const [known] = await tx
    .select({ id: refunds.id, orderId: refunds.orderId })
    .from(refunds)
    .where(and(...conditions, byId ?? eq(refunds.providerRefundId, update.providerRefundId)))
    .limit(1);
  let refundId = known?.id;
  if (known) {
    await lockOrder(tx, known.orderId);
  } else {
    if (update.status !== "succeeded") return `ignored: unknown refund ${update.status}`;
    if (!update.paymentReference) return "ignored: refund of an unknown payment";
    const [paid] = await tx
      .select({ invoiceId: invoices.id, orderId: invoices.orderId })
      .from(invoices)
      .innerJoin(orders, eq(orders.id, invoices.orderId))
      .where(and(eq(invoices.paymentReference, update.paymentReference), eq(orders.provider, provider)))
      .limit(1);
    if (!paid) return "ignored: refund of an unknown payment";
    const locked = await lockOrder(tx, paid.orderId);
    // Another event reporting the same refund (Stripe sends refund.created and refund.updated
    // together) may have recorded it while this one waited for the lock: it is known now.
    const [meanwhile] = await tx
      .select({ id: refunds.id })
      .from(refunds)
      .where(and(eq(refunds.provider, provider), eq(refunds.providerRefundId, update.providerRefundId)))
      .limit(1);
    if (meanwhile) return webhookOutcome(await settleRefund(tx, ctx, meanwhile.id, update));
    const invoice = locked?.invoices.find((i) => i.id === paid.invoiceId);
    if (invoice?.status !== "paid") return "ignored: refund of an unpaid invoice";
    const minor = toMinorUnits(update.amount, invoice.currency);
    if (update.currency !== invoice.currency || minor <= 0 || minor > (await stillRefundable(tx, invoice))) {
      await recordPaymentIssue(tx, {
        kind: "refund-unmatched",
        orderId: invoice.orderId,
        provider,
        reference: update.providerRefundId,
        detail: `refund of ${update.amount} ${update.currency} at the provider does not fit invoice ${invoice.invoiceNumber}`,
      });
      return "ignored: refund does not fit the invoice";
    }
    const [made] = await tx
      .insert(refunds)
      .values({
        invoiceId: invoice.id,
        orderId: invoice.orderId,
        clientId: invoice.clientId,
        provider,
        currency: invoice.currency,
        amount: fromMinorUnits(minor, invoice.currency),
        reason: `Refunded at ${provider}`,
        providerRefundId: update.providerRefundId,
        requestedById: null,
        requestedByEmail: provider,
      })
      .returning({ id: refunds.id });
    refundId = made!.id;
  }
  return webhookOutcome(await settleRefund(tx, ctx, refundId!, update));
}

/** A settled refund update as payment_events records it. */
function webhookOutcome(settled: Settled): string {
  return settled.outcome === "recorded" ? "applied: refund recorded" : `refund ${settled.outcome}`;
}
