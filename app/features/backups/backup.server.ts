/**
 * Writing a backup file: PGlite's own `dumpDataDir()` tarball of an open embedded database (the running
 * server, or the command line when no server holds the folder), or `pg_dump --format=custom` of a
 * PostgreSQL database. A file is written under a temporary name and renamed once complete, so a file
 * with a backup's name is always a whole backup; an existing file is never replaced.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { DatabaseHandle } from "~/db/client.server";
import { type BackupKind, backupFileName } from "./backup-files";
import { dumpedMigrations, pgDump } from "./pg-tools.server";
import { versionLabel } from "./schema-version";
import { appliedMigrations, codeJournal } from "./versions.server";

export interface WrittenBackup {
  /** The file's path. */
  file: string;
  sizeBytes: number;
  /** The schema version it holds, e.g. "0014_backup_runs". */
  version: string;
  kind: BackupKind;
  startedAt: Date;
}

/**
 * Where a backup goes: `out` names a file, or a folder (one that exists, or a path ending in a slash)
 * in which the backup gets its own name; without `out`, `defaultDir`.
 */
export function resolveOut(out: string | null, defaultDir: string): { dir: string; file: string | null } {
  if (!out) return { dir: defaultDir, file: null };
  const isDir = /[\\/]$/.test(out) || (existsSync(out) && statSync(out).isDirectory());
  return isDir ? { dir: out, file: null } : { dir: path.dirname(out), file: out };
}

export class BackupExists extends Error {
  override name = "BackupExists";
}

function refuseExisting(file: string): void {
  if (existsSync(file)) throw new BackupExists(`${file} already exists; nothing was written`);
}

function partialPath(dir: string): string {
  return path.join(dir, `.portico-backup-${process.pid}-${randomBytes(4).toString("hex")}.partial`);
}

/**
 * Streams a backup into place: a temporary file in the same folder, renamed to its name once every byte
 * is written (and, when given, as many as expected). Returns the path and size.
 */
export async function writeBackupStream(
  source: Readable,
  target: { dir: string; file: string | null },
  name: string,
  expectedBytes?: number,
): Promise<{ file: string; sizeBytes: number }> {
  mkdirSync(target.dir, { recursive: true });
  const file = target.file ?? path.join(target.dir, name);
  refuseExisting(file);
  const partial = partialPath(target.dir);
  try {
    await pipeline(source, createWriteStream(partial, { flags: "wx", mode: 0o600 }));
    const sizeBytes = statSync(partial).size;
    if (expectedBytes !== undefined && sizeBytes !== expectedBytes) {
      throw new Error(`the backup was cut short (${sizeBytes} of ${expectedBytes} bytes)`);
    }
    refuseExisting(file);
    renameSync(partial, file);
    return { file, sizeBytes };
  } finally {
    rmSync(partial, { force: true });
  }
}

/** The embedded database's tarball and schema version, from the process that holds it open. */
export async function dumpPglite(handle: DatabaseHandle): Promise<{ version: string; blob: Blob }> {
  if (!handle.pglite) throw new Error("not an embedded database");
  // The version first: migrations only run at start, so it cannot change before the dump.
  const version = versionLabel(await appliedMigrations(handle.db), codeJournal());
  // PGlite runs it between two queries: a crash-consistent copy of the folder (an open transaction is
  // not in it), which PostgreSQL's recovery makes whole when it is opened.
  const blob = await handle.pglite.dumpDataDir("gzip");
  return { version, blob };
}

export interface BackupOptions {
  /** `--out`: a file or a folder; null: `defaultDir`. */
  out: string | null;
  defaultDir: string;
  /** The database's URL on PostgreSQL (pg_dump connects on its own); null on PGlite. */
  postgresUrl: string | null;
  /** The environment pg_dump runs with (its PATH finds it). */
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
  now?: Date;
}

/** Backs up an open database (PGlite in this process) or a PostgreSQL database (pg_dump). */
export async function backupDatabase(handle: DatabaseHandle, options: BackupOptions): Promise<WrittenBackup> {
  const startedAt = options.now ?? new Date();
  const target = resolveOut(options.out, options.defaultDir);
  if (handle.kind === "pglite") {
    const { version, blob } = await dumpPglite(handle);
    const written = await writeBackupStream(
      Readable.fromWeb(blob.stream() as Parameters<typeof Readable.fromWeb>[0]),
      target,
      backupFileName(startedAt, version, "pglite"),
      blob.size,
    );
    return { ...written, version, kind: "pglite", startedAt };
  }
  if (!options.postgresUrl) throw new Error("the PostgreSQL database's URL is needed for pg_dump");
  return backupPostgres(options.postgresUrl, target, options.env, startedAt, options.signal);
}

/** pg_dump into a temporary file, its version read from the dump itself, then renamed to its name. */
export async function backupPostgres(
  url: string,
  target: { dir: string; file: string | null },
  env: Record<string, string | undefined>,
  startedAt: Date,
  signal?: AbortSignal,
): Promise<WrittenBackup> {
  mkdirSync(target.dir, { recursive: true });
  if (target.file) refuseExisting(target.file);
  const partial = partialPath(target.dir);
  try {
    await pgDump(url, partial, env, signal);
    // Readable by its owner only, as PGlite's backups are: it holds every account's data.
    chmodSync(partial, 0o600);
    const version = versionLabel(await dumpedMigrations(partial, env), codeJournal());
    const file = target.file ?? path.join(target.dir, backupFileName(startedAt, version, "pgdump"));
    refuseExisting(file);
    renameSync(partial, file);
    return { file, sizeBytes: statSync(file).size, version, kind: "pgdump", startedAt };
  } finally {
    rmSync(partial, { force: true });
  }
}
