/**
 * The payment sweep (ADR 0503): every process runs it on a timer, one at a time through a lease row
 * (`job_leases`, works on PGlite and PostgreSQL alike). It asks the provider about checkouts pending
 * for more than ten minutes, a bounded batch per run (the least recently asked first), and applies the
 * answer: paid → the webhook's own processing (paid once); expired → the order forgets the checkout
 * and stays pending with its invoice, for Pay Now; unknown → reported to the back office and forgotten
 * too; open → asked again next time. It stops between checkouts when the process shuts down.
 */
import { and, asc, eq, inArray, isNotNull, lt, sql } from "drizzle-orm";
import { type Database, queryRows } from "~/db/client.server";
import { orders } from "~/db/schema";
import { recordPaymentIssue } from "./payment-issues.server";
import type { ProviderName } from "./provider";
import { applyPaidCheckout, decideCheckout, forgetCheckout, type ReconcileDeps } from "./reconcile.server";

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

/** Takes the sweep's lease until `now + SWEEP_LEASE_MS`, unless another holder's lease is still running. */
export async function acquireLease(db: Database, name: string, holder: string, now: Date, ms: number) {
  const expires = new Date(now.getTime() + ms);
  const rows = await queryRows<{ name: string }>(
    db,
    sql`
    insert into job_leases (name, holder, expires_at) values (${name}, ${holder}, ${expires.toISOString()}::timestamptz)
    on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
    where job_leases.expires_at <= ${now.toISOString()}::timestamptz or job_leases.holder = excluded.holder
    returning name
  `,
  );
  return rows.length > 0;
}

export async function releaseLease(db: Database, name: string, holder: string): Promise<void> {
  await db.execute(sql`delete from job_leases where name = ${name} and holder = ${holder}`);
}

/** The checkouts a run asks about: pending orders with a provider checkout older than the threshold. */
export async function selectSweepCandidates(db: Database, now: Date, batch: number, pendingAfterMs: number) {
  const before = new Date(now.getTime() - pendingAfterMs);
  return db
    .select({ id: orders.id, provider: orders.provider, providerReference: orders.providerReference })
    .from(orders)
    .where(
      and(
        eq(orders.status, "pending"),
        isNotNull(orders.providerReference),
        inArray(orders.provider, ["sandbox", "stripe"]),
        lt(orders.updatedAt, before),
      ),
    )
    .orderBy(sql`${orders.checkoutCheckedAt} asc nulls first`, asc(orders.updatedAt), asc(orders.id))
    .limit(batch);
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
        const order = { id: candidate.id, provider: name, providerReference: reference };
        if (decision === "pay") {
          const outcome = await applyPaidCheckout(deps, order, answer, "sweep");
          if (outcome === "applied") result.paid++;
        } else if (decision === "expire") {
          if (await forgetCheckout(deps.db, candidate.id, reference)) result.expired++;
        } else if (decision === "report-unknown") {
          await recordPaymentIssue(deps.db, {
            kind: "unknown-checkout",
            orderId: candidate.id,
            provider: name,
            reference,
            detail: `${name} does not know checkout ${reference}`,
          });
          if (await forgetCheckout(deps.db, candidate.id, reference)) result.unknown++;
        }
      } catch (error) {
        result.failed++;
        deps.logger.warn(
          { err: error, orderId: candidate.id },
          "payment sweep: the provider could not be asked",
        );
      }
      await deps.db
        .update(orders)
        .set({ checkoutCheckedAt: now, updatedAt: sql`${orders.updatedAt}` })
        .where(eq(orders.id, candidate.id));
    }
  } finally {
    await releaseLease(deps.db, SWEEP_LEASE, holder).catch(() => {});
  }
  return result;
}
