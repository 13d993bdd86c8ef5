/**
 * What a domain check says (issue 39, item 2): each check gives a verdict, the reason in plain words and
 * the facts it read (`details`), so the pages show the reason and the alerts compare the facts (days
 * left, the DMARC policy…) without parsing words. Pure types and helpers, no I/O.
 */

/**
 * - ok: nothing to do.
 * - warning: works, but worth improving (a DMARC policy at `none`, a certificate with 10 days left).
 * - problem: broken or about to break (an expired certificate, two SPF records, no STARTTLS).
 * - not-checked: this run could not tell (no address, a server this network cannot reach, a registry
 *   without RDAP, a name refused by the safety rules). Never a reason for an alert by itself.
 */
export type Verdict = "ok" | "warning" | "problem" | "not-checked";

export interface CheckResult<D = Record<string, unknown>> {
  verdict: Verdict;
  /** One or more sentences a client can read. */
  reason: string;
  details: D;
}

/** Worse first: a report's verdict is its worst check's. `not-checked` never hides a warning. */
const SEVERITY: Record<Verdict, number> = { problem: 3, warning: 2, "not-checked": 1, ok: 0 };

export function worstVerdict(verdicts: Iterable<Verdict>): Verdict {
  let worst: Verdict = "ok";
  for (const v of verdicts) if (SEVERITY[v] > SEVERITY[worst]) worst = v;
  return worst;
}

/** One finding of a check, before the findings are folded into its result. */
export interface Finding {
  verdict: Verdict;
  reason: string;
}

/**
 * Folds a check's findings into one verdict and one reason: the worst verdict, and every finding's
 * reason, the worst first. A check that is wholly ok says `okReason` when given (one sentence instead
 * of a list of good news).
 */
export function foldFindings<D>(findings: readonly Finding[], details: D, okReason?: string): CheckResult<D> {
  const verdict = worstVerdict(findings.map((f) => f.verdict));
  if (verdict === "ok" && okReason !== undefined) return { verdict, reason: sentence(okReason), details };
  const ordered = [...findings].sort((a, b) => SEVERITY[b.verdict] - SEVERITY[a.verdict]);
  const reason = ordered.map((f) => sentence(f.reason)).join(" ");
  return { verdict, reason: reason || sentence(okReason ?? "Nothing to report"), details };
}

/** A reason ends with a full stop (findings are written without one and joined). */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Whole days from `now` until `until` (negative once past), counted down: 23 h left is 0 days. */
export function daysUntil(until: Date, now: Date): number {
  return Math.floor((until.getTime() - now.getTime()) / 86_400_000);
}

/** "12 January 2027" in UTC: the checker's dates are calendar days everywhere (the CLI, the reasons). */
const DAY = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

export function formatDay(date: Date): string {
  return DAY.format(date);
}

/** "in 1 day", "in 12 days", "today", "1 day ago". */
export function daysPhrase(days: number): string {
  if (days === 0) return "today";
  const n = Math.abs(days);
  const unit = n === 1 ? "day" : "days";
  return days > 0 ? `in ${n} ${unit}` : `${n} ${unit} ago`;
}
