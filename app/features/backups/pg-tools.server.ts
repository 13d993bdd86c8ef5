/**
 * pg_dump and pg_restore, the PostgreSQL client tools, for backups of a PostgreSQL database: found on
 * PATH, run without a shell, given the password through PGPASSWORD rather than on their command line
 * (where `ps` would show it), and their own error message passed on when they fail.
 */
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";

export type PgTool = "pg_dump" | "pg_restore";

/** Said when the tool is not on PATH: what it is and how to install it. */
export function pgToolMissing(tool: PgTool): string {
  return (
    `${tool} was not found on PATH. Backups of a PostgreSQL database use pg_dump and pg_restore from the ` +
    "PostgreSQL client tools, at the server's major version or newer. Install them " +
    "(Debian/Ubuntu: apt-get install postgresql-client; Alpine: apk add postgresql-client; " +
    "macOS: brew install libpq), or put their folder on PATH."
  );
}

export class PgToolMissing extends Error {
  override name = "PgToolMissing";
}

/** The tool's path on PATH, or null. */
export function findPgTool(tool: PgTool, env: Record<string, string | undefined>): string | null {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, tool);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** The URL without its password (for the command line) and the environment that carries it. */
export function pgConnection(
  url: string,
  env: Record<string, string | undefined>,
): { url: string; env: Record<string, string | undefined> } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { url: parsed.toString(), env: password ? { ...env, PGPASSWORD: password } : env };
}

/** Runs a tool; resolves with its standard output, rejects with the end of its standard error. */
export function runPgTool(
  tool: PgTool,
  args: string[],
  env: Record<string, string | undefined>,
  signal?: AbortSignal,
): Promise<string> {
  const bin = findPgTool(tool, env);
  if (!bin) return Promise.reject(new PgToolMissing(pgToolMissing(tool)));
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
      signal,
    });
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => {
      // The end is what says what went wrong; keep it bounded.
      err = (err + c.toString()).slice(-4000);
    });
    child.once("error", (error) => reject(error));
    child.once("close", (code, sig) => {
      if (code === 0) return resolve(Buffer.concat(out).toString("utf8"));
      const said = err.trim().split("\n").slice(-5).join(" ").trim();
      reject(new Error(`${tool} failed (${code ?? sig})${said ? `: ${said}` : ""}`));
    });
  });
}

/** `pg_dump --format=custom` of the database into `file` (one consistent snapshot, taken while the site runs). */
export async function pgDump(
  databaseUrl: string,
  file: string,
  env: Record<string, string | undefined>,
  signal?: AbortSignal,
): Promise<void> {
  const conn = pgConnection(databaseUrl, env);
  await runPgTool("pg_dump", ["--format=custom", `--file=${file}`, `--dbname=${conn.url}`], conn.env, signal);
}

/**
 * The `created_at` of every migration a dump holds, read from the dump alone (no database): the rows of
 * `drizzle.__drizzle_migrations` as pg_restore prints them.
 */
export async function dumpedMigrations(
  file: string,
  env: Record<string, string | undefined>,
): Promise<number[]> {
  const script = await runPgTool(
    "pg_restore",
    ["--data-only", "--schema=drizzle", "--table=__drizzle_migrations", "--file=-", file],
    env,
  );
  const lines = script.split("\n");
  const start = lines.findIndex((l) => /^COPY drizzle\.__drizzle_migrations \(/.test(l));
  if (start < 0) return [];
  const columns = /\((.*)\)/
    .exec(lines[start]!)![1]!
    .split(",")
    .map((c) => c.trim());
  const at = columns.indexOf("created_at");
  const applied: number[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === "\\.") break;
    const value = line.split("\t")[at];
    if (value && value !== "\\N") applied.push(Number(value));
  }
  return applied.filter((n) => Number.isFinite(n));
}

/** Restores a dump into the (empty) database, in one transaction: all of it or nothing. */
export async function pgRestore(databaseUrl: string, file: string, env: Record<string, string | undefined>) {
  const conn = pgConnection(databaseUrl, env);
  await runPgTool(
    "pg_restore",
    [
      "--no-owner",
      "--no-privileges",
      "--exit-on-error",
      "--single-transaction",
      `--dbname=${conn.url}`,
      file,
    ],
    conn.env,
  );
}
