/**
 * Test support for backups: `npm run db:backup` / `db:restore` as child processes (the scripts, on the
 * build), and empty targets to restore into: a fresh PGlite folder on disk, or a fresh PostgreSQL
 * database, each openable directly from the test.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import type { TestDatabase } from "./databases";
import { porticoVariables } from "./npm-start";

export const BACKUP_TEST_SECRET = "backup-test-secret-0123456789abcdefghij";

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node scripts/{script}.js …args` with none of the runner's Portico settings, only `env`'s. */
export function runDbScript(
  script: "db-backup" | "db-restore",
  args: string[],
  env: Record<string, string>,
): Promise<ScriptResult> {
  const clean: NodeJS.ProcessEnv = { ...process.env };
  for (const name of porticoVariables()) delete clean[name];
  const child = spawn(process.execPath, [`scripts/${script}.js`, ...args], {
    env: { ...clean, NODE_ENV: "production", AUTH_SECRET: BACKUP_TEST_SECRET, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

export interface Target {
  /** What points Portico (a server, a script) at it. */
  env: Record<string, string>;
  /** Opens it from the test (no migration). */
  open(): Promise<DatabaseHandle>;
  /** As a TestDatabase, for startTestServer (which then never drops it). */
  asTestDatabase(): TestDatabase;
  drop(): Promise<void>;
}

/** A place for one test file's folders (PGlite data, backups), removed by `remove()`. */
export function scratch(label: string) {
  const root = mkdtempSync(path.join(tmpdir(), `portico-${label}-`));
  let n = 0;
  return {
    root,
    /** A new, not yet existing folder under the root. */
    folder: (name: string) => path.join(root, `${name}-${++n}`),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** An empty target of the database's kind: a PGlite folder (in its own parent, for its channel file). */
export async function emptyTarget(database: TestDatabase, folder: string): Promise<Target> {
  if (database.name === "pglite") {
    mkdirSync(folder, { recursive: true });
    const dir = path.join(folder, "pglite");
    const env = { PGLITE_DIR: dir };
    return {
      env,
      open: () => openDatabase({ kind: "pglite", dir }),
      asTestDatabase: () => ({ name: "pglite", create: async () => ({ env, drop: async () => {} }) }),
      drop: async () => rmSync(folder, { recursive: true, force: true }),
    };
  }
  const made = await database.create();
  const url = made.env.DATABASE_URL!;
  return {
    env: made.env,
    open: () => openDatabase({ kind: "postgres", url, connectTimeoutMs: 5000, queryTimeoutMs: 10_000 }),
    asTestDatabase: () => ({
      name: "postgres",
      create: async () => ({ env: made.env, drop: async () => {} }),
    }),
    drop: () => made.drop(),
  };
}
