/**
 * The purchase page's data (client-portal.md §4 "Purchase"): the service a purchase URL names, shaped
 * for the page (packages, add-ons, quantity rules), the package and currency preselected, the
 * currencies offered with their rates, and, for a signed-in visitor, the form's one-time token.
 */
import type { Database } from "~/db/client.server";
import { offeredPackages, quantityRules } from "~/features/catalogue/catalogue";
import { type Rates, SELECTABLE_CURRENCIES, toCurrencyCode } from "~/features/currency/currency";
import { billingCountryNeeded, type TaxConfig, taxForClient } from "~/features/tax/client-tax.server";
import { choosePackage, findPurchasableService, newCheckoutToken } from "./orders.server";
import type { PurchaseNotFoundData, PurchasePageData } from "./purchase-page";

/** What the page is read from (the order feature's OrderDeps will do). */
export interface PurchasePageDeps {
  db: Database;
  /** The current exchange rates (units per USD). */
  rates: () => Promise<Rates>;
  config: TaxConfig;
}

export interface PurchasePageRequest {
  /** Whatever the purchase URL carries: canonical id, slug, name or alias. */
  routeId: string;
  /** The page's URL: `package` and `currency` preselect, and sign-in comes back to it. */
  url: URL;
  /** The signed-in visitor's id, or null; asked only once the service is found. */
  signedIn: () => Promise<string | null>;
}

export async function loadPurchasePage(
  deps: PurchasePageDeps,
  { routeId, url, signedIn }: PurchasePageRequest,
): Promise<PurchasePageData | PurchaseNotFoundData> {
  const service = await findPurchasableService(deps.db, routeId);
  if (!service) return { found: false, routeId };
  const user = await signedIn();
  // The treatment the invoice will carry, VIES asked again where due, so the total shown is the one charged.
  const tax = await taxForClient(deps.db, deps.config, user, { ask: true });
  const countryNeeded = user !== null && (await billingCountryNeeded(deps.db, deps.config, user));
  const snapshot = await deps.rates();
  const queryCurrency = toCurrencyCode(url.searchParams.get("currency"));
  const wanted = new Set<string>([...SELECTABLE_CURRENCIES, ...(queryCurrency ? [queryCurrency] : [])]);
  const rates: Record<string, number> = { USD: 1 };
  for (const code of wanted) if (snapshot[code]) rates[code] = snapshot[code];
  const here = `${url.pathname}${url.search}`;
  return {
    found: true,
    service: {
      id: service.id,
      slug: service.slug,
      name: service.name,
      description: service.description,
      packages: offeredPackages(service),
      quantity: quantityRules(service),
      addons: Object.entries(service.addons ?? {}).map(([key, addon]) => ({
        key,
        name: addon.name,
        priceUsd: addon.usd,
      })),
    },
    selectedPackage: choosePackage(service, url.searchParams.get("package")),
    queryCurrency: queryCurrency && rates[queryCurrency] ? queryCurrency : null,
    rates,
    tax,
    countryNeeded,
    signedIn: user !== null,
    // The purchase form's one-time token: a resubmitted form finds the order it already made.
    checkoutToken: user ? newCheckoutToken() : null,
    loginHref: `/client/login?redirectTo=${encodeURIComponent(here)}`,
    registerHref: `/client/register?redirectTo=${encodeURIComponent(here)}`,
  };
}
