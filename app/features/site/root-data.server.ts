/**
 * What every page gets from the root loader: the business identity, the public URL, the signed-in user
 * (looked up once per request) and the request's currency. Reading only: a currency preference is
 * written, after the response, only when detection found something new.
 *
 * A shared public page (CACHEABLE_PATH: home, service pages, articles, privacy, terms) is the same for
 * everyone at a location and currency (ADR 0822): its root data never depends on the session. No
 * session is looked up there; the user is left to the header, which asks /api/session after load
 * (`accountAfterLoad`), and the currency is the detected one unless the request's cookie pins another.
 * The page cache serves that render to signed-in clients too, without a lookup of its own.
 */
import type { AppLoadContext } from "react-router";
import { CACHEABLE_PATH } from "~/delivery/page-cache.server";
import { getCurrentUser, preferenceOfRequest } from "~/features/accounts/session.server";
import type { SessionUser } from "~/features/accounts/session-user";
import {
  currencyAndPreference,
  detectLocation,
  sharedPageCurrency,
} from "~/features/currency/currency.server";
import type { CurrencyState } from "~/features/currency/currency-state";
import { reconcilePinnedCurrency } from "~/features/currency/pinned-currency.server";

/** Whether a path's page is the shared one, rendered without the session (the page cache's paths). */
export function isSharedPage(pathname: string): boolean {
  return CACHEABLE_PATH.test(pathname);
}

export interface RootLoad {
  data: {
    business: AppLoadContext["runtime"]["config"]["business"];
    publicUrl: string;
    /** The signed-in user with a confirmed address; always null on a shared page. */
    user: SessionUser | null;
    /** True on a shared page: who is signed in is not known here; the header asks after load. */
    accountAfterLoad: boolean;
    currency: CurrencyState;
  };
  /** A Set-Cookie bringing the pinned-currency cookie in step with the saved preference, if needed. */
  setCookie: string | null;
}

export async function loadRootData(request: Request, context: AppLoadContext): Promise<RootLoad> {
  const { config } = context.runtime;
  const https = config.publicUrl.startsWith("https://");
  const common = { business: config.business, publicUrl: config.publicUrl };
  const cookie = request.headers.get("cookie");
  if (isSharedPage(new URL(request.url).pathname)) {
    const { currency: services } = context.runtime;
    const location = detectLocation(services, request.headers, context.clientIp, context.logger);
    const currency = sharedPageCurrency(location, cookie, https, await services.rates.get());
    return { data: { ...common, user: null, accountAfterLoad: true, currency }, setCookie: null };
  }
  const { user, currency, setCookie } = await sessionAndCurrency(request, context);
  return { data: { ...common, user, accountAfterLoad: false, currency }, setCookie };
}

/**
 * Who this request's session is and the currency to show them, for the shell: the root loader of a
 * page rendered with the session, and /api/session for the header of a shared page. Their saved
 * currency wins while detection is off; the pinned-currency cookie is brought in step with it
 * (`setCookie`); a newly detected country or currency is saved after the response.
 */
export async function sessionAndCurrency(
  request: Request,
  context: AppLoadContext,
): Promise<{ user: SessionUser | null; currency: CurrencyState; setCookie: string | null }> {
  const https = context.runtime.config.publicUrl.startsWith("https://");
  const user = await getCurrentUser(request, context);
  const { state, preference } = await currencyAndPreference({
    services: context.runtime.currency,
    db: context.runtime.database.db,
    logger: context.logger,
    request,
    clientAddress: context.clientIp,
    userId: user?.id ?? null,
    // On a portal page the shell's statement reads it (requirePortalShell); elsewhere it is read here.
    preference: user ? preferenceOfRequest(context, user.id) : undefined,
    // Counted like the request itself: a stopping process closes its database only after it.
    afterResponse: (task) => void context.runtime.drain.track(task()),
  });
  return {
    user,
    currency: state,
    setCookie: reconcilePinnedCurrency(request.headers.get("cookie"), user ? preference : null, https),
  };
}
