/**
 * Fixed-window rate limits kept in the database, so every process behind a load balancer counts the
 * same hits (docs/decisions/0301-rate-limits-in-the-database.md). One upsert per hit: atomic on
 * PostgreSQL, no read-then-write race.
 */
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { queryRows } from "~/db/client.server";

export interface RateLimitResult {
  allowed: boolean;
  hits: number;
  /** Seconds until the window resets (for Retry-After). */
  retryAfterSeconds: number;
}

/** Counts one hit against `key` and says whether it is within `limit` hits per `windowMs`. */
export async function consumeRateLimit(
  db: Database,
  key: string,
  limit: number,
  windowMs: number,
): Promise<RateLimitResult> {
  const window = sql`(${windowMs}::int * interval '1 millisecond')`;
  const [row] = await queryRows<{ hits: number; retry_after: number | string }>(
    db,
    sql`INSERT INTO rate_limits (key, window_started_at, hits) VALUES (${key}, now(), 1)
        ON CONFLICT (key) DO UPDATE SET
          hits = CASE WHEN rate_limits.window_started_at <= now() - ${window} THEN 1 ELSE rate_limits.hits + 1 END,
          window_started_at = CASE WHEN rate_limits.window_started_at <= now() - ${window}
                                   THEN now() ELSE rate_limits.window_started_at END
        RETURNING hits, ceil(extract(epoch FROM (window_started_at + ${window} - now()))) AS retry_after`,
  );
  const hits = Number(row!.hits);
  return { allowed: hits <= limit, hits, retryAfterSeconds: Math.max(1, Number(row!.retry_after)) };
}

/** Hits counted against `key` in its current window (0 when none), without counting one: a page's "n left". */
export async function rateLimitHits(db: Database, key: string, windowMs: number): Promise<number> {
  const [row] = await queryRows<{ hits: number }>(
    db,
    sql`SELECT hits FROM rate_limits
         WHERE key = ${key} AND window_started_at > now() - (${windowMs}::int * interval '1 millisecond')`,
  );
  return row ? Number(row.hits) : 0;
}

/** The longest window any limit uses is a day (data exports); a day-old window can never count again. */
export const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Deletes windows that ended long ago, so the table holds only live counters. Returns how many went. */
export async function pruneRateLimits(db: Database, olderThanMs = RATE_LIMIT_RETENTION_MS): Promise<number> {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`DELETE FROM rate_limits WHERE window_started_at < now() - (${olderThanMs}::bigint * interval '1 millisecond') RETURNING key`,
  );
  return rows.length;
}

/** Forgets a counter (e.g. an account's failed sign-ins once its owner signs in). */
export async function clearRateLimit(db: Database, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limits WHERE key = ${key}`);
}
