/** This code's migrations (drizzle/meta/_journal.json) and the ones a database has applied. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { type Database, queryRows } from "~/db/client.server";
import { MIGRATIONS_FOLDER } from "~/db/migrate.server";
import type { JournalEntry } from "./schema-version";

export function codeJournal(folder = MIGRATIONS_FOLDER): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: Array<{ tag: string; when: number }>;
  };
  return journal.entries.map((e) => ({ tag: e.tag, when: e.when }));
}

/** The `created_at` of each migration the database has applied; none when it has no migrations table. */
export async function appliedMigrations(db: Database): Promise<number[]> {
  const [table] = await queryRows<{ name: string | null }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations')::text as name`,
  );
  if (!table?.name) return [];
  const rows = await queryRows<{ created_at: string | number | null }>(
    db,
    sql`select created_at from drizzle.__drizzle_migrations order by created_at`,
  );
  return rows.map((r) => Number(r.created_at)).filter((n) => Number.isFinite(n));
}
