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
import type { Logger } from "pino";
import type { Config } from "~/config.server";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/**
 * An open transaction: what `db.transaction(async (tx) => …)` hands its callback. It is a Database
 * too, so a function that writes "in the caller's transaction" takes either without a cast; one that
 * must run inside a transaction (it takes row locks) says so by taking a Tx.
 */
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

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
 * PGlite's PostgreSQL settings (docs/decisions/0803-server-memory.md). The embedded server lives in the
 * process's WebAssembly memory, which never shrinks: what Postgres allocates stays resident. Its
 * defaults are a server's (128 MB of shared buffers, filled as pages are read, 64 MB for maintenance);
 * here the data set is small and every page not in the buffers is one read from the operating system's
 * file cache away, so smaller buffers bound the process's memory at little cost.
 */
export const PGLITE_SETTINGS = {
  shared_buffers: "16MB",
  // WAL buffers default to 1/32 of shared_buffers: 512 kB.
  temp_buffers: "2MB",
  work_mem: "4MB",
  maintenance_work_mem: "16MB",
} as const;

/** How long /healthz waits for the database at most. */
const PING_TIMEOUT_MS = 2000;

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

export async function openDatabase(
  config: Config["database"],
  logger?: Logger,
  /** PGlite only: a `dumpDataDir()` tarball to load into an empty folder (a restore, ADR 0902). */
  options: { loadDataDir?: Blob } = {},
): Promise<DatabaseHandle> {
  if (config.kind === "postgres") {
    const pool = openPool(config, logger);
    const db = drizzleNodePg({ client: pool, schema, logger: countingLogger }) as unknown as Database;
    return {
      db,
      kind: "postgres",
      pool,
      pglite: null,
      ping: async () =>
        void (await pool.query({
          text: "select 1",
          query_timeout: Math.min(PING_TIMEOUT_MS, config.queryTimeoutMs),
        } as pg.QueryConfig)),
      close: () => pool.end(),
    };
  }
  // "memory://" keeps everything in memory (tests); anything else is a folder on disk.
  const inMemory = config.dir.startsWith("memory://");
  if (!inMemory) mkdirSync(config.dir, { recursive: true });
  const client = await PGlite.create(inMemory ? undefined : config.dir, {
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    startParams: [
      ...PGlite.defaultStartParams,
      ...Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
    ],
  });
  const db = drizzlePglite({ client, schema, logger: countingLogger }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    pool: null,
    pglite: client,
    ping: async () => void (await db.execute(sql`select 1`)),
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

/**
 * A pg pool that outlives its connections. PostgreSQL (a restart, a failover, a proxy recycling idle
 * connections, pg_terminate_backend) may end any connection at any time: without an `error` listener
 * that event would kill the process. The pool drops a broken connection and opens a new one on demand.
 * Timeouts make a database that stops answering fail requests within seconds (a 503, see
 * server/react-router.ts) instead of holding them for as long as the outage lasts.
 */
function openPool(config: Extract<Config["database"], { kind: "postgres" }>, logger?: Logger): pg.Pool {
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    // Waiting for a connection: a new one, or a free one when all ten are busy.
    connectionTimeoutMillis: config.connectTimeoutMs,
    // The server cancels a statement that runs too long...
    statement_timeout: config.queryTimeoutMs,
    // ...and the client gives up on an answer that does not come (the network or server is gone).
    query_timeout: config.queryTimeoutMs + 1000,
    // A transaction left open by a stuck request does not hold its locks for ever.
    idle_in_transaction_session_timeout: Math.max(60_000, config.queryTimeoutMs * 2),
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle connection that fails: the pool has already removed it.
  pool.on("error", (error) => {
    logger?.warn({ err: error }, "database connection lost (idle); the pool will open a new one");
  });
  pool.on("connect", (client) => {
    // A connection that fails while checked out (between two queries of a transaction) emits `error`
    // on the client, which pg-pool only listens to while the client is idle.
    client.on("error", (error) => {
      logger?.warn({ err: error }, "database connection lost (in use)");
    });
    dropConnectionOnTimeout(client);
  });
  return pool;
}

/**
 * After a client-side query timeout, pg leaves the connection waiting for an answer that may never come;
 * a transaction releases it to the pool as if healthy, and every later query on it would time out too.
 * Ending the socket makes the pool replace it.
 */
function dropConnectionOnTimeout(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const onTimeout = (error: unknown) => {
    if (error instanceof Error && error.message === "Query read timeout") {
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    }
  };
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const last = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = (error: unknown, ...rest: unknown[]) => {
        onTimeout(error);
        return (last as (...a: unknown[]) => unknown)(error, ...rest);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) result.catch(onTimeout);
    return result;
  };
}

/**
 * A statement built once per database, for the queries every signed-in page runs (ADR 0820): `build`
 * makes it with `sql.placeholder(…)` for its values and `.prepare(name)` (a name unique in the app).
 * drizzle then builds its SQL once rather than on every call, and PostgreSQL parses and plans it once
 * per connection rather than on every execution. Not for a transaction's `tx`: it binds the database.
 */
export function preparedOnce<T>(build: (db: Database) => T): (db: Database) => T {
  const byDatabase = new WeakMap<Database, T>();
  return (db) => {
    let statement = byDatabase.get(db);
    if (!statement) {
      statement = build(db);
      byDatabase.set(db, statement);
    }
    return statement;
  };
}

/** Runs raw SQL and returns its rows, on either driver (both answer with `{ rows }`). */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
