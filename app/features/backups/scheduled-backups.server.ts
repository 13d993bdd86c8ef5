/**
 * Scheduled backups in the running site (ADR 0902): with BACKUP_DIR set, every process offers on a timer
 * and one at a time (a `job_leases` lease, as the payment sweep) takes a backup once the last one is
 * BACKUP_INTERVAL_HOURS old, records it in `backup_runs` (the back office shows the newest) and deletes
 * all but the newest BACKUP_KEEP backup files of the folder. The schedule lives in the database, so a
 * restart (a deploy) neither skips a backup nor takes an extra one.
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { desc, isNull, lt, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { DatabaseHandle } from "~/db/client.server";
import { backupRuns } from "~/db/schema";
import { acquireLease, releaseLease } from "~/features/jobs/leases.server";
import { backupDatabase } from "./backup.server";
import { backupsToPrune } from "./backup-files";

export const BACKUP_LEASE = "backup";
/** A backup that takes longer than this may meet a second one from another process (harmless). */
export const BACKUP_LEASE_MS = 60 * 60 * 1000;
/** After a failed backup the next attempt waits this long (or the interval, when shorter). */
export const BACKUP_RETRY_MS = 10 * 60 * 1000;
/** The timer offers at most this far apart (the interval itself when shorter). */
export const BACKUP_TICK_MAX_MS = 60 * 1000;
/** Rows of `backup_runs` kept (the newest). */
export const BACKUP_RUNS_KEPT = 200;

export interface ScheduledBackupDeps {
  database: DatabaseHandle;
  /** PostgreSQL's URL for pg_dump; null on PGlite. */
  postgresUrl: string | null;
  dir: string;
  intervalMs: number;
  keep: number;
  logger: Logger;
  /** The environment pg_dump runs with. */
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
}

export type ScheduledBackupOutcome =
  | { ran: false; reason: "busy" | "not-due" }
  | { ran: true; ok: true; file: string; sizeBytes: number; version: string; pruned: string[] }
  | { ran: true; ok: false; error: string };

export type BackupRun = typeof backupRuns.$inferSelect;

/** When the next backup is due, from the runs so far: the interval after the last good one, sooner retries. */
export function backupDue(
  last: { startedAt: Date; ok: boolean } | null,
  lastGood: { startedAt: Date } | null,
  now: Date,
  intervalMs: number,
): boolean {
  if (last && now.getTime() - last.startedAt.getTime() < Math.min(intervalMs, BACKUP_RETRY_MS)) return false;
  return !lastGood || now.getTime() - lastGood.startedAt.getTime() >= intervalMs;
}

/** The newest run, and the newest that succeeded. */
export async function latestBackupRuns(
  db: DatabaseHandle["db"],
): Promise<{ last: BackupRun | null; lastGood: BackupRun | null }> {
  const [last] = await db.select().from(backupRuns).orderBy(desc(backupRuns.startedAt)).limit(1);
  const [lastGood] = await db
    .select()
    .from(backupRuns)
    .where(isNull(backupRuns.error))
    .orderBy(desc(backupRuns.startedAt))
    .limit(1);
  return { last: last ?? null, lastGood: lastGood ?? null };
}

/** Deletes all but the newest `keep` backups in `dir` (files named as backups only); returns their names. */
export function pruneBackupFiles(dir: string, keep: number): string[] {
  const files = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => ({ name: d.name, mtimeMs: statSync(path.join(dir, d.name)).mtimeMs }));
  const doomed = backupsToPrune(files, keep);
  for (const name of doomed) rmSync(path.join(dir, name), { force: true });
  return doomed;
}

/** One offer: takes the lease, backs up if due, records the run, prunes. */
export async function runScheduledBackup(
  deps: ScheduledBackupDeps,
  options: { holder: string; now?: Date },
): Promise<ScheduledBackupOutcome> {
  const now = options.now ?? new Date();
  const db = deps.database.db;
  if (!(await acquireLease(db, BACKUP_LEASE, options.holder, now, BACKUP_LEASE_MS))) {
    return { ran: false, reason: "busy" };
  }
  try {
    const { last, lastGood } = await latestBackupRuns(db);
    const due = backupDue(
      last && { startedAt: last.startedAt, ok: last.error === null },
      lastGood,
      now,
      deps.intervalMs,
    );
    if (!due) return { ran: false, reason: "not-due" };
    try {
      const written = await backupDatabase(deps.database, {
        out: null,
        defaultDir: deps.dir,
        postgresUrl: deps.postgresUrl,
        env: deps.env,
        signal: deps.signal,
        now,
      });
      const finishedAt = new Date();
      await db.insert(backupRuns).values({
        startedAt: now,
        finishedAt,
        file: path.basename(written.file),
        sizeBytes: written.sizeBytes,
        schemaVersion: written.version,
        holder: options.holder,
      });
      const pruned = pruneBackupFiles(deps.dir, deps.keep);
      deps.logger.info(
        {
          file: written.file,
          bytes: written.sizeBytes,
          version: written.version,
          ms: finishedAt.getTime() - now.getTime(),
          pruned,
        },
        "backup written",
      );
      return { ran: true, ok: true, ...written, pruned };
    } catch (error) {
      if (deps.signal?.aborted) {
        // The process is stopping: not a failure; the next process takes it.
        deps.logger.info({ dir: deps.dir }, "backup stopped by the shutdown");
        return { ran: true, ok: false, error: "stopped by the shutdown" };
      }
      const message = (error as Error).message.slice(0, 1000);
      await db
        .insert(backupRuns)
        .values({ startedAt: now, finishedAt: new Date(), error: message, holder: options.holder });
      deps.logger.warn({ err: error, dir: deps.dir }, "backup failed");
      return { ran: true, ok: false, error: message };
    } finally {
      await db
        .delete(backupRuns)
        .where(
          lt(
            backupRuns.startedAt,
            sql`(select started_at from backup_runs order by started_at desc offset ${BACKUP_RUNS_KEPT - 1} limit 1)`,
          ),
        )
        .catch(() => {});
    }
  } finally {
    await releaseLease(db, BACKUP_LEASE, options.holder).catch(() => {});
  }
}

/** What the back office shows: the last good backup and, when the newest run failed, its error. */
/**
 * What the dashboard's backups card says (ADR 0902): the last good backup, the newest run's error, and,
 * when backups are scheduled, where they go and when the next one is due (never before `now`).
 */
export async function backupStatus(
  db: DatabaseHandle["db"],
  schedule: { dir: string; intervalMs: number } | null,
  now: Date = new Date(),
) {
  const { last, lastGood } = await latestBackupRuns(db);
  const due = lastGood ? lastGood.startedAt.getTime() + (schedule?.intervalMs ?? 0) : now.getTime();
  return {
    lastGood: lastGood && {
      at: lastGood.startedAt.toISOString(),
      file: lastGood.file ?? "",
      sizeBytes: Number(lastGood.sizeBytes ?? 0),
    },
    lastError: last && last.error !== null ? { at: last.startedAt.toISOString(), error: last.error } : null,
    schedule: schedule && { dir: schedule.dir, nextAt: new Date(Math.max(due, now.getTime())).toISOString() },
  };
}

/** How often a process offers: the interval, at most a minute. */
export function backupTickMs(intervalMs: number): number {
  return Math.max(250, Math.min(intervalMs, BACKUP_TICK_MAX_MS));
}
