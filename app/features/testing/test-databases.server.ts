/**
 * For domain tests that must hold on both databases (ARCHITECTURE.md: "Tests run on both"): PGlite in
 * memory always, and a fresh PostgreSQL database per call when TEST_DATABASE_URL names a server (as CI
 * sets it), migrated and seeded like the in-memory one; closing it drops it. Only test files import it.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { migrateDatabase } from "~/db/migrate.server";
import { seedDatabase } from "~/db/seed.server";
import { openSeededMemoryDatabase } from "./memory-database.server";

export type TestDatabaseKind = "pglite" | "postgres";

/** The databases a `describe.each` runs on. */
export const TEST_DATABASE_KINDS: TestDatabaseKind[] = process.env.TEST_DATABASE_URL
  ? ["pglite", "postgres"]
  : ["pglite"];

async function admin<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A migrated, seeded database of that kind; its `close()` also drops a PostgreSQL one. */
export async function openSeededTestDatabase(kind: TestDatabaseKind): Promise<DatabaseHandle> {
  if (kind === "pglite") return openSeededMemoryDatabase();
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `portico_unit_${Date.now()}_${randomBytes(4).toString("hex")}`;
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({
    kind: "postgres",
    url: url.toString(),
    connectTimeoutMs: 10_000,
    queryTimeoutMs: 30_000,
  });
  await migrateDatabase(handle);
  await seedDatabase(handle.db);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
