/**
 * Opens the database: PGlite (PostgreSQL in WASM, file-backed) by default, or a PostgreSQL server
 * when DATABASE_URL is set. Both give the same Drizzle API over the same schema.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { type ExtractTablesWithRelations, type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import type { Config } from "~/config.server";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** A raw pg pool, when on a PostgreSQL server (for LISTEN/NOTIFY and advisory locks). */
  pool: pg.Pool | null;
  /** The embedded database, when on PGlite (for its `listen()`). */
  pglite: PGlite | null;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Counts the queries run inside a scope (one per HTTP request, see server/app.ts): the portal's
 * "constant number of queries per page" is measured with it, and each request's log line carries it.
 */
export const queryScope = new AsyncLocalStorage<{ queries: number }>();
const countingLogger = {
  logQuery() {
    const scope = queryScope.getStore();
    if (scope) scope.queries++;
  },
};

export async function openDatabase(config: Config["database"]): Promise<DatabaseHandle> {
  if (config.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: config.url, max: 10, connectionTimeoutMillis: 5000 });
    const db = drizzleNodePg({ client: pool, schema, logger: countingLogger }) as unknown as Database;
    return {
      db,
      kind: "postgres",
      pool,
      pglite: null,
      ping: async () => void (await pool.query("select 1")),
      close: () => pool.end(),
    };
  }
  // "memory://" keeps everything in memory (tests); anything else is a folder on disk.
  const inMemory = config.dir.startsWith("memory://");
  if (!inMemory) mkdirSync(config.dir, { recursive: true });
  const client = await PGlite.create(inMemory ? undefined : config.dir);
  const db = drizzlePglite({ client, schema, logger: countingLogger }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    pool: null,
    pglite: client,
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.close(),
  };
}

/** Runs raw SQL and returns its rows, on either driver (both answer with `{ rows }`). */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
