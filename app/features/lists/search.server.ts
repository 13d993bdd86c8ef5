import { type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import { PAGE_SIZE, type PageInfo, pageInfo, SEARCH_COUNT_LIMIT } from "./listing";

/** An ILIKE pattern matching `text` anywhere, with the user's % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `column ILIKE %text%` (the escape character is backslash, PostgreSQL's default). */
export function ilikeContains(column: SQL | unknown, text: string): SQL {
  return sql`${column} ilike ${containsPattern(text)}`;
}

/**
 * The paging of a search: its matches counted up to SEARCH_COUNT_LIMIT (one more is read to know there
 * are more), so a search matching most of 10,000 orders stops counting at 1,001 rows.
 */
export async function countMatches(
  db: Database,
  table: PgTable,
  where: SQL | undefined,
  page: number,
): Promise<PageInfo> {
  const matches = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(SEARCH_COUNT_LIMIT + 1)
    .as("matches");
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(matches);
  const n = Number(row?.n ?? 0);
  return n > SEARCH_COUNT_LIMIT
    ? pageInfo(page, SEARCH_COUNT_LIMIT, PAGE_SIZE, true)
    : pageInfo(page, n, PAGE_SIZE);
}
