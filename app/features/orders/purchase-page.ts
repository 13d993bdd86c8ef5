/**
 * What the purchase page (client-portal.md §4 "Purchase") is given: the service's packages, add-ons
 * and quantity rules, the currencies offered with their rates, and who is asking. Shared by the server
 * that shapes it and the page that shows it; prices here only show, the server prices the order.
 */

import type { OfferedPackage, QuantityRules } from "~/features/catalogue/catalogue";
import type { Rates } from "~/features/currency/currency";
import type { DocumentTax } from "~/features/tax/document-tax";

/** A package on the purchase page: one the service offers (catalogue.ts `offeredPackages`). */
export type PurchasePackage = OfferedPackage;

export interface PurchaseAddon {
  key: string;
  name: string;
  priceUsd: number;
}

export interface PurchasePageData {
  found: true;
  service: {
    id: string;
    /** The service's address (per-incident support's page offers a care plan's covered incident). */
    slug: string;
    name: string;
    description: string;
    packages: readonly PurchasePackage[];
    quantity: QuantityRules;
    addons: readonly PurchaseAddon[];
  };
  /** The package preselected: the one the link asked for if offered, else the default. */
  selectedPackage: string;
  /** The currency the link asked for, when it has a rate. */
  queryCurrency: string | null;
  /** The currencies offered (USD first), units per USD. */
  rates: Rates;
  /** The VAT treatment the invoice will carry for this buyer (issue 40): shown before paying. */
  tax: DocumentTax;
  /** Set when the seller's VAT rules need the buyer's billing country first (EU seller). */
  countryNeeded: boolean;
  signedIn: boolean;
  /** The purchase form's one-time token (signed-in visitors only). */
  checkoutToken: string | null;
  loginHref: string;
  registerHref: string;
}

/** A purchase URL naming no active service. */
export interface PurchaseNotFoundData {
  found: false;
  routeId: string;
}
