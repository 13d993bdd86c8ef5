/**
 * Incidents covered by a care plan (issue 38, item 6): what the purchase page of per-incident support
 * shows a client whose plan has incidents left, in words shared by the page and the server. Pure.
 */

/** The service whose jobs a plan's incident allowance covers (the catalogue's per-incident support). */
export const COVERED_SERVICE_SLUG = "per-incident-support";

/** One plan period that can cover an incident now, as the purchase page offers it. */
export interface CoveredIncidentOffer {
  /** The plan_periods row the order is counted against (the server checks it again when posted). */
  periodId: string;
  planName: string;
  left: number;
  allowance: number;
  /** "1 March 2027 to 1 April 2027". */
  period: string;
}

/** What the purchase page is given: the periods that cover an incident now, and the form's own token. */
export interface CoveredIncidentChoice {
  offers: CoveredIncidentOffer[];
  /** The covered form's one-time token (not the payment form's: each form makes its own order). */
  checkoutToken: string;
}

/** "2 of 3 incidents left this period". */
export function incidentsLeftText(left: number, allowance: number): string {
  return `${left} of ${allowance} ${allowance === 1 ? "incident" : "incidents"} left this period`;
}

export const COVERED_MESSAGES = {
  noneLeft: "No covered incidents are left this period",
  periodNotFound: "This care plan period was not found. Please reload the page.",
  notCoveredService: "Only per-incident support is covered by a care plan.",
  periodOver: (planName: string) =>
    `This period of ${planName} is not the current one any more. Please reload the page.`,
  unpaid: (planName: string) =>
    `The invoice for this period of ${planName} is not paid yet: its incidents are covered once it is.`,
  notCovering: (planName: string, state: string) => `${planName} is ${state}: it covers no incidents now.`,
} as const;
