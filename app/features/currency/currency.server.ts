/**
 * The currency of one request, for the root loader: detected location, the signed-in client's saved
 * preference (which wins only with auto-detection off) and the rate to show prices with, so the
 * server renders local prices at once.
 */
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { type DetectedLocation, detectionChanged, resolveCurrency } from "./currency";
import type { CurrencyState } from "./currency-state";
import { pinnedPreference, readPinnedCurrency } from "./pinned-currency.server";
import {
  type CurrencyPreference,
  loadCurrencyPreference,
  saveDetectedCurrencyIfClient,
} from "./preferences.server";
import type { RatesSnapshot } from "./rates.server";
import type { CurrencyServices } from "./services.server";

export interface CurrencyRequest {
  services: CurrencyServices;
  db: Database;
  logger?: Pick<Logger, "warn">;
  request: Request;
  clientAddress: string | null;
  /** The signed-in user's id, or null for a visitor. */
  userId: string | null;
  /** The user's saved preference when something else is reading it already (null: none saved). */
  preference?: Promise<CurrencyPreference | null>;
  /**
   * Runs a needed preference write without holding the page back (the root loader passes one);
   * without it the write is awaited.
   */
  afterResponse?: (task: () => Promise<unknown>) => void;
}

/** Where the request comes from; a failed detection is logged and falls back to the United States. */
export function detectLocation(
  services: CurrencyServices,
  headers: Pick<Headers, "get">,
  clientAddress: string | null,
  logger?: Pick<Logger, "warn">,
): DetectedLocation {
  try {
    const { source: _source, ...detected } = services.location.detect({ headers, address: clientAddress });
    return detected;
  } catch (error) {
    // "Location detection failure: logged; falls back to US, United States, USD."
    logger?.warn({ err: error }, "location detection failed");
    return { country_code: "US", country_name: "United States", currency: "USD" };
  }
}

/** The state a page renders prices with: the chosen currency and its rate (USD is always there). */
export function currencyState(
  location: DetectedLocation,
  preference: CurrencyPreference | null,
  snapshot: RatesSnapshot,
): CurrencyState {
  const currency = resolveCurrency({ preference, detected: location.currency });
  const rate = snapshot.rates[currency];
  return {
    currency,
    rates: rate === undefined ? { USD: 1 } : { USD: 1, [currency]: rate },
    location,
  };
}

export async function currencyForRequest(input: CurrencyRequest): Promise<CurrencyState> {
  return (await currencyAndPreference(input)).state;
}

/**
 * The request's currency state and the saved preference it was resolved with (null for a visitor or
 * a client without one, or when the read failed): the caller keeps the pinned-currency cookie in step
 * with it (pinned-currency.server.ts).
 */
export async function currencyAndPreference(
  input: CurrencyRequest,
): Promise<{ state: CurrencyState; preference: CurrencyPreference | null }> {
  const { services, db, logger, request, clientAddress, userId } = input;
  const location = detectLocation(services, request.headers, clientAddress, logger);
  const [snapshot, preference] = await Promise.all([
    services.rates.get(),
    userId ? (input.preference ?? loadCurrencyPreference(db, userId, logger)) : Promise.resolve(null),
  ]);
  if (userId && detectionChanged(preference, location)) {
    // Reading never writes: the row is written only when the detected country or currency differs
    // from what is saved (or nothing is saved yet). A failed write is logged inside and ignored.
    const save = () =>
      saveDetectedCurrencyIfClient(
        db,
        userId,
        { currency: location.currency, countryCode: location.country_code },
        logger,
      );
    if (input.afterResponse) input.afterResponse(save);
    else await save();
  }
  return { state: currencyState(location, preference, snapshot), preference };
}

/**
 * The currency state of a shared public page (ADR 0822): the detected location and the currency the
 * request's cookie pins, never the session's saved preference. The page cache computes its key with
 * the same function, from the same inputs, before Express.
 */
export function sharedPageCurrency(
  location: DetectedLocation,
  cookieHeader: string | null | undefined,
  https: boolean,
  snapshot: RatesSnapshot,
): CurrencyState {
  return currencyState(
    location,
    pinnedPreference(readPinnedCurrency(cookieHeader, https), snapshot),
    snapshot,
  );
}
