/**
 * How many of a client's domains are watched, and how often (issue 39, item 1; ADR 0541). Pure: the
 * watch job, the client's pages and the owner's page all read a domain's state from here.
 *
 * - A client with an active (or past-due) care plan that includes watched domains: that many domains,
 *   the first added first, checked daily.
 * - Otherwise (no plan, a suspended or ended one, or a plan without domains): the first domain, checked
 *   weekly.
 * - Every other domain is paused, and says why.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;
export const WEEK_MS = 7 * DAY_MS;

/** A client may list this many domains (or their plan's count if larger); the rest past the plan's wait. */
export const MAX_LISTED_DOMAINS = 20;

export interface WatchAllowance {
  /** How many domains are watched. */
  domains: number;
  cadence: "daily" | "weekly";
  /** The plan that gives them, for the words. */
  planName: string | null;
}

export type DomainWatchState =
  | { kind: "watched"; cadence: "daily" | "weekly"; intervalMs: number }
  | { kind: "paused"; why: string };

/** The allowance given by the client's plans (status and the plan's `watched_domains`). */
export function watchAllowance(
  plans: ReadonlyArray<{ status: string; planName: string; watchedDomains: number }>,
): WatchAllowance {
  const live = plans.filter(
    (p) => (p.status === "active" || p.status === "past_due") && p.watchedDomains > 0,
  );
  if (live.length === 0) return { domains: 1, cadence: "weekly", planName: null };
  return {
    domains: live.reduce((sum, p) => sum + p.watchedDomains, 0),
    cadence: "daily",
    planName: live.map((p) => p.planName).join(" and "),
  };
}

/** The state of each domain, in the order given (oldest first). */
export function domainWatchStates(count: number, allowance: WatchAllowance): DomainWatchState[] {
  const states: DomainWatchState[] = [];
  for (let i = 0; i < count; i++) {
    if (i < allowance.domains) {
      states.push({
        kind: "watched",
        cadence: allowance.cadence,
        intervalMs: allowance.cadence === "daily" ? DAY_MS : WEEK_MS,
      });
    } else {
      states.push({
        kind: "paused",
        why: allowance.planName
          ? `Paused: your ${allowance.planName} plan watches ${allowance.domains} ${allowance.domains === 1 ? "domain" : "domains"}. Remove another domain or choose a larger plan to watch this one.`
          : "Paused: without a care plan, we watch your first domain once a week. A care plan watches more domains every day.",
      });
    }
  }
  return states;
}

/** How many domains the client may list at all. */
export function listLimit(allowance: WatchAllowance): number {
  return Math.max(MAX_LISTED_DOMAINS, allowance.domains);
}

/**
 * When a domain is checked next: one interval after `from`, plus up to a tenth of it at random, so the
 * domains added together spread out instead of all falling due in the same minute.
 */
export function nextCheckAt(from: Date, intervalMs: number, random: () => number = Math.random): Date {
  return new Date(from.getTime() + intervalMs + Math.floor(random() * intervalMs * 0.1));
}

/** "daily", "weekly": what the pages say. */
export function watchStateWords(state: DomainWatchState): string {
  if (state.kind === "paused") return state.why;
  return state.cadence === "daily" ? "Checked every day" : "Checked once a week";
}
