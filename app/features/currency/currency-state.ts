import type { DetectedLocation, Rates } from "./currency";

/** What the root loader hands the browser: the currency to show, the rates known so far, the location. */
export interface CurrencyState {
  currency: string;
  /** Rates against USD known to the page (at least the shown currency's, when it has one). */
  rates: Rates;
  location: DetectedLocation;
}
