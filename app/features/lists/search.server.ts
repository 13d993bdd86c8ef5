import { type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import { escapeLike } from "./escape-like";
import { PAGE_SIZE, type PageInfo, pageInfo, pageWindow, SEARCH_COUNT_LIMIT } from "./listing";

/** An ILIKE pattern matching `text` anywhere, with the user's % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/**
 * The rows of a page, given its exact or bounded count: read by `read` from whichever end is nearer
 * (`pageWindow`) and put back in the list's order; none when the list is empty or the page asked for
 * (`asked`) is past its end: the back office shows such a page empty, the portal (which passes none)
 * its last page.
 */
export async function readPage<T>(
  paging: PageInfo,
  read: (window: { limit: number; offset: number; reverse: boolean }) => Promise<T[]>,
  asked: number = paging.page,
): Promise<T[]> {
  if (paging.total === 0 || asked > paging.pageCount) return [];
  const window = pageWindow(paging);
  const rows = await read(window);
  return window.reverse ? rows.reverse() : rows;
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
