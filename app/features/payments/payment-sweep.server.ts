/**
 * The payment sweep (ADR 0503): every process runs it on a timer, one at a time through a lease row
 * (`job_leases`, works on PGlite and PostgreSQL alike). It asks the provider about checkouts open for
 * more than ten minutes, a bounded batch per run (the least recently asked first), and applies the
 * answer: paid → the webhook's own processing (paid once); expired → the checkout is forgotten and its
 * order stays pending with its invoice (or the invoice stays open), for Pay Now; unknown → reported to
 * the back office and forgotten too; open → asked again next time. It stops between checkouts when the
 * process shuts down. The checkouts: a pending order's (kept on the order, as always), and one kept on
 * an open invoice of an order no longer pending — a quote's balance (ADR 0503 amended 2026-11-25).
 */
import { eq, sql } from "drizzle-orm";
import { type Database, queryRows } from "~/db/client.server";
import { invoices, orders } from "~/db/schema";
import { unpaidStatusSql } from "~/features/invoices/invoice-status.server";
import { acquireLease, releaseLease } from "~/features/jobs/leases.server";
import { recordPaymentIssue } from "./payment-issues.server";
import type { ProviderName } from "./provider";
import {
  applyPaidCheckout,
  type CheckoutRef,
  decideCheckout,
  forgetCheckout,
  forgetInvoiceCheckout,
  type ReconcileDeps,
} from "./reconcile.server";

export const SWEEP_LEASE = "payment-sweep";
/** A checkout is asked about once it has been pending this long (the webhook's chance first). */
export const SWEEP_PENDING_AFTER_MS = 10 * 60 * 1000;
export const SWEEP_BATCH = 50;
/** A lease outlives a run that dies without releasing it by this much at most. */
export const SWEEP_LEASE_MS = 5 * 60 * 1000;

export interface SweepOptions {
  now?: Date;
  /** Who holds the lease (a process id); a fresh one per call by default. */
  holder?: string;
  batch?: number;
  pendingAfterMs?: number;
  /** Asked between checkouts: true stops the run there (shutdown). */
  stopping?: () => boolean;
}

export interface SweepResult {
  /** False when another process holds the lease (nothing was done). */
  ran: boolean;
  checked: number;
  paid: number;
  expired: number;
  unknown: number;
  failed: number;
}

/** One checkout a run asks about. */
export interface SweepCandidate {
  /** The order it pays. */
  id: string;
  /** The invoice it was made for; null for a pending order's checkout made before invoices kept theirs. */
  invoiceId: string | null;
  provider: string;
  providerReference: string;
  /** Where it is kept: on its pending order (and invoice), or on an open invoice only (a balance's). */
  keptOn: "order" | "invoice";
}

/**
 * The checkouts a run asks about, older than the threshold, least recently asked first: pending orders'
 * (their `updated_at`, which Pay Now sets with a new checkout) and those kept on an open invoice of an
 * order that is neither pending nor cancelled (their `checkout_started_at`).
 */
export async function selectSweepCandidates(
  db: Database,
  now: Date,
  batch: number,
  pendingAfterMs: number,
): Promise<SweepCandidate[]> {
  const before = new Date(now.getTime() - pendingAfterMs).toISOString();
  const rows = await queryRows<{
    id: string;
    invoice_id: string | null;
    provider: string;
    reference: string;
    kept_on: "order" | "invoice";
  }>(
    db,
    // The order's invoice is looked up for the batch only; an invoice's order by its primary key.
    sql`
    select c.id, c.provider, c.reference, c.kept_on,
      coalesce(c.invoice_id, (select i.id from invoices i
        where c.kept_on = 'order' and i.order_id = c.id and i.checkout_reference = c.reference
        limit 1)) as invoice_id
    from (
      select o.id, null::uuid as invoice_id, o.provider, o.provider_reference as reference,
        'order' as kept_on, o.checkout_checked_at as checked_at, o.updated_at as since
      from orders o
      where o.status = 'pending' and o.provider_reference is not null
        and o.provider in ('sandbox', 'stripe') and o.updated_at < ${before}::timestamptz
      union all
      select i.order_id, i.id, i.checkout_provider, i.checkout_reference, 'invoice',
        i.checkout_checked_at, i.checkout_started_at
      from invoices i
      where i.checkout_reference is not null and ${unpaidStatusSql(sql`i.status`)}
        and i.checkout_provider in ('sandbox', 'stripe') and i.checkout_started_at < ${before}::timestamptz
        and (select o.status from orders o where o.id = i.order_id) not in ('pending', 'cancelled')
    ) c
    order by c.checked_at asc nulls first, c.since asc, c.id asc, c.invoice_id asc
    limit ${batch}
  `,
  );
  return rows.map((r) => ({
    id: r.id,
    invoiceId: r.invoice_id,
    provider: r.provider,
    providerReference: r.reference,
    keptOn: r.kept_on,
  }));
}

/** Forgets a checkout that ended unpaid, where it is kept; true when it was still there. */
function forget(db: Database, candidate: SweepCandidate): Promise<boolean> {
  return candidate.keptOn === "invoice" && candidate.invoiceId
    ? forgetInvoiceCheckout(db, candidate.invoiceId, candidate.providerReference)
    : forgetCheckout(db, candidate.id, candidate.providerReference);
}

/** Notes when the checkout was asked about, where it is kept (its row's `updated_at` left as it is). */
async function markChecked(db: Database, candidate: SweepCandidate, now: Date): Promise<void> {
  if (candidate.keptOn === "invoice" && candidate.invoiceId) {
    await db
      .update(invoices)
      .set({ checkoutCheckedAt: now, updatedAt: sql`${invoices.updatedAt}` })
      .where(eq(invoices.id, candidate.invoiceId));
  } else {
    await db
      .update(orders)
      .set({ checkoutCheckedAt: now, updatedAt: sql`${orders.updatedAt}` })
      .where(eq(orders.id, candidate.id));
  }
}

export async function sweepPendingCheckouts(
  deps: ReconcileDeps,
  options: SweepOptions = {},
): Promise<SweepResult> {
  const now = options.now ?? new Date();
  const holder = options.holder ?? `sweep-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const result: SweepResult = { ran: false, checked: 0, paid: 0, expired: 0, unknown: 0, failed: 0 };
  if (!(await acquireLease(deps.db, SWEEP_LEASE, holder, now, SWEEP_LEASE_MS))) return result;
  result.ran = true;
  try {
    const candidates = await selectSweepCandidates(
      deps.db,
      now,
      options.batch ?? SWEEP_BATCH,
      options.pendingAfterMs ?? SWEEP_PENDING_AFTER_MS,
    );
    for (const candidate of candidates) {
      if (options.stopping?.()) break;
      const reference = candidate.providerReference;
      const name = candidate.provider as ProviderName;
      const provider = deps.provider(name);
      if (!reference || !provider) continue;
      result.checked++;
      try {
        const answer = await provider.retrieveCheckout(reference);
        const decision = decideCheckout(answer.status);
        const checkout: CheckoutRef = {
          id: candidate.id,
          provider: name,
          providerReference: reference,
          invoiceId: candidate.invoiceId,
        };
        if (decision === "pay") {
          const outcome = await applyPaidCheckout(deps, checkout, answer, "sweep");
          if (outcome === "applied") result.paid++;
        } else if (decision === "expire") {
          if (await forget(deps.db, candidate)) result.expired++;
        } else if (decision === "report-unknown") {
          await recordPaymentIssue(deps.db, {
            kind: "unknown-checkout",
            orderId: candidate.id,
            provider: name,
            reference,
            detail: `${name} does not know checkout ${reference}`,
          });
          if (await forget(deps.db, candidate)) result.unknown++;
        }
      } catch (error) {
        result.failed++;
        deps.logger.warn(
          { err: error, orderId: candidate.id },
          "payment sweep: the provider could not be asked",
        );
      }
      await markChecked(deps.db, candidate, now);
    }
  } finally {
    await releaseLease(deps.db, SWEEP_LEASE, holder).catch(() => {});
  }
  return result;
}
