/**
 * The databases integration tests run on: always PGlite in memory, and a fresh PostgreSQL database
 * per test file when TEST_DATABASE_URL is set (CI sets it).
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

export interface TestDatabase {
  name: "pglite" | "postgres";
  /** Creates a fresh, empty database and returns the environment that points Portico at it. */
  create(): Promise<{ env: Record<string, string>; drop(): Promise<void> }>;
}

const pglite: TestDatabase = {
  name: "pglite",
  create: async () => ({ env: { PGLITE_DIR: "memory://" }, drop: async () => {} }),
};

/** The first test file (not a support module) on the stack: who is creating a database. */
function madeBy(): string {
  const frames = new Error().stack?.split("\n") ?? [];
  const test = frames.find((line) => /tests\/(?!support\/)/.test(line));
  return (test ?? frames[2] ?? "unknown").trim().slice(0, 300);
}

function postgres(adminUrl: string): TestDatabase {
  return {
    name: "postgres",
    async create() {
      const dbName = `portico_test_${Date.now()}_${randomBytes(4).toString("hex")}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${dbName}"`);
      // Which test made it: a database left behind after a run says where it came from
      // (`select d.datname, s.description from pg_database d join pg_shdescription s on s.objoid = d.oid`).
      await admin.query(`COMMENT ON DATABASE "${dbName}" IS '${madeBy().replaceAll("'", "")}'`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${dbName}`;
      return {
        env: { DATABASE_URL: url.toString() },
        async drop() {
          const c = new pg.Client({ connectionString: adminUrl });
          await c.connect();
          // pg's Pool.end() resolves before its sockets are closed; a forced drop would then kill those
          // sessions and their clients would throw an uncaught "terminating connection" error. Wait
          // (briefly) for them to go first.
          for (let i = 0; i < 50; i++) {
            const { rows } = await c.query(
              "select count(*)::int as n from pg_stat_activity where datname = $1",
              [dbName],
            );
            if (rows[0].n === 0) break;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
          await c.end();
        },
      };
    },
  };
}

export const testDatabases: TestDatabase[] = process.env.TEST_DATABASE_URL
  ? [pglite, postgres(process.env.TEST_DATABASE_URL)]
  : [pglite];

/**
 * One database for several servers in a row (a restart with other settings): `shared` hands every
 * `startTestServer` the same database (a PGlite folder on disk, or one fresh PostgreSQL database) and
 * never drops it; `drop()` does, at the end.
 */
export async function sharedDatabase(database: TestDatabase) {
  const dir = database.name === "pglite" ? await mkdtemp(path.join(tmpdir(), "portico-shared-")) : null;
  const made = dir ? { env: { PGLITE_DIR: dir }, drop: async () => {} } : await database.create();
  const shared: TestDatabase = {
    name: database.name,
    create: async () => ({ env: made.env, drop: async () => {} }),
  };
  return {
    shared,
    async drop() {
      await made.drop();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}
