/** The owner's filters of watched domains by open alert (issue 39, item 5). Pure: the page reads them. */

/** The filters by open alert, by family prefix. */
export const DOMAIN_PROBLEM_FILTERS = {
  any: "Any open alert",
  cert: "Certificates",
  registration: "Registration",
  dmarc: "DMARC",
  spf: "SPF",
  starttls: "STARTTLS",
  dns: "Not in the DNS",
} as const;
export type DomainProblemFilter = keyof typeof DOMAIN_PROBLEM_FILTERS;

export function problemFilterOf(value: string | null): DomainProblemFilter | null {
  return value && value in DOMAIN_PROBLEM_FILTERS ? (value as DomainProblemFilter) : null;
}
