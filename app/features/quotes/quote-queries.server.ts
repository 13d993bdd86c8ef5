/** Reading quotes (issue "quotes"): a client's (never a draft) and the back office's. */
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { quotes } from "~/db/schema";

/** A client's quotes: theirs, or sent to their (verified) address before they had an account. */
export function clientScope(client: { id: string; email: string }) {
  return or(
    eq(quotes.clientId, client.id),
    and(isNull(quotes.clientId), sql`lower(${quotes.email}) = ${client.email.toLowerCase()}`),
  );
}

/** The quotes a client may see: sent or later (never a draft), newest first. */
export async function listClientQuotes(db: Database, client: { id: string; email: string }) {
  return db
    .select()
    .from(quotes)
    .where(and(clientScope(client), sql`${quotes.status} <> 'draft'`))
    .orderBy(desc(quotes.sentAt), desc(quotes.id))
    .limit(100);
}

export async function getClientQuote(db: Database, client: { id: string; email: string }, id: string) {
  const [row] = await db
    .select()
    .from(quotes)
    .where(and(eq(quotes.id, id), clientScope(client), sql`${quotes.status} <> 'draft'`))
    .limit(1);
  return row ?? null;
}

/** The back office's quotes, newest first (drafts included). */
export async function listQuotes(db: Database, limit = 100) {
  return db.select().from(quotes).orderBy(desc(quotes.createdAt), desc(quotes.id)).limit(limit);
}

export async function getQuote(db: Database, id: string) {
  const [row] = await db.select().from(quotes).where(eq(quotes.id, id)).limit(1);
  return row ?? null;
}
