/** The account's saved timezone and language, for what is written outside a page (emails): ADR 0521. */
import { eq } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { clients } from "~/db/schema";
import { type AccountLocale, accountLocaleOf } from "./account-locale";

/** A client's choices, or the spec's defaults for one who saved none (or a user with no client record). */
export async function loadAccountLocale(db: Database | Tx, userId: string): Promise<AccountLocale> {
  const [row] = await db
    .select({ timeZone: clients.timeZone, language: clients.language })
    .from(clients)
    .where(eq(clients.id, userId))
    .limit(1);
  const { timeZone, language } = accountLocaleOf(row ?? { timeZone: null, language: null });
  return { timeZone, language };
}
