import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { consumeRateLimit, pruneRateLimits } from "~/features/rate-limit/rate-limit.server";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

describe.each(testDatabases)("rate limits in the database on $name", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server?.close();
  });
  const db = () => server.portico.runtime.database.db;

  it("allows up to the limit per key, then refuses with the time left", async () => {
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await consumeRateLimit(db(), "test:a", 3, 60_000));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3]!.retryAfterSeconds).toBeGreaterThan(0);
    expect(results[3]!.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await consumeRateLimit(db(), "test:b", 3, 60_000)).allowed).toBe(true);
  });

  it("counts hits sent at the same moment exactly once each", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => consumeRateLimit(db(), "test:burst", 5, 60_000)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(results.map((r) => r.hits).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("prunes windows that ended long ago and keeps live ones", async () => {
    await consumeRateLimit(db(), "test:old", 3, 60_000);
    await consumeRateLimit(db(), "test:live", 3, 60_000);
    await db().execute(
      sql`update rate_limits set window_started_at = now() - interval '2 days' where key = 'test:old'`,
    );
    expect(await pruneRateLimits(db())).toBe(1);
    const keys = await queryRows<{ key: string }>(
      db(),
      sql`select key from rate_limits where key like 'test:%'`,
    );
    expect(keys.map((k) => k.key)).not.toContain("test:old");
    expect(keys.map((k) => k.key)).toContain("test:live");
  });
});
