/**
 * Refunds (docs/decisions/0505-refunds-and-credit-notes.md). The owner asks for one on a paid invoice;
 * it is recorded, with its credit note, only once the provider confirms it, by whichever comes first:
 * the provider's answer to the refund call, or its webhook. Both go through `settleRefund`, which is
 * idempotent: a refund is recorded once whatever arrives twice or out of order.
 *
 * Locks, always in this order: the order, then its invoice (lockOrder), then the refund row. Asking
 * (`requestRefund`) holds them only to check what is refundable and reserve the amount as a pending
 * refund; the provider is called outside any transaction, so its webhook (which takes the same locks)
 * may arrive before the call returns.
 *
 * This file: recording what the provider says of a refund (`settleRefund`), shared by asking
 * (refund-requests.server.ts) and the provider's webhook (refund-webhooks.server.ts).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { clients, creditNotes, type Invoice, invoices, orders, type Refund, refunds } from "~/db/schema";
import { type Actor, recordAudit } from "~/features/audit/audit.server";
import type { BusinessIdentity } from "~/features/business/business";
import { clientCreditNotePath } from "~/features/invoices/credit-note-number";
import { shownInvoiceStatus } from "~/features/invoices/invoice-status";
import { REFUND_ARRIVAL } from "~/features/invoices/invoice-view";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { enqueueEmail, mailbox } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import { formatMoney } from "~/features/money/format";
import { fromMinorUnits, toMinorUnits } from "~/features/money/minor-units";
import { NOTIFICATIONS } from "~/features/notifications/messages";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { cancelOrder } from "~/features/orders/order-lifecycle.server";
import { recordPaymentIssue } from "~/features/payments/payment-issues.server";
import type { RefundOutcome } from "~/features/payments/provider";
import { issueCreditNote } from "./credit-notes.server";
import { refundableMinor, refundShares } from "./refund-math";

/** What recording a refund needs besides the transaction: who to tell, and how the site is named. */
export interface SettleContext {
  business: BusinessIdentity;
  publicUrl: string;
}

export const PENDING_MESSAGE =
  "The provider is making the refund; it is recorded, with its credit note, once it confirms it.";

/** Pending refunds of an invoice (what is being given back), in minor units. */
export async function pendingMinor(tx: Tx, invoice: Invoice): Promise<number> {
  const rows = await tx
    .select({ amount: refunds.amount })
    .from(refunds)
    .where(and(eq(refunds.invoiceId, invoice.id), eq(refunds.status, "pending")));
  return rows.reduce((sum, r) => sum + toMinorUnits(r.amount, invoice.currency), 0);
}

/** What may still be refunded of a locked invoice, in minor units. */
export async function stillRefundable(tx: Tx, invoice: Invoice): Promise<number> {
  return refundableMinor(
    toMinorUnits(invoice.totalAmount, invoice.currency),
    toMinorUnits(invoice.refundedAmount, invoice.currency),
    await pendingMinor(tx, invoice),
  );
}

export interface Settled {
  outcome: "recorded" | "already recorded" | "pending" | "failed" | "ignored";
  message: string;
  failureReason?: string | null;
}

/**
 * Applies what the provider says of a refund, once (the caller's transaction holds the order's and
 * invoice's locks): succeeded records it with its credit note; failed releases its amount and puts it
 * on the back office's Needs attention list; pending waits. A repeat, or news older than what is
 * recorded, changes nothing.
 */
export async function settleRefund(
  tx: Tx,
  ctx: SettleContext,
  refundId: string,
  outcome: RefundOutcome,
): Promise<Settled> {
  const [refund] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for("update").limit(1);
  if (!refund) return { outcome: "ignored", message: "No such refund." };
  const providerRefundId = refund.providerRefundId ?? outcome.providerRefundId;
  if (outcome.status === "pending") {
    if (refund.status === "pending" && providerRefundId !== refund.providerRefundId) {
      await tx.update(refunds).set({ providerRefundId }).where(eq(refunds.id, refund.id));
    }
    return { outcome: "pending", message: PENDING_MESSAGE };
  }
  if (outcome.status === "failed") {
    if (refund.status !== "pending") {
      if (refund.status === "succeeded") {
        await recordPaymentIssue(tx, {
          kind: "refund-refused",
          orderId: refund.orderId,
          provider: refund.provider,
          reference: providerRefundId ?? refund.id,
          detail: `refund of ${refund.amount} ${refund.currency} reported failed after it was recorded`,
        });
      }
      return { outcome: "ignored", message: "The refund was already settled." };
    }
    await tx
      .update(refunds)
      .set({ status: "failed", providerRefundId, failureReason: outcome.failureReason ?? null })
      .where(eq(refunds.id, refund.id));
    await recordPaymentIssue(tx, {
      kind: "refund-refused",
      orderId: refund.orderId,
      provider: refund.provider,
      reference: providerRefundId ?? refund.id,
      detail: `refund of ${refund.amount} ${refund.currency} refused: ${outcome.failureReason ?? "no reason given"}`,
    });
    return { outcome: "failed", message: "The refund failed.", failureReason: outcome.failureReason ?? null };
  }
  if (refund.status === "succeeded") {
    // Recorded already (its webhook came first): the same words as when this call records it.
    const [note] = await tx
      .select({ number: creditNotes.creditNoteNumber, invoiceNumber: invoices.invoiceNumber })
      .from(creditNotes)
      .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
      .where(eq(creditNotes.refundId, refund.id))
      .limit(1);
    return {
      outcome: "already recorded",
      message: note ? recordedMessage(refund, note.invoiceNumber, note.number) : "The refund is recorded.",
    };
  }
  const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, refund.invoiceId)).limit(1);
  const [order] = await tx.select().from(orders).where(eq(orders.id, refund.orderId)).limit(1);
  if (!invoice || !order) return { outcome: "ignored", message: "No such invoice." };
  const currency = invoice.currency;
  const totalMinor = toMinorUnits(invoice.totalAmount, currency);
  const refundedMinor = toMinorUnits(invoice.refundedAmount, currency);
  const refundMinor = toMinorUnits(refund.amount, currency);
  if (refund.status === "failed") {
    // A refund given up on that the provider made after all: the money is gone, so it is recorded if
    // the invoice still holds it; otherwise the owner must look.
    const others = await pendingMinor(tx, invoice);
    if (refundMinor > refundableMinor(totalMinor, refundedMinor, others)) {
      await recordPaymentIssue(tx, {
        kind: "refund-unmatched",
        orderId: refund.orderId,
        provider: refund.provider,
        reference: providerRefundId ?? refund.id,
        detail: `refund of ${refund.amount} ${currency} made by the provider is more than is left to refund`,
      });
      return { outcome: "ignored", message: "The refund is more than is left to refund." };
    }
  }
  const now = new Date();
  await tx
    .update(refunds)
    .set({ status: "succeeded", providerRefundId, failureReason: null, succeededAt: now })
    .where(eq(refunds.id, refund.id));
  const shares = refundShares(
    {
      totalMinor,
      taxMinor: toMinorUnits(invoice.taxAmount, currency),
      usdMinor: toMinorUnits(invoice.amountUsd, "USD"),
    },
    refundedMinor,
    refundMinor,
  );
  const note = await issueCreditNote(tx, { refund, invoice, shares, business: ctx.business, now });
  const afterMinor = refundedMinor + refundMinor;
  const [updated] = await tx
    .update(invoices)
    .set({
      refundedAmount: fromMinorUnits(afterMinor, currency),
      refundedUsd: sql`${invoices.refundedUsd} + ${fromMinorUnits(shares.usdMinor, "USD")}`,
    })
    .where(eq(invoices.id, invoice.id))
    .returning();
  // The order's own USD amount is before tax. A purchase's one invoice bills all of it, so its refunded
  // part is the same fraction of it; a quote's deposit or balance (USD) gives back its own pre-tax part.
  const orderUsdMinor = toMinorUnits(order.amountUsd, "USD");
  const orderRefundMinor =
    invoice.kind === "full"
      ? refundShares({ totalMinor, taxMinor: 0, usdMinor: orderUsdMinor }, refundedMinor, refundMinor)
          .usdMinor
      : Math.min(shares.subtotalMinor, orderUsdMinor - toMinorUnits(order.refundedUsd, "USD"));
  await tx
    .update(orders)
    .set({ refundedUsd: sql`${orders.refundedUsd} + ${fromMinorUnits(orderRefundMinor, "USD")}` })
    .where(eq(orders.id, order.id));
  // The order is over when all of it came back (a purchase: its invoice refunded in full).
  const full =
    invoice.kind === "full"
      ? afterMinor >= totalMinor
      : toMinorUnits(order.refundedUsd, "USD") + orderRefundMinor >= orderUsdMinor;
  const actor: Actor = { id: refund.requestedById, email: refund.requestedByEmail };
  if (full && order.status !== "cancelled") {
    // Everything came back: the order is over (its paid invoice stays paid, credited in full).
    await cancelOrder(tx, actor, { order, invoice: updated!, invoices: [updated!] });
    await recordAudit(tx, actor, {
      action: "order.status",
      entity: "order",
      entityId: order.id,
      before: { status: order.status },
      after: { status: "cancelled", via: `refunded in full (${note.creditNoteNumber})` },
    });
  }
  const amountText = formatMoney(refund.amount, currency);
  await publishLiveEvent(tx, {
    userId: invoice.clientId,
    kind: "invoice",
    entityId: invoice.id,
    status: shownInvoiceStatus({
      ...invoice,
      status: "paid",
      refundedAmount: fromMinorUnits(afterMinor, currency),
    }),
  });
  const href = clientCreditNotePath(note.id);
  await raiseNotification(tx, invoice.clientId, {
    ...NOTIFICATIONS.refundIssued(amountText, invoice.invoiceNumber, note.creditNoteNumber),
    href,
  });
  const [client] = await tx
    .select({ name: clients.name, email: clients.email })
    .from(clients)
    .where(eq(clients.id, invoice.clientId))
    .limit(1);
  if (client) {
    await enqueueEmail(tx, {
      kind: "refund-issued",
      to: mailbox(client.email, client.name),
      ...noticeEmail({
        business: ctx.business,
        publicUrl: ctx.publicUrl,
        subject: `Refund of ${amountText}: credit note ${note.creditNoteNumber}`,
        greetingName: client.name,
        lines: [
          `We have refunded ${amountText} of invoice ${invoice.invoiceNumber}${full ? ", its full amount" : ""}.`,
          `Credit note ${note.creditNoteNumber} records it. ${REFUND_ARRIVAL}`,
          `Reason: ${refund.reason}`,
        ],
        link: { path: href, label: "View the credit note" },
      }),
    });
  }
  return {
    outcome: "recorded",
    message: recordedMessage(refund, invoice.invoiceNumber, note.creditNoteNumber),
  };
}

export function recordedMessage(refund: Refund, invoiceNumber: string, creditNoteNumber: string): string {
  return `Refunded ${formatMoney(refund.amount, refund.currency)} of invoice ${invoiceNumber}: credit note ${creditNoteNumber}.`;
}
