/**
 * Restoring a backup (ADR 0902) into an empty data folder (PGLITE_DIR) or an empty database
 * (DATABASE_URL); a non-empty one only with `force`. The backup's schema version is checked before the
 * target is touched: a backup newer than this code's migrations is refused, an older one gets the
 * newer migrations once restored (the app's own migrate). On PGlite the tarball is loaded into a
 * staging folder beside the target and moved into place once checked and migrated, so a refused or
 * failed restore leaves the target as it was.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openAsBlob,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
} from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Config } from "~/config.server";
import { liveChannel } from "~/db/channel-file.server";
import { type DatabaseHandle, openDatabase, queryRows } from "~/db/client.server";
import { migrateDatabase } from "~/db/migrate.server";
import { type BackupKind, detectBackupKind } from "./backup-files";
import { dumpedMigrations, pgRestore } from "./pg-tools.server";
import { checkVersion, type JournalEntry, versionLabel } from "./schema-version";
import { appliedMigrations, codeJournal } from "./versions.server";

/** A restore that was not done, and why (nothing was changed). */
export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

export interface RestoreResult {
  /** The schema version the backup held. */
  version: string;
  /** The migrations applied after restoring (newer than the backup), oldest first. */
  applied: string[];
}

/** What a file holds, from its first bytes; refused when it is no backup of either kind. */
export function backupKindOf(file: string): BackupKind {
  if (!existsSync(file)) throw new RestoreRefused(`${file} does not exist`);
  const head = new Uint8Array(8);
  const fd = openSync(file, "r");
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const kind = detectBackupKind(head);
  if (!kind) {
    throw new RestoreRefused(
      `${file} is not a Portico backup (neither an embedded database's .pglite.tar.gz nor a pg_dump custom-format .pgdump)`,
    );
  }
  return kind;
}

/** The check of a backup's migrations against this code's; refuses an empty or newer one. */
function checked(file: string, applied: number[], journal: JournalEntry[]) {
  const check = checkVersion(applied, journal);
  if (check.kind === "empty") {
    throw new RestoreRefused(`${file} holds no Portico database (it has no applied migrations)`);
  }
  if (check.kind === "newer") {
    throw new RestoreRefused(
      `${file} holds schema version ${check.label}, newer than this code's migrations (the newest is ${check.codeTag}): ` +
        "restore it with the version of Portico that made it, or a newer one",
    );
  }
  return check;
}

/** After migrating: the restored database holds every migration of this code. */
async function confirmMigrated(handle: DatabaseHandle, journal: JournalEntry[]): Promise<void> {
  const after = checkVersion(await appliedMigrations(handle.db), journal);
  if (after.kind !== "known" || after.missing.length > 0) {
    throw new Error(
      `the restored database is at ${versionLabel(await appliedMigrations(handle.db), journal)} after migrating`,
    );
  }
}

export async function restorePglite(
  file: string,
  dir: string,
  options: { force: boolean },
): Promise<RestoreResult> {
  if (dir.startsWith("memory://")) {
    throw new RestoreRefused("PGLITE_DIR is memory://: there is no folder to restore into");
  }
  const channel = liveChannel(dir);
  if (channel) {
    throw new RestoreRefused(
      `a server (pid ${channel.pid}) is running on ${dir}: stop it first, then restore`,
    );
  }
  const occupied = existsSync(dir) && readdirSync(dir).length > 0;
  if (occupied && !options.force) {
    throw new RestoreRefused(
      `${dir} is not empty: restoring would replace the database in it. Add --force to replace it, or set PGLITE_DIR to an empty folder`,
    );
  }
  const journal = codeJournal();
  const target = path.resolve(dir);
  mkdirSync(path.dirname(target), { recursive: true });
  const staging = path.join(
    path.dirname(target),
    `.${path.basename(target)}.restoring-${process.pid}-${randomBytes(4).toString("hex")}`,
  );
  let handle: DatabaseHandle | null = null;
  try {
    handle = await openDatabase({ kind: "pglite", dir: staging }, undefined, {
      loadDataDir: await openAsBlob(file),
    });
    const check = checked(file, await appliedMigrations(handle.db), journal);
    await migrateDatabase(handle);
    await confirmMigrated(handle, journal);
    await handle.close();
    handle = null;
    // Only now is the old folder let go (--force), or the empty one replaced.
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    return { version: check.tag, applied: check.missing };
  } finally {
    await handle?.close().catch(() => {});
    rmSync(staging, { recursive: true, force: true });
  }
}

type PostgresConfig = Extract<Config["database"], { kind: "postgres" }>;

export async function restorePostgres(
  file: string,
  database: PostgresConfig,
  options: { force: boolean; env: Record<string, string | undefined> },
): Promise<RestoreResult> {
  const journal = codeJournal();
  // From the file alone, before the database is touched.
  const check = checked(file, await dumpedMigrations(file, options.env), journal);
  const handle = await openDatabase(database);
  try {
    const [objects] = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
           where s.nspname in ('public', 'drizzle') and c.relkind in ('r', 'p', 'v', 'm', 'S')`,
    );
    const [others] = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid()`,
    );
    const where = `${new URL(database.url).host}${new URL(database.url).pathname}`;
    if (objects!.n > 0 && !options.force) {
      throw new RestoreRefused(
        `the database ${where} is not empty (${objects!.n} tables and sequences): restoring would replace them. ` +
          "Add --force to replace its contents, or restore into a new database",
      );
    }
    if (others!.n > 0 && !options.force) {
      throw new RestoreRefused(
        `${others!.n} other connection(s) are open to ${where} (a running server?): stop the servers first, or add --force`,
      );
    }
    if (objects!.n > 0) {
      // --force: Portico's schemas go, then come back from the backup.
      await handle.db.execute(sql`drop schema if exists drizzle cascade`);
      await handle.db.execute(sql`drop schema if exists public cascade`);
      await handle.db.execute(sql`create schema public`);
    }
  } finally {
    await handle.close();
  }
  await pgRestore(database.url, file, options.env);
  const restored = await openDatabase(database);
  try {
    await migrateDatabase(restored);
    await confirmMigrated(restored, journal);
  } finally {
    await restored.close();
  }
  return { version: check.tag, applied: check.missing };
}
