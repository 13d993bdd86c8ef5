import { type SQL, sql } from "drizzle-orm";

/** An ILIKE pattern matching `text` anywhere, with the user's % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `column ILIKE %text%` (the escape character is backslash, PostgreSQL's default). */
export function ilikeContains(column: SQL | unknown, text: string): SQL {
  return sql`${column} ilike ${containsPattern(text)}`;
}
