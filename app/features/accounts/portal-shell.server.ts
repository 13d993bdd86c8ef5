/**
 * What the portal shell shows around every signed-in page, read in one statement (ADR 0820, "Steps,
 * second round"): the client record, the bell, the live-updates cursor, and the saved currency
 * preference the root loader needs for the same request. Each was a query of its own; on a page that
 * costs about eight, the round trips (a socket write, a parse, drizzle's building) were a fifth of the
 * server's CPU.
 */
import { eq, sql } from "drizzle-orm";
import { type Database, preparedOnce } from "~/db/client.server";
import { type Client, clients, userPreferences } from "~/db/schema";
import type { CurrencyPreference } from "~/features/currency/preferences.server";
import { latestIdOf } from "~/features/live/live-hub.server";
import { type Bell, bellJson, bellOf } from "~/features/notifications/bell.server";

export interface PortalShellReads {
  /** The client record as stored: null when there is none yet (the gate then creates it). */
  client: Client | null;
  preference: CurrencyPreference | null;
  bell: Bell;
  liveCursor: number;
}

const shellStatement = preparedOnce((db) => {
  const userId = sql.placeholder("userId");
  // One row whatever exists: the client and the preference are left-joined to it.
  return db
    .select({
      client: clients,
      preferredCurrency: userPreferences.preferredCurrency,
      autoDetectCurrency: userPreferences.autoDetectCurrency,
      countryCode: userPreferences.countryCode,
      bell: bellJson(userId),
      liveCursor: latestIdOf(userId),
    })
    .from(sql`(select 1) as one`)
    .leftJoin(clients, eq(clients.id, userId))
    .leftJoin(userPreferences, eq(userPreferences.userId, userId))
    .prepare("portal_shell");
});

export async function readPortalShell(db: Database, userId: string): Promise<PortalShellReads> {
  const [row] = await shellStatement(db).execute({ userId });
  if (!row) throw new Error("portal shell: the statement returned no row");
  const { client, preferredCurrency, autoDetectCurrency, countryCode, bell, liveCursor } = row;
  return {
    client,
    preference:
      preferredCurrency === null || autoDetectCurrency === null
        ? null
        : { preferredCurrency, autoDetectCurrency, countryCode },
    bell: bellOf(bell),
    liveCursor: Number(liveCursor ?? 0),
  };
}
