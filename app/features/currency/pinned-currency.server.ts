/**
 * The currency a signed-in client pinned (auto-detection off), mirrored in a small cookie (ADR 0822).
 *
 * The shared public pages (CACHEABLE_PATH) are rendered without a session lookup and served from the
 * cache to everyone, signed in or not, per path and currency state. A client who turned detection off
 * must still see their own currency there, so that one fact rides in a cookie the fast path can read
 * without the database: the page cache's key and the shared render both take it. It is neither a secret
 * nor an authority: the saved preference (user_preferences) is. Forged, a visitor only picks among the
 * shared pages (one per currency the rates know); stale (a choice made on another device), the
 * after-load answer of /api/session corrects the page and the cookie.
 *
 * Written where the saved preference is read anyway: the root loader of every page that looks up the
 * session, /api/session, sign-in, and cleared at sign-out.
 */
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { SELECTABLE_CURRENCIES } from "./currency";
import { type CurrencyPreference, loadCurrencyPreference } from "./preferences.server";
import type { RatesSnapshot } from "./rates.server";

const BASE_NAME = "portico.currency";
/** As long as the longest session may live (90 days): a signed-out browser has it cleared on its next page. */
const MAX_AGE_SECONDS = 90 * 24 * 60 * 60;

/** The cookie's name: `__Host-` prefixed over https, like the session's (auth.server.ts). */
export function pinnedCurrencyCookieName(https: boolean): string {
  return `${https ? "__Host-" : ""}${BASE_NAME}`;
}

/** The raw value of the cookie in a Cookie header, or null when it is not there. */
function rawPinnedValue(cookieHeader: string | null | undefined, https: boolean): string | null {
  if (!cookieHeader) return null;
  const name = pinnedCurrencyCookieName(https);
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    return part.slice(eq + 1).trim();
  }
  return null;
}

/**
 * Whether a currency may be pinned: one the currency selector offers (SELECTABLE_CURRENCIES). The pin
 * is part of the page cache's key, so any other value would make a new cached page per made-up code
 * and push the visitors' pages out (ADR 0800); a client who saved another code (typed into a request)
 * sees it after load, from /api/session, as on any shared page.
 */
export function isPinnable(code: string | null | undefined): code is string {
  return typeof code === "string" && (SELECTABLE_CURRENCIES as readonly string[]).includes(code);
}

/** The pinned currency code of a Cookie header (one the selector offers), or null. */
export function readPinnedCurrency(cookieHeader: string | null | undefined, https: boolean): string | null {
  const value = rawPinnedValue(cookieHeader, https);
  return isPinnable(value) ? value : null;
}

/**
 * The preference a shared page is rendered with: the pinned code when the selector offers it and the
 * rates know it (USD always), else none (the detected currency). Limiting it so keeps the shared pages
 * to one per offered currency, whatever a cookie says.
 */
export function pinnedPreference(code: string | null, snapshot: RatesSnapshot): CurrencyPreference | null {
  if (!isPinnable(code) || (code !== "USD" && snapshot.rates[code] === undefined)) return null;
  return { preferredCurrency: code, autoDetectCurrency: false, countryCode: null };
}

function serialize(name: string, value: string, maxAge: number, https: boolean): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${https ? "; Secure" : ""}`;
}

/** Whether a Cookie header holds the pin at all (valid or not: one to clear counts). */
export function hasPinnedCurrency(cookieHeader: string | null | undefined, https: boolean): boolean {
  return rawPinnedValue(cookieHeader, https) !== null;
}

/** The Set-Cookie that removes the pin, or null when the request carries none. */
export function clearPinnedCurrency(cookieHeader: string | null | undefined, https: boolean): string | null {
  if (rawPinnedValue(cookieHeader, https) === null) return null;
  return serialize(pinnedCurrencyCookieName(https), "", 0, https);
}

/**
 * The Set-Cookie that makes the request's pin match the saved preference (`null` for a visitor or a
 * client without one), or null when it already does. Only a choice with detection off is pinned.
 */
export function reconcilePinnedCurrency(
  cookieHeader: string | null | undefined,
  preference: Pick<CurrencyPreference, "preferredCurrency" | "autoDetectCurrency"> | null,
  https: boolean,
): string | null {
  const wanted =
    preference && !preference.autoDetectCurrency && isPinnable(preference.preferredCurrency)
      ? preference.preferredCurrency
      : null;
  const current = rawPinnedValue(cookieHeader, https);
  if (current === wanted) return null;
  if (wanted === null) return clearPinnedCurrency(cookieHeader, https);
  return serialize(pinnedCurrencyCookieName(https), wanted, MAX_AGE_SECONDS, https);
}

/**
 * At sign-in: the Set-Cookie pinning the signed-in client's saved currency (or clearing another's), so
 * that even the first shared page after it shows their currency; null when nothing changes.
 */
export async function pinnedCurrencyAtSignIn(
  db: Database,
  userId: string,
  cookieHeader: string | null | undefined,
  https: boolean,
  logger?: Pick<Logger, "warn">,
): Promise<string | null> {
  return reconcilePinnedCurrency(cookieHeader, await loadCurrencyPreference(db, userId, logger), https);
}
