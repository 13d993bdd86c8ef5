/** Reading quotes (issue "quotes"): a client's (never a draft) and the back office's. */
import { and, asc, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { clients, quotes, user } from "~/db/schema";
import { ilikeContains } from "~/features/lists/search.server";

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

/** Only a text made of Q, digits and dashes can be part of a quote number (`Q-2026-0007`). */
const PART_OF_QUOTE_NUMBER = /^[q0-9-]+$/i;

/**
 * The header search: a client's quotes (never a draft) whose number contains `q`, newest first. A text
 * that cannot be in a quote number (such as "SSL") asks the database nothing.
 */
export async function searchClientQuotes(
  db: Database,
  client: { id: string; email: string },
  q: string,
  limit: number,
) {
  if (!q || !PART_OF_QUOTE_NUMBER.test(q)) return [];
  return db
    .select()
    .from(quotes)
    .where(and(clientScope(client), sql`${quotes.status} <> 'draft'`, ilikeContains(quotes.quoteNumber, q)))
    .orderBy(desc(quotes.sentAt), desc(quotes.id))
    .limit(limit);
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

/**
 * The accounts a quote may be for (issue 37, item 9): clients only, never an owner's account (admins have
 * a client record too) nor a deleted account (its fields hold placeholders, ADR 0520).
 */
export const quotableClient = () =>
  and(
    isNull(clients.deletedAt),
    sql`exists (select 1 from ${user} where ${user.id} = ${clients.id} and ${user.role} = 'client')`,
  );

/** The clients the owner's editor offers, by name. */
export async function listQuotableClients(db: Database, limit = 1000) {
  return db
    .select({ id: clients.id, name: clients.name, email: clients.email, company: clients.company })
    .from(clients)
    .where(quotableClient())
    .orderBy(asc(clients.name), asc(clients.email))
    .limit(limit);
}
