/**
 * `npm run db:backup [-- --out FILE]` and `npm run db:restore -- FILE [--force]` (ADR 0902), run from
 * the build by scripts/db-backup.js and scripts/db-restore.js.
 *
 * Backup: on the embedded database, through the running server's local channel when a server holds the
 * folder (PGlite lets one process open it), else by opening the folder; on PostgreSQL with pg_dump.
 * Restore: into an empty folder or database (a non-empty one with --force), checking the backup's
 * schema version, then applying this code's newer migrations.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { loadConfig } from "~/config.server";
import { BACKUP_STARTED_HEADER, liveChannel, SCHEMA_VERSION_HEADER } from "~/db/channel-file.server";
import { openDatabase } from "~/db/client.server";
import {
  backupDatabase,
  backupPostgres,
  resolveOut,
  type WrittenBackup,
  writeBackupStream,
} from "./backup.server";
import { backupFileName, formatBytes } from "./backup-files";
import { PgToolMissing } from "./pg-tools.server";
import { backupKindOf, RestoreRefused, restorePglite, restorePostgres } from "./restore.server";

export interface DbCliIo {
  out(line: string): void;
  err(line: string): void;
}

const BACKUP_USAGE = "Usage: npm run db:backup [-- --out FILE-OR-FOLDER]";
const RESTORE_USAGE = "Usage: npm run db:restore -- FILE [--force]";

/** Where backups go without --out: BACKUP_DIR, else ./backups. */
function defaultBackupDir(env: Record<string, string | undefined>): string {
  return env.BACKUP_DIR || "backups";
}

function where(url: string): string {
  const u = new URL(url);
  return `${u.host}${u.pathname}`;
}

/** Returns the exit code. */
export async function runDbBackup(
  argv: string[],
  env: Record<string, string | undefined>,
  io: DbCliIo,
): Promise<number> {
  let values: { out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { out: { type: "string", short: "o" }, help: { type: "boolean", short: "h" } },
      strict: true,
    }));
  } catch (error) {
    io.err(`${(error as Error).message}\n${BACKUP_USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(BACKUP_USAGE);
    return 0;
  }
  let written: WrittenBackup;
  let how: string;
  try {
    const config = loadConfig(env);
    const defaultDir = defaultBackupDir(env);
    if (config.database.kind === "postgres") {
      written = await backupPostgres(
        config.database.url,
        resolveOut(values.out ?? null, defaultDir),
        env,
        new Date(),
      );
      how = `of PostgreSQL (${where(config.database.url)}) with pg_dump`;
    } else {
      const dir = config.database.dir;
      if (dir.startsWith("memory://"))
        throw new Error("PGLITE_DIR is memory://: there is nothing on disk to back up");
      const channel = liveChannel(dir);
      if (channel) {
        written = await backupThroughChannel(channel, resolveOut(values.out ?? null, defaultDir));
        how = `of the embedded database at ${dir}, through the running server (pid ${channel.pid})`;
      } else {
        if (!existsSync(path.join(dir, "PG_VERSION"))) {
          throw new Error(`there is no embedded database at ${dir} (PGLITE_DIR) to back up`);
        }
        const database = await openDatabase(config.database);
        try {
          written = await backupDatabase(database, {
            out: values.out ?? null,
            defaultDir,
            postgresUrl: null,
            env,
          });
        } finally {
          await database.close();
        }
        how = `of the embedded database at ${dir}, opened directly (no server was running)`;
      }
    }
  } catch (error) {
    io.err(`db:backup failed: ${(error as Error).message}`);
    return error instanceof PgToolMissing ? 3 : 1;
  }
  io.out(
    `Backup ${how}: ${written.file} (${formatBytes(written.sizeBytes)}, schema version ${written.version}).`,
  );
  io.out(`Restore it with: npm run db:restore -- ${written.file}`);
  return 0;
}

async function backupThroughChannel(
  channel: { pid: number; port: number; token: string },
  target: { dir: string; file: string | null },
): Promise<WrittenBackup> {
  const res = await fetch(`http://127.0.0.1:${channel.port}/backup`, {
    method: "POST",
    headers: { authorization: `Bearer ${channel.token}` },
  }).catch((error: unknown) => {
    throw new Error(
      `the server (pid ${channel.pid}) holds the embedded database but its admin channel did not answer: ${(error as Error).message}`,
    );
  });
  if (!res.ok || !res.body) {
    const said = ((await res.json().catch(() => ({}))) as { error?: string }).error;
    throw new Error(
      res.status === 404
        ? `the server (pid ${channel.pid}) is older than this command: restart it on this build, or stop it and back up again`
        : (said ?? `the server answered ${res.status}`),
    );
  }
  const version = res.headers.get(SCHEMA_VERSION_HEADER) ?? "unknown";
  const startedAt = new Date(res.headers.get(BACKUP_STARTED_HEADER) ?? Date.now());
  const length = Number(res.headers.get("content-length"));
  const written = await writeBackupStream(
    Readable.fromWeb(res.body as Parameters<typeof Readable.fromWeb>[0]),
    target,
    backupFileName(startedAt, version, "pglite"),
    Number.isFinite(length) && length > 0 ? length : undefined,
  );
  return { ...written, version, kind: "pglite", startedAt };
}

/** Returns the exit code. */
export async function runDbRestore(
  argv: string[],
  env: Record<string, string | undefined>,
  io: DbCliIo,
): Promise<number> {
  let values: { force?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: { force: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    io.err(`${(error as Error).message}\n${RESTORE_USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(RESTORE_USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    io.err(`Name one backup file.\n${RESTORE_USAGE}`);
    return 2;
  }
  const file = positionals[0]!;
  const force = values.force ?? false;
  try {
    const config = loadConfig(env);
    const kind = backupKindOf(file);
    let into: string;
    let result: Awaited<ReturnType<typeof restorePglite>>;
    if (config.database.kind === "postgres") {
      if (kind !== "pgdump") {
        throw new RestoreRefused(
          `${file} is a backup of the embedded database (PGlite), and DATABASE_URL points at PostgreSQL: unset DATABASE_URL to restore it into PGLITE_DIR`,
        );
      }
      into = `PostgreSQL (${where(config.database.url)})`;
      result = await restorePostgres(file, config.database, { force, env });
    } else {
      if (kind !== "pglite") {
        throw new RestoreRefused(
          `${file} is a pg_dump of PostgreSQL, and DATABASE_URL is not set: set it to the (empty) database to restore into`,
        );
      }
      into = `the embedded database at ${config.database.dir}`;
      result = await restorePglite(file, config.database.dir, { force });
    }
    io.out(`Restored ${file} (schema version ${result.version}) into ${into}.`);
    io.out(
      result.applied.length > 0
        ? `Applied the newer migrations: ${result.applied.join(", ")}.`
        : "Its schema is this code's: no migration was needed.",
    );
    io.out(
      "Sessions, two-factor secrets and links in emails already sent are signed with AUTH_SECRET: start the site " +
        "with the AUTH_SECRET it had (on the embedded database without one, copy its .auth-secret beside the restored folder).",
    );
    return 0;
  } catch (error) {
    if (error instanceof RestoreRefused) {
      io.err(`db:restore refused: ${error.message}. Nothing was changed.`);
      return 1;
    }
    io.err(`db:restore failed: ${(error as Error).message}`);
    return error instanceof PgToolMissing ? 3 : 1;
  }
}
