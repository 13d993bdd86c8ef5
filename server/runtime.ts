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
import { promoteListedAdmins } from "~/features/accounts/admin-accounts.server";
import { type Auth, createAuth } from "~/features/accounts/auth.server";
import {
  type AllAccountEmails,
  accountEmails as createAccountEmails,
} from "~/features/accounts/emails.server";
import { type AdminChannel, startAdminChannel } from "~/features/admin/local-channel.server";
import { dumpPglite } from "~/features/backups/backup.server";
import { findPgTool, pgToolMissing } from "~/features/backups/pg-tools.server";
import { type CurrencyServices, createCurrencyServices } from "~/features/currency/services.server";
import { type DomainCheckDeps, domainCheckDeps } from "~/features/domain-checks/check-domain.server";
import { createJobRunner } from "~/features/jobs/runner.server";
import { createLiveHub, type LiveHub } from "~/features/live/live-hub.server";
import { type OutboxWorker, startMailOutbox } from "~/features/mail/mail.server";
import { createPaymentProviders, type PaymentProviders } from "~/features/payments/provider.server";
import { createDrain, type Drain } from "./drain";
import { loggerOptions } from "./log-serializers";
import { createMetrics, type Metrics } from "./metrics";
import { timedJobs } from "./timed-jobs";

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
  /** The domain checker's resolver, safe network and RDAP bootstrap cache: one per process (ADR 0540). */
  domainChecker: DomainCheckDeps;
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
    const { servicesAdded, plansAdded } = await seedDatabase(database.db);
    logger.info({ database: database.kind, servicesAdded, plansAdded }, "database ready");
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  const outbox = startMailOutbox(config, database.db, logger);
  const live = createLiveHub(
    database,
    logger,
    config.database.kind === "postgres" ? config.database.url : null,
  );
  // Rendered public pages show the catalogue: a change made by any process empties this one's cache.
  live.onBroadcast((kind) => {
    if (kind === null || kind === "catalogue") invalidatePageCache();
  });
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
  const currency = createCurrencyServices(config.currency, logger);
  const domainChecker = domainCheckDeps(config.domainChecks, {
    ...(config.domainChecks.extraCa ? { ca: config.domainChecks.extraCa } : {}),
  });
  // The metrics exist before the jobs that count into them.
  const metrics = createMetrics({ database, live });
  // Every timed job, one runner: each process offers each job, one at a time runs it (its lease).
  const jobs = createJobRunner({ db: database.db, logger });
  for (const job of timedJobs({
    config,
    database,
    logger,
    wakeOutbox: () => outbox.wake(),
    payments,
    env: process.env,
    rates: async () => (await currency.rates.get()).rates,
    domainChecker,
    countDomainWatch: metrics.countDomainWatch,
  }))
    jobs.register(job);
  jobs.start();
  const backups = config.backups;
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
    currency,
    outbox,
    auth,
    accountEmails,
    payments,
    live,
    drain: createDrain(),
    queryCounts: new Map(),
    metrics,
    domainChecker,
    close: () => {
      // The runner stops its ticks, tells running jobs to stop (a pg_dump under way ends, its partial
      // file removed; a PGlite dump finishes first) and waits for them, before the database closes.
      closed ??= Promise.all([outbox.stop(), adminChannel?.close(), live.close(), jobs.stop()]).then(() =>
        database.close(),
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
