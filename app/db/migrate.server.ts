import path from "node:path";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { QueryConfig } from "pg";
import type { DatabaseHandle } from "./client.server";

/** Where the committed SQL migrations live; the app always runs from the project folder. */
export const MIGRATIONS_FOLDER = path.resolve(process.cwd(), "drizzle");

/** Any number like this one works, as long as every Portico process uses the same. */
const MIGRATION_LOCK_ID = 7_302_114;

/**
 * Applies the committed migrations. On PostgreSQL an advisory lock makes several processes starting
 * at once take turns, so each migration runs exactly once.
 */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === "pglite") {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  const lockClient = await handle.pool!.connect();
  try {
    // Another process may hold the lock for as long as its migrations take: wait longer than the
    // ordinary statement timeout for it (this connection only; RESET restores the pool's setting).
    await lockClient.query("select set_config('statement_timeout', '600000', false)");
    await lockClient.query({
      text: "select pg_advisory_lock($1)",
      values: [MIGRATION_LOCK_ID],
      query_timeout: 600_000,
    } as QueryConfig);
    await migrateNodePg(handle.db as unknown as NodePgDatabase, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await lockClient.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
    await lockClient.query("reset statement_timeout").catch(() => {});
    lockClient.release();
  }
}
