/**
 * A signed-in client's currency preference (table user_preferences). Writes happen "only for a
 * signed-in user who has a client record; failures ignored" (public-site.md §7): they are logged and
 * never break the page.
 */
import { eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { clients, userPreferences } from "~/db/schema";
import { countryCodeSchema, currencyCodeSchema } from "./currency";

export interface CurrencyPreference {
  preferredCurrency: string;
  autoDetectCurrency: boolean;
  countryCode: string | null;
}

type Log = Pick<Logger, "warn">;

/** The saved preference of a user, or null (none saved, or the read failed). */
export async function loadCurrencyPreference(
  db: Database,
  userId: string,
  logger?: Log,
): Promise<CurrencyPreference | null> {
  try {
    const [row] = await db
      .select({
        preferredCurrency: userPreferences.preferredCurrency,
        autoDetectCurrency: userPreferences.autoDetectCurrency,
        countryCode: userPreferences.countryCode,
      })
      .from(userPreferences)
      .where(eq(userPreferences.userId, userId))
      .limit(1);
    return row ?? null;
  } catch (error) {
    logger?.warn({ err: error }, "currency preference: read failed");
    return null;
  }
}

async function hasClientRecord(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: clients.id }).from(clients).where(eq(clients.id, userId)).limit(1);
  return Boolean(row);
}

/**
 * Records the detected currency and country of a client (upsert on user_id with auto_detect true).
 * A client who turned auto-detection off keeps the currency they chose; only the country is updated.
 * Returns whether a row was written.
 */
export async function saveDetectedCurrencyIfClient(
  db: Database,
  userId: string,
  detected: { currency: string; countryCode: string | null },
  logger?: Log,
): Promise<boolean> {
  try {
    const currency = currencyCodeSchema.parse(detected.currency);
    const countryCode = detected.countryCode ? countryCodeSchema.parse(detected.countryCode) : null;
    if (!(await hasClientRecord(db, userId))) return false;
    await db
      .insert(userPreferences)
      .values({ userId, preferredCurrency: currency, countryCode, autoDetectCurrency: true })
      .onConflictDoUpdate({
        target: userPreferences.userId,
        set: {
          preferredCurrency: sql`case when ${userPreferences.autoDetectCurrency} then excluded.preferred_currency else ${userPreferences.preferredCurrency} end`,
          countryCode: sql`excluded.country_code`,
          updatedAt: sql`now()`,
        },
      });
    return true;
  } catch (error) {
    logger?.warn({ err: error }, "currency preference: saving the detected currency failed");
    return false;
  }
}

/**
 * Saves a currency a client picked (the portal's currency selector): it then wins over detection
 * (auto_detect_currency false). Passing `auto` turns detection back on. Returns whether a row was written.
 */
export async function saveChosenCurrencyIfClient(
  db: Database,
  userId: string,
  choice: string,
  logger?: Log,
): Promise<boolean> {
  try {
    const auto = choice === "auto";
    const currency = auto ? null : currencyCodeSchema.parse(choice);
    if (!(await hasClientRecord(db, userId))) return false;
    await db
      .insert(userPreferences)
      .values({ userId, preferredCurrency: currency ?? "USD", autoDetectCurrency: auto })
      .onConflictDoUpdate({
        target: userPreferences.userId,
        set: auto
          ? { autoDetectCurrency: true, updatedAt: sql`now()` }
          : { preferredCurrency: currency!, autoDetectCurrency: false, updatedAt: sql`now()` },
      });
    return true;
  } catch (error) {
    logger?.warn({ err: error }, "currency preference: saving the chosen currency failed");
    return false;
  }
}
