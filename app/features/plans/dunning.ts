/**
 * What happens after a renewal charge fails (issue 38, item 4; ADR 0531). Pure: the scheduler feeds it
 * the invoice's due date, the attempts so far and today's date, and does what it answers.
 *
 * Declines are classified the way Stripe describes them: its `advice_code` when present
 * (`do_not_try_again` is final, `try_again_later` is not, `confirm_card_data` needs the client), else the
 * `decline_code`. The sandbox provider reports the same codes.
 */
import type { ChargeDecline } from "~/features/payments/provider";
import { addDays, type CalendarDay } from "./periods";

/** soft: may succeed later, retried; hard: never retried; authentication: only the client can pay it. */
export type DeclineKind = "soft" | "hard" | "authentication";

/** Declines a retry cannot fix: the card is gone, refused for good, or must not be charged again. */
const HARD_DECLINES = new Set([
  "stolen_card",
  "lost_card",
  "pickup_card",
  "restricted_card",
  "fraudulent",
  "merchant_blacklist",
  "security_violation",
  "revocation_of_all_authorizations",
  "revocation_of_authorization",
  "stop_payment_order",
  "invalid_account",
  "account_closed",
  "card_not_supported",
  "currency_not_supported",
  "expired_card",
  "incorrect_number",
  "invalid_number",
  "invalid_expiry_month",
  "invalid_expiry_year",
  "do_not_try_again",
  "transaction_not_allowed",
]);

const AUTHENTICATION = new Set(["authentication_required", "authentication_not_handled"]);

export function classifyDecline({ code, declineCode, adviceCode }: ChargeDecline): DeclineKind {
  if (
    AUTHENTICATION.has(code ?? "") ||
    AUTHENTICATION.has(declineCode ?? "") ||
    adviceCode === "confirm_card_data"
  ) {
    return "authentication";
  }
  if (adviceCode === "do_not_try_again") return "hard";
  if (adviceCode === "try_again_later") return "soft";
  if (HARD_DECLINES.has(declineCode ?? "") || HARD_DECLINES.has(code ?? "")) return "hard";
  return "soft";
}

/** Off-session retries after a soft decline, in days after the due date. */
export const RETRY_DAYS = [1, 3, 7] as const;
/** A plan whose invoice is still unpaid this many days after its due date is suspended. */
export const SUSPEND_AFTER_DAYS = 7;

export interface ChargeAttempt {
  /** 0 for the charge on the due date, 1–3 for the retries. */
  attempt: number;
  outcome: "succeeded" | DeclineKind;
}

export type DunningStep =
  /** Charge off-session now; `attempt` names the idempotency key's attempt number. */
  | { kind: "charge"; attempt: number }
  /** Nothing to do before `on`. */
  | { kind: "wait"; on: CalendarDay }
  /** Unpaid and out of attempts: suspend the plan (its benefits stop) and tell the owner. */
  | { kind: "suspend" }
  /** Paid: nothing more. */
  | { kind: "done" };

/**
 * The next step for a renewal invoice that is due on `due` and unpaid, given its charge attempts so far
 * (in any order) and today. A day's step is the same however often it is asked: an attempt already made
 * is never made again.
 */
export function nextDunningStep(
  due: CalendarDay,
  attempts: ChargeAttempt[],
  today: CalendarDay,
): DunningStep {
  if (attempts.some((a) => a.outcome === "succeeded")) return { kind: "done" };
  const suspendOn = addDays(due, SUSPEND_AFTER_DAYS);
  // A hard decline or a card that needs its holder stops the off-session charges: the client pays from
  // the emailed link (or updates the card) until the suspension day.
  const stopped = attempts.some((a) => a.outcome === "hard" || a.outcome === "authentication");
  if (stopped) return today >= suspendOn ? { kind: "suspend" } : { kind: "wait", on: suspendOn };
  const schedule: { attempt: number; on: CalendarDay }[] = [
    { attempt: 0, on: due },
    ...RETRY_DAYS.map((days, i) => ({ attempt: i + 1, on: addDays(due, days) })),
  ];
  const lastMade = Math.max(-1, ...attempts.map((a) => a.attempt));
  const ahead = schedule.filter((s) => s.attempt > lastMade);
  // After a pause of the scheduler, the latest attempt that is due is made and the missed ones are
  // skipped: a card is never charged twice in one run to catch up.
  const dueNow = ahead.filter((s) => s.on <= today).at(-1);
  if (dueNow) return { kind: "charge", attempt: dueNow.attempt };
  if (ahead[0]) return { kind: "wait", on: ahead[0].on };
  // Every attempt made and failed (the last on day 7): suspended.
  return { kind: "suspend" };
}

/** The idempotency key of one charge: one per plan, period and attempt (the provider runs it at most once). */
export function renewalChargeKey(subscriptionId: string, periodIndex: number, attempt: number): string {
  return `plan:${subscriptionId}:period:${periodIndex}:attempt:${attempt}`;
}
