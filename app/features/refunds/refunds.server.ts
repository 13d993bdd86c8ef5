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
 */
import { and, eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Tx } from "~/db/client.server";
import {
  clients,
  creditNotes,
  type Invoice,
  invoices,
  type Order,
  orders,
  type Refund,
  refunds,
} from "~/db/schema";
import { type Actor, type ChangeDeps, type ChangeResult, recordAudit } from "~/features/audit/audit.server";
import type { BusinessIdentity } from "~/features/business/business";
import { isUuid } from "~/features/ids/ids";
import { clientCreditNotePath } from "~/features/invoices/credit-note-number";
import { shownInvoiceStatus } from "~/features/invoices/invoice-status";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { enqueueEmail } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import { formatMoney } from "~/features/money/format";
import { fromMinorUnits, parseAmountInput, toMinorUnits } from "~/features/money/minor-units";
import { NOTIFICATIONS } from "~/features/notifications/messages";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { cancelOrder, lockOrder } from "~/features/orders/order-lifecycle.server";
import { recordPaymentIssue } from "~/features/payments/payment-issues.server";
import type {
  PaymentProvider,
  ProviderName,
  RefundOutcome,
  RefundUpdate,
} from "~/features/payments/provider";
import { issueCreditNote } from "./credit-notes.server";
import type { RefundReview } from "./refund-form";
import { refundableMinor, refundShares } from "./refund-math";

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

/** What recording a refund needs besides the transaction: who to tell, and how the site is named. */
export interface SettleContext {
  business: BusinessIdentity;
  publicUrl: string;
}

export interface RefundDeps extends ChangeDeps {
  provider(name: string): PaymentProvider | null;
  logger: Pick<Logger, "info" | "warn">;
  wakeOutbox(): void;
}

export interface RefundInput {
  /** As typed ("12.50"): read exactly in the invoice's currency. */
  amount: string;
  reason: string;
  /** A refund by hand: the reference of the transfer back. */
  reference: string | null;
  /**
   * The form's one-time token (refund-form-token.server.ts, checked by the form's action): one refund
   * per token, whatever is posted twice; the provider's idempotency key.
   */
  formToken: string;
}

const PENDING_MESSAGE =
  "The provider is making the refund; it is recorded, with its credit note, once it confirms it.";

const settleContext = (deps: Pick<ChangeDeps, "config">): SettleContext => ({
  business: deps.config.business,
  publicUrl: deps.config.publicUrl,
});

/** Pending refunds of an invoice (what is being given back), in minor units. */
async function pendingMinor(tx: Tx, invoice: Invoice): Promise<number> {
  const rows = await tx
    .select({ amount: refunds.amount })
    .from(refunds)
    .where(and(eq(refunds.invoiceId, invoice.id), eq(refunds.status, "pending")));
  return rows.reduce((sum, r) => sum + toMinorUnits(r.amount, invoice.currency), 0);
}

/** What may still be refunded of a locked invoice, in minor units. */
async function stillRefundable(tx: Tx, invoice: Invoice): Promise<number> {
  return refundableMinor(
    toMinorUnits(invoice.totalAmount, invoice.currency),
    toMinorUnits(invoice.refundedAmount, invoice.currency),
    await pendingMinor(tx, invoice),
  );
}

type Reserved =
  | { ok: true; refund: Refund; settled: ChangeResult | null; repeat?: boolean }
  | { ok: false; status: number; error: string };

type Checked =
  | { ok: true; minor: number; refundableMinor: number; via: RefundVia }
  | { ok: false; status: number; error: string };

/** What refunding `input` of this invoice would do, or why it cannot be (the same words at both steps). */
async function checkRefund(
  deps: RefundDeps,
  tx: Tx,
  order: Order,
  invoice: Invoice,
  input: Omit<RefundInput, "formToken">,
): Promise<Checked> {
  if (invoice.status !== "paid") {
    return {
      ok: false,
      status: 409,
      error: `Invoice ${invoice.invoiceNumber} is ${invoice.status}; only a paid invoice can be refunded.`,
    };
  }
  const amount = parseAmountInput(input.amount, invoice.currency);
  if (!amount.ok) return { ok: false, status: 400, error: amount.error };
  const refundable = await stillRefundable(tx, invoice);
  if (amount.minor > refundable) {
    return {
      ok: false,
      status: 409,
      error:
        refundable === 0
          ? `Nothing is left to refund on invoice ${invoice.invoiceNumber}.`
          : `At most ${formatMoney(fromMinorUnits(refundable, invoice.currency), invoice.currency)} can be refunded on invoice ${invoice.invoiceNumber}.`,
    };
  }
  const via = refundVia(order, invoice);
  if (via === "manual" && !input.reference) {
    return {
      ok: false,
      status: 400,
      error: "This invoice was paid by hand: enter the reference of the transfer back.",
    };
  }
  if (via !== "manual" && !deps.provider(via)) {
    return {
      ok: false,
      status: 409,
      error: `Invoice ${invoice.invoiceNumber} was paid through ${via}, which is not configured here.`,
    };
  }
  return { ok: true, minor: amount.minor, refundableMinor: refundable, via };
}

/** The refund a form's token already made, if any. */
async function refundOfToken(tx: Pick<Tx, "select">, formToken: string): Promise<Refund | undefined> {
  const [made] = await tx.select().from(refunds).where(eq(refunds.formToken, formToken)).limit(1);
  return made;
}

/** A token already spent: the same refund posted again, or the form reused for another one. */
function spentToken(made: Refund, invoiceId: string, amountText: string): Reserved | null {
  const sameAmount = parseAmountInput(amountText, made.currency);
  if (
    made.invoiceId === invoiceId &&
    sameAmount.ok &&
    sameAmount.minor === toMinorUnits(made.amount, made.currency)
  ) {
    return null;
  }
  return {
    ok: false,
    status: 409,
    error: `This refund form was already used, for a refund of ${formatMoney(made.amount, made.currency)}: reload the page to make another refund.`,
  };
}

/** The invoice and its order, locked (or not, for the confirmation step); null when unknown. */
async function findInvoice(tx: Tx, invoiceId: string, lock: boolean) {
  const [found] = await tx
    .select({ orderId: invoices.orderId })
    .from(invoices)
    .where(eq(invoices.id, invoiceId))
    .limit(1);
  if (!found) return null;
  if (!lock) {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId)).limit(1);
    const [order] = await tx.select().from(orders).where(eq(orders.id, found.orderId)).limit(1);
    return invoice && order ? { order, invoice } : null;
  }
  const locked = await lockOrder(tx, found.orderId);
  // The invoice asked about (an order made from a quote has a deposit and a balance).
  const invoice = locked?.invoices.find((i) => i.id === invoiceId);
  return locked && invoice ? { order: locked.order, invoice } : null;
}

/** The confirmation step: the same checks as the refund itself, with nothing reserved or written. */
export async function reviewRefund(
  deps: RefundDeps,
  invoiceId: string,
  input: RefundInput,
): Promise<{ ok: true; review: RefundReview } | { ok: false; status: number; error: string }> {
  return deps.db.transaction(async (tx) => {
    const found = await findInvoice(tx, invoiceId, false);
    if (!found) return { ok: false, status: 404, error: "Invoice not found." };
    const { order, invoice } = found;
    const made = await refundOfToken(tx, input.formToken);
    if (made) {
      const spent = spentToken(made, invoiceId, input.amount) ?? {
        ok: false,
        status: 409,
        error: `This refund form was already used: ${formatMoney(made.amount, made.currency)} was refunded with it. Reload the page to make another refund.`,
      };
      if (!spent.ok) return spent;
    }
    const checked = await checkRefund(deps, tx, order, invoice, input);
    if (!checked.ok) return checked;
    const refundedMinor = toMinorUnits(invoice.refundedAmount, invoice.currency);
    return {
      ok: true,
      review: {
        amount: input.amount,
        amountText: formatMoney(fromMinorUnits(checked.minor, invoice.currency), invoice.currency),
        invoiceNumber: invoice.invoiceNumber,
        via: checked.via,
        reason: input.reason,
        reference: checked.via === "manual" ? input.reference : null,
        whole: refundedMinor + checked.minor >= toMinorUnits(invoice.totalAmount, invoice.currency),
        formToken: input.formToken,
      },
    };
  });
}

/** Checks and reserves: the invoice is paid and the amount still refundable; a pending refund row. */
async function reserveRefund(deps: RefundDeps, invoiceId: string, input: RefundInput): Promise<Reserved> {
  return deps.db.transaction(async (tx): Promise<Reserved> => {
    const found = await findInvoice(tx, invoiceId, true);
    if (!found) return { ok: false, status: 404, error: "Invoice not found." };
    const { order, invoice } = found;
    // Under the order's lock: a second post of the same form waits here, then finds the first's refund.
    const made = await refundOfToken(tx, input.formToken);
    if (made)
      return (
        spentToken(made, invoiceId, input.amount) ?? { ok: true, refund: made, settled: null, repeat: true }
      );
    const checked = await checkRefund(deps, tx, order, invoice, input);
    if (!checked.ok) return checked;
    const { via } = checked;
    const [refund] = await tx
      .insert(refunds)
      .values({
        invoiceId: invoice.id,
        orderId: order.id,
        clientId: invoice.clientId,
        provider: via,
        currency: invoice.currency,
        amount: fromMinorUnits(checked.minor, invoice.currency),
        reason: input.reason,
        reference: via === "manual" ? input.reference : null,
        requestedById: deps.actor.id,
        requestedByEmail: deps.actor.email,
        formToken: input.formToken,
      })
      .returning();
    await recordAudit(tx, deps.actor, {
      action: "invoice.refund",
      entity: "invoice",
      entityId: invoice.id,
      after: {
        refundId: refund!.id,
        amount: refund!.amount,
        currency: refund!.currency,
        via,
        reason: input.reason,
      },
    });
    if (via !== "manual") return { ok: true, refund: refund!, settled: null };
    // By hand: the owner says the money went back; that is the confirmation.
    const settled = await settleRefund(tx, settleContext(deps), refund!.id, {
      status: "succeeded",
      providerRefundId: null,
    });
    return { ok: true, refund: refund!, settled: settledResult(settled) };
  });
}

/**
 * Refunds (part of) a paid invoice: reserves the amount, asks the provider (or records a refund made
 * by hand at once), and records what the provider answers. The webhook may record it first; either
 * way it is recorded once.
 */
export async function requestRefund(
  deps: RefundDeps,
  invoiceId: string,
  input: RefundInput,
): Promise<ChangeResult> {
  const reserved = await reserveRefund(deps, invoiceId, input);
  if (!reserved.ok) return reserved;
  const { refund } = reserved;
  if (reserved.repeat) return repeatAnswer(deps, refund);
  if (reserved.settled) {
    deps.wakeOutbox();
    return reserved.settled;
  }
  const provider = deps.provider(refund.provider)!;
  const [invoice] = await deps.db.select().from(invoices).where(eq(invoices.id, refund.invoiceId)).limit(1);
  let outcome: RefundOutcome | null = null;
  let failure = "";
  try {
    outcome = await provider.refund({
      refundId: refund.id,
      invoiceId: refund.invoiceId,
      orderId: refund.orderId,
      paymentReference: invoice!.paymentReference!,
      amount: refund.amount,
      currency: refund.currency,
      // The form's token: a refund asked twice (a lost answer, a second process) is made once.
      idempotencyKey: `refund:${input.formToken}`,
    });
  } catch (error) {
    // Refused, or not reached: the amount is refundable again. Should the provider have made it after
    // all (a lost answer), its webhook records it then (a failed refund can still succeed).
    const reason = error instanceof Error ? error.message : String(error);
    deps.logger.warn({ refundId: refund.id, err: error }, "refund: the provider did not make it");
    failure = reason;
  }
  const settled = await deps.db.transaction(async (tx) => {
    await lockOrder(tx, refund.orderId);
    if (!outcome) {
      // No answer is not the provider's "failed": if its webhook recorded the refund meanwhile (the
      // answer was lost on the way back), that stands; otherwise the refund is given up on.
      const [now] = await tx
        .select({ status: refunds.status })
        .from(refunds)
        .where(eq(refunds.id, refund.id));
      outcome =
        now?.status === "succeeded"
          ? { status: "succeeded", providerRefundId: null }
          : { status: "failed", providerRefundId: null, failureReason: failure };
    }
    return settleRefund(tx, settleContext(deps), refund.id, outcome);
  });
  deps.logger.info({ refundId: refund.id, outcome: settled.outcome }, "refund asked of the provider");
  if (settled.outcome === "recorded") deps.wakeOutbox();
  return settledResult(settled);
}

/** The same form posted again: what the first post answered (or would now), never a second refund. */
async function repeatAnswer(deps: RefundDeps, made: Refund): Promise<ChangeResult> {
  const [now] = await deps.db.select().from(refunds).where(eq(refunds.id, made.id)).limit(1);
  const refund = now ?? made;
  if (refund.status === "pending") return { ok: true, message: PENDING_MESSAGE };
  if (refund.status === "failed")
    return settledResult({ outcome: "failed", message: "", failureReason: refund.failureReason });
  const [note] = await deps.db
    .select({ number: creditNotes.creditNoteNumber, invoiceNumber: invoices.invoiceNumber })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .where(eq(creditNotes.refundId, refund.id))
    .limit(1);
  return {
    ok: true,
    message: note ? recordedMessage(refund, note.invoiceNumber, note.number) : "The refund is recorded.",
  };
}

interface Settled {
  outcome: "recorded" | "already recorded" | "pending" | "failed" | "ignored";
  message: string;
  failureReason?: string | null;
}

function settledResult(s: Settled): ChangeResult {
  if (s.outcome === "failed")
    return {
      ok: false,
      status: 502,
      error: `The provider refused the refund: ${s.failureReason ?? "no reason given"}`,
    };
  return { ok: true, message: s.message };
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
      to: client.email,
      ...noticeEmail({
        business: ctx.business,
        publicUrl: ctx.publicUrl,
        subject: `Refund of ${amountText}: credit note ${note.creditNoteNumber}`,
        greetingName: client.name,
        lines: [
          `We have refunded ${amountText} of invoice ${invoice.invoiceNumber}${full ? ", its full amount" : ""}.`,
          `Credit note ${note.creditNoteNumber} records it. The money reaches you the way you paid, usually within 5–10 business days.`,
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

function recordedMessage(refund: Refund, invoiceNumber: string, creditNoteNumber: string): string {
  return `Refunded ${formatMoney(refund.amount, refund.currency)} of invoice ${invoiceNumber}: credit note ${creditNoteNumber}.`;
}

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

/** An invoice's refunds, newest first (the back office's invoice page). */
export async function refundsOfInvoice(tx: Pick<Tx, "select">, invoiceId: string): Promise<Refund[]> {
  return tx
    .select()
    .from(refunds)
    .where(eq(refunds.invoiceId, invoiceId))
    .orderBy(sql`${refunds.createdAt} desc`);
}
