/**
 * The process-wide parts of Portico: configuration, logger and database. Created once per process
 * by `startPortico` and handed to every request through the React Router load context.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import pino, { type Logger } from "pino";
import { type Config, loadConfig } from "~/config.server";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { migrateDatabase } from "~/db/migrate.server";
import { seedDatabase } from "~/db/seed.server";
import { invalidatePageCache } from "~/delivery/page-cache.server";
import { type Auth, createAuth } from "~/features/accounts/auth.server";
import {
  type AllAccountEmails,
  accountEmails as createAccountEmails,
} from "~/features/accounts/emails.server";
import { promoteListedAdmins } from "~/features/admin/admin-accounts.server";
import { type AdminChannel, startAdminChannel } from "~/features/admin/local-channel.server";
import { dumpPglite } from "~/features/backups/backup.server";
import { findPgTool, pgToolMissing } from "~/features/backups/pg-tools.server";
import { backupTickMs, runScheduledBackup } from "~/features/backups/scheduled-backups.server";
import { type CurrencyServices, createCurrencyServices } from "~/features/currency/services.server";
import { markOverdueInvoices } from "~/features/invoices/overdue.server";
import { createLiveHub, type LiveHub, pruneLiveEvents } from "~/features/live/live-hub.server";
import { type OutboxWorker, startMailOutbox } from "~/features/mail/mail.server";
import { sweepPendingCheckouts } from "~/features/payments/payment-sweep.server";
import { createPaymentProviders, type PaymentProviders } from "~/features/payments/provider.server";
import { runQuoteExpiry } from "~/features/quotes/quote-expiry.server";
import { pruneRateLimits } from "~/features/rate-limit/rate-limit.server";
import { createDrain, type Drain } from "./drain";
import { loggerOptions } from "./log-serializers";
import { createMetrics, type Metrics } from "./metrics";

const HOUR_MS = 60 * 60 * 1000;

export interface Runtime {
  config: Config;
  /** The secret that signs sessions and tokens (AUTH_SECRET, or one generated for the embedded database). */
  authSecret: string;
  logger: Logger;
  database: DatabaseHandle;
  /** Exchange rates (cached, shared) and visitor location detection. */
  currency: CurrencyServices;
  /** This process's email outbox worker; `wake()` it after committing a queued email. */
  outbox: OutboxWorker;
  /** better-auth: sessions, sign-up, sign-in, verification, password reset. */
  auth: Auth;
  /** Queues the account emails (verification, welcome, password reset). */
  accountEmails: AllAccountEmails;
  /** The payment provider new checkouts use, and the webhook verifiers (PAYMENT_PROVIDER). */
  payments: PaymentProviders;
  /** This process's live-updates listener: fans `portico_live` notifications out to open streams. */
  live: LiveHub;
  /**
   * Requests in flight and the work they started (loaders, actions, after-response writes): the
   * shutdown waits for it before `close()` (server/shutdown.ts).
   */
  drain: Drain;
  /** Queries run per recent request id (the portal's query budget is tested with it). */
  queryCounts: Map<string, number>;
  /** This process's metrics, served at /metrics (server/metrics.ts). */
  metrics: Metrics;
  /**
   * Stops the workers (each after its current job) and the live listener, then closes the database.
   * Safe to call more than once.
   */
  close(): Promise<void>;
}

export async function createRuntime(env: Record<string, string | undefined> = process.env): Promise<Runtime> {
  const config = loadConfig(env);
  // Every line goes through one set of serializers: no client objects, secrets or dumps (log-serializers.ts).
  const logger = pino({ level: config.logLevel, base: { app: "portico" }, ...loggerOptions });
  const authSecret = resolveAuthSecret(config);
  const database = await openDatabase(config.database, logger.child({ component: "database" }));
  try {
    await migrateDatabase(database);
    const { servicesAdded } = await seedDatabase(database.db);
    logger.info({ database: database.kind, servicesAdded }, "database ready");
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  const outbox = startMailOutbox(config, database.db, logger);
  // Hourly housekeeping: old rate-limit windows go (every process may do it; the delete is idempotent).
  // Old live events go too: they only serve streams reconnecting after a short drop.
  // Jobs running now: closing waits for them, so none meets a closed database.
  const jobs = new Set<Promise<unknown>>();
  const job = (work: Promise<unknown>) => {
    jobs.add(work);
    void work.finally(() => jobs.delete(work));
  };
  const housekeeping = setInterval(() => {
    job(
      pruneRateLimits(database.db).catch((error: unknown) =>
        logger.warn({ err: error }, "rate-limit pruning failed"),
      ),
    );
    job(
      pruneLiveEvents(database.db).catch((error: unknown) =>
        logger.warn({ err: error }, "live-event pruning failed"),
      ),
    );
  }, HOUR_MS);
  housekeeping.unref();
  const live = createLiveHub(
    database,
    logger,
    config.database.kind === "postgres" ? config.database.url : null,
  );
  // Rendered public pages show the catalogue: a change made by any process empties this one's cache.
  live.onBroadcast((kind) => {
    if (kind === null || kind === "catalogue") invalidatePageCache();
  });
  // Sent invoices past their due date become overdue (safe on every process: rows are claimed).
  let overdueRunning = false;
  let stopping = false;
  const runOverdue = () => {
    if (overdueRunning || stopping) return;
    overdueRunning = true;
    const run = markOverdueInvoices(database.db)
      .then((marked) => {
        if (marked) logger.info({ marked }, "invoices marked overdue");
      })
      .catch((error: unknown) => logger.warn({ err: error }, "overdue job failed"))
      .finally(() => {
        overdueRunning = false;
      });
    job(run);
  };
  const overdueJob = setInterval(runOverdue, config.overdueCheckIntervalMs);
  overdueJob.unref();
  // Sent quotes past their valid-until day expire, both sides told: on the overdue job's timer, one
  // process at a time (a lease row, as the payment sweep).
  let expiryRunning = false;
  const runExpiry = () => {
    if (expiryRunning || stopping) return;
    expiryRunning = true;
    const run = runQuoteExpiry({ db: database.db, config, wakeOutbox: () => outbox.wake() })
      .then((r) => {
        if (r.expired) logger.info({ expired: r.expired }, "quotes expired");
      })
      .catch((error: unknown) => logger.warn({ err: error }, "quote expiry job failed"))
      .finally(() => {
        expiryRunning = false;
      });
    job(run);
  };
  const expiryJob = setInterval(runExpiry, config.overdueCheckIntervalMs);
  expiryJob.unref();
  if (config.testHooks) logger.warn("TEST_HOOKS is on: /api/test-hooks/* can create orders and payments");
  const accountEmails = createAccountEmails(config, database.db, outbox);
  const auth = createAuth({
    config,
    db: database.db,
    secret: authSecret,
    logger,
    emails: accountEmails,
    onVerified: async (u) => {
      await promoteListedAdmins(database.db, config.adminEmails, u.email);
    },
  });
  // ADMIN_EMAILS added after an account was verified still take effect (at the next start).
  await promoteListedAdmins(database.db, config.adminEmails);
  // On the embedded database, `npm run admin:create` reaches this process through a local channel.
  let adminChannel: AdminChannel | null = null;
  if (config.database.kind === "pglite" && !config.database.dir.startsWith("memory://")) {
    adminChannel = await startAdminChannel({
      pgliteDir: config.database.dir,
      db: database.db,
      logger,
      // `npm run db:backup` while the site runs (ADR 0902).
      backup: () => dumpPglite(database),
    });
  }
  const payments = createPaymentProviders({
    config,
    authSecret,
    business: config.business,
    db: database.db,
  });
  // Checkouts whose webhook never came: one process at a time asks the provider (ADR 0503).
  let sweepRunning = false;
  const runSweep = () => {
    if (sweepRunning || stopping) return;
    sweepRunning = true;
    const run = sweepPendingCheckouts(
      {
        db: database.db,
        business: config.business,
        publicUrl: config.publicUrl,
        wakeOutbox: () => outbox.wake(),
        logger,
        provider: (name) => payments.forWebhook(name),
      },
      { stopping: () => stopping, pendingAfterMs: config.paymentSweepPendingAfterMs },
    )
      .then((r) => {
        if (r.checked) logger.info({ ...r }, "payment sweep ran");
      })
      .catch((error: unknown) => logger.warn({ err: error }, "payment sweep failed"))
      .finally(() => {
        sweepRunning = false;
      });
    job(run);
  };
  const sweepJob = setInterval(runSweep, config.paymentSweepIntervalMs);
  sweepJob.unref();
  // Scheduled backups (BACKUP_DIR): every process offers, one at a time takes one when due (ADR 0902).
  let backupRunning = false;
  const backupAbort = new AbortController();
  const backupHolder = `backup-${process.pid}-${randomBytes(6).toString("hex")}`;
  const backups = config.backups;
  const runBackup = () => {
    if (backupRunning || stopping || !backups.dir) return;
    backupRunning = true;
    const run = runScheduledBackup(
      {
        database,
        postgresUrl: config.database.kind === "postgres" ? config.database.url : null,
        dir: backups.dir,
        intervalMs: backups.intervalMs,
        keep: backups.keep,
        logger,
        env: process.env,
        signal: backupAbort.signal,
      },
      { holder: backupHolder },
    )
      .catch((error: unknown) => logger.warn({ err: error }, "scheduled backup could not run"))
      .finally(() => {
        backupRunning = false;
      });
    job(run);
  };
  const backupJob = backups.dir ? setInterval(runBackup, backupTickMs(backups.intervalMs)) : null;
  backupJob?.unref();
  if (backups.dir && config.database.kind === "postgres" && !findPgTool("pg_dump", process.env)) {
    logger.warn(
      { dir: backups.dir },
      `BACKUP_DIR is set but no backup can be made: ${pgToolMissing("pg_dump")}`,
    );
  }
  let closed: Promise<void> | null = null;
  return {
    config,
    authSecret,
    logger,
    database,
    currency: createCurrencyServices(config.currency, logger),
    outbox,
    auth,
    accountEmails,
    payments,
    live,
    drain: createDrain(),
    queryCounts: new Map(),
    metrics: createMetrics({ database, live }),
    close: () => {
      stopping = true;
      clearInterval(housekeeping);
      clearInterval(overdueJob);
      clearInterval(expiryJob);
      clearInterval(sweepJob);
      if (backupJob) clearInterval(backupJob);
      // A pg_dump under way is stopped (its partial file removed); a PGlite dump finishes first.
      backupAbort.abort();
      closed ??= Promise.all([outbox.stop(), adminChannel?.close(), live.close(), Promise.all(jobs)]).then(
        () => database.close(),
      );
      return closed;
    },
  };
}

/**
 * AUTH_SECRET when set. Otherwise, on the embedded database, a random secret made once and kept beside
 * the data (so `npm start` works on a fresh clone and sessions survive restarts), or a per-process one
 * for an in-memory database. loadConfig already refused production on PostgreSQL without it.
 */
function resolveAuthSecret(config: Config): string {
  if (config.authSecret) return config.authSecret;
  if (config.database.kind === "postgres" || config.database.dir.startsWith("memory://")) {
    return randomBytes(32).toString("base64url");
  }
  const file = path.join(config.database.dir, "..", ".auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
