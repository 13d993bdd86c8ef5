/**
 * The site's timed jobs, as the periodic-job runner takes them (features/jobs/runner.server.ts): each a
 * name (its lease's), an interval, a lease length and its work. Every process offers each one; one at a
 * time runs it. A job that takes its own lease too (the sweep, quote expiry, backups: ADR 0503, 0902)
 * is given the runner's holder, so its lease is the runner's, renewed. A new timed job (renewals) is a
 * new entry here.
 */
import type { Logger } from "pino";
import type { Config } from "~/config.server";
import type { DatabaseHandle } from "~/db/client.server";
import {
  BACKUP_LEASE,
  BACKUP_LEASE_MS,
  backupTickMs,
  runScheduledBackup,
} from "~/features/backups/scheduled-backups.server";
import type { Rates } from "~/features/currency/currency";
import type { DomainCheckDeps } from "~/features/domain-checks/check-domain.server";
import {
  DOMAIN_WATCH_JOB,
  type DomainWatchDeps,
  pruneDomainHistory,
  runDueDomainChecks,
} from "~/features/domain-checks/watch.server";
import { markOverdueInvoices } from "~/features/invoices/overdue.server";
import type { PeriodicJob } from "~/features/jobs/runner.server";
import { pruneLiveEvents } from "~/features/live/live-hub.server";
import { SWEEP_LEASE, SWEEP_LEASE_MS, sweepPendingCheckouts } from "~/features/payments/payment-sweep.server";
import type { ProviderName } from "~/features/payments/provider";
import type { PaymentProviders } from "~/features/payments/provider.server";
import { PLAN_STATES_JOB, settlePlans } from "~/features/plans/plan-states.server";
import { chargeDueRenewals, RENEWAL_CHARGES_JOB } from "~/features/plans/renewal-charges.server";
import { issueDueRenewals, RENEWALS_JOB } from "~/features/plans/renewals.server";
import {
  QUOTE_EXPIRY_LEASE,
  QUOTE_EXPIRY_LEASE_MS,
  runQuoteExpiry,
} from "~/features/quotes/quote-expiry.server";
import { pruneRateLimits } from "~/features/rate-limit/rate-limit.server";

const HOUR_MS = 60 * 60 * 1000;
const FIVE_MINUTES_MS = 5 * 60 * 1000;

export interface TimedJobDeps {
  config: Config;
  database: DatabaseHandle;
  logger: Logger;
  /** Wakes this process's outbox after a job queued email. */
  wakeOutbox: () => void;
  payments: Pick<PaymentProviders, "forWebhook">;
  env: Record<string, string | undefined>;
  /** The current exchange rates (units per USD): a renewal converts its plan's USD price with them. */
  rates: () => Promise<Rates>;
  /** The domain checker of this process (ADR 0540). */
  domainChecker: DomainCheckDeps;
  /** Counts the watch's checks and alerts for /metrics. */
  countDomainWatch?: DomainWatchDeps["count"];
}

/** What the domain watch is given from a process's timed-job deps. */
function domainWatchDeps(deps: TimedJobDeps): DomainWatchDeps {
  return {
    db: deps.database.db,
    checker: deps.domainChecker,
    business: deps.config.business,
    publicUrl: deps.config.publicUrl,
    wakeOutbox: deps.wakeOutbox,
    count: deps.countDomainWatch,
  };
}

export function timedJobs(deps: TimedJobDeps): PeriodicJob[] {
  const { config, database, logger, wakeOutbox } = deps;
  const db = database.db;
  // What the jobs that record payments share: the database, the business on receipts, the providers.
  const paymentDeps = {
    db,
    business: config.business,
    publicUrl: config.publicUrl,
    wakeOutbox,
    logger,
    provider: (name: ProviderName) => deps.payments.forWebhook(name),
  };
  const jobs: PeriodicJob[] = [
    // Housekeeping: old rate-limit windows go; old live events go too (they only serve streams
    // reconnecting after a short drop).
    {
      name: "rate-limit-pruning",
      intervalMs: HOUR_MS,
      leaseMs: FIVE_MINUTES_MS,
      run: async () => {
        await pruneRateLimits(db);
      },
    },
    {
      name: "live-event-pruning",
      intervalMs: HOUR_MS,
      leaseMs: FIVE_MINUTES_MS,
      run: async () => {
        await pruneLiveEvents(db);
      },
    },
    // Sent invoices past their due date become overdue.
    {
      name: "overdue-invoices",
      intervalMs: config.overdueCheckIntervalMs,
      leaseMs: FIVE_MINUTES_MS,
      run: async ({ now }) => {
        const marked = await markOverdueInvoices(db, now);
        if (marked) logger.info({ marked }, "invoices marked overdue");
      },
    },
    // Sent quotes past their valid-until day expire, both sides told (on the overdue job's interval).
    {
      name: QUOTE_EXPIRY_LEASE,
      intervalMs: config.overdueCheckIntervalMs,
      leaseMs: QUOTE_EXPIRY_LEASE_MS,
      run: async ({ now, holder }) => {
        const r = await runQuoteExpiry({ db, config, wakeOutbox }, { now, holder });
        if (r.expired) logger.info({ expired: r.expired }, "quotes expired");
      },
    },
    // Care plans' renewal invoices, issued the notice's days before each period (ADR 0531). Hourly: a
    // period is due by the day, and a run that finds nothing due costs one query.
    {
      name: RENEWALS_JOB,
      intervalMs: HOUR_MS,
      leaseMs: FIVE_MINUTES_MS,
      run: async ({ now, stopping }) => {
        const issued = await issueDueRenewals({ db, config, rates: deps.rates }, now, stopping);
        if (issued.length) {
          logger.info({ issued: issued.length }, "care plan renewals issued");
          wakeOutbox();
        }
      },
    },
    // Care plans' states (ADR 0531): a paid plan starts, a card saved by a payment or a card update is
    // read back, a declined plan paid by hand is active again, a plan cancelled at its period's end ends.
    // Every minute: the client's page reads a paid plan as active before this runs.
    {
      name: PLAN_STATES_JOB,
      intervalMs: 60_000,
      leaseMs: FIVE_MINUTES_MS,
      run: async ({ now, stopping }) => {
        const r = await settlePlans(paymentDeps, now, stopping);
        const changed = r.started.length + r.cards.length + r.reactivated.length + r.ended.length;
        if (changed) logger.info({ ...r }, "care plans settled");
      },
    },
    // Renewal invoices charged on their due day, declines retried on days 1, 3 and 7 (ADR 0531).
    {
      name: RENEWAL_CHARGES_JOB,
      intervalMs: HOUR_MS,
      leaseMs: FIVE_MINUTES_MS,
      run: async ({ now, stopping }) => {
        const results = await chargeDueRenewals(paymentDeps, now, stopping);
        if (results.length) logger.info({ results: results.length }, "care plan renewals charged");
      },
    },
    // The domain watch (issue 39, ADR 0541): the domains due, a batch a run, a few at once; each domain's
    // next check is a day or a week on, with jitter. Every minute: a run with nothing due is one query.
    {
      name: DOMAIN_WATCH_JOB,
      intervalMs: 60_000,
      leaseMs: FIVE_MINUTES_MS,
      run: async ({ now, stopping }) => {
        const r = await runDueDomainChecks(domainWatchDeps(deps), now, { stopping });
        if (r.checked || r.failed) logger.info({ ...r }, "domains checked");
      },
    },
    {
      name: "domain-history-pruning",
      intervalMs: HOUR_MS * 24,
      leaseMs: FIVE_MINUTES_MS,
      run: async ({ now }) => {
        await pruneDomainHistory(db, now);
      },
    },
    // Checkouts whose webhook never came: the provider is asked (ADR 0503).
    {
      name: SWEEP_LEASE,
      intervalMs: config.paymentSweepIntervalMs,
      leaseMs: SWEEP_LEASE_MS,
      run: async ({ now, holder, stopping }) => {
        const r = await sweepPendingCheckouts(paymentDeps, {
          now,
          holder,
          stopping,
          pendingAfterMs: config.paymentSweepPendingAfterMs,
        });
        if (r.checked) logger.info({ ...r }, "payment sweep ran");
      },
    },
  ];
  // Scheduled backups (BACKUP_DIR), taken once due (ADR 0902); a pg_dump under way stops with the runner.
  const backups = config.backups;
  if (backups.dir) {
    const dir = backups.dir;
    jobs.push({
      name: BACKUP_LEASE,
      intervalMs: backupTickMs(backups.intervalMs),
      leaseMs: BACKUP_LEASE_MS,
      run: async ({ now, holder, signal }) => {
        await runScheduledBackup(
          {
            database,
            postgresUrl: config.database.kind === "postgres" ? config.database.url : null,
            dir,
            intervalMs: backups.intervalMs,
            keep: backups.keep,
            logger,
            env: deps.env,
            signal,
          },
          { holder, now },
        );
      },
    });
  }
  return jobs;
}
