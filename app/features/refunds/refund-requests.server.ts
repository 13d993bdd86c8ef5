/**
 * Asking for a refund (docs/decisions/0505-refunds-and-credit-notes.md): the owner's confirmation step
 * (`reviewRefund`) and the refund itself (`requestRefund`): the amount reserved as a pending refund
 * under the order's lock, the provider called outside any transaction, its answer recorded through
 * `settleRefund` (refund-settle.server.ts). A refund by hand is recorded at once.
 */
import { eq } from "drizzle-orm";
import type { Logger } from "pino";
import type { Tx } from "~/db/client.server";
import { creditNotes, type Invoice, invoices, type Order, orders, type Refund, refunds } from "~/db/schema";
import { type ChangeDeps, type ChangeResult, recordAudit } from "~/features/audit/audit.server";
import { formatMoney } from "~/features/money/format";
import { fromMinorUnits, parseAmountInput, toMinorUnits } from "~/features/money/minor-units";
import { lockOrder } from "~/features/orders/order-lifecycle.server";
import type { PaymentProvider, RefundOutcome } from "~/features/payments/provider";
import type { RefundReview } from "./refund-form";
import { type RefundVia, refundVia } from "./refund-queries.server";
import {
  PENDING_MESSAGE,
  recordedMessage,
  type SettleContext,
  type Settled,
  settleRefund,
  stillRefundable,
} from "./refund-settle.server";

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

const settleContext = (deps: Pick<ChangeDeps, "config">): SettleContext => ({
  business: deps.config.business,
  publicUrl: deps.config.publicUrl,
});

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

function settledResult(s: Settled): ChangeResult {
  if (s.outcome === "failed")
    return {
      ok: false,
      status: 502,
      error: `The provider refused the refund: ${s.failureReason ?? "no reason given"}`,
    };
  return { ok: true, message: s.message };
}
