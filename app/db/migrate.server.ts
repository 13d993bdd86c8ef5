import path from "node:path";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
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
    await lockClient.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await migrateNodePg(handle.db as unknown as NodePgDatabase, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await lockClient.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
    lockClient.release();
  }
}
