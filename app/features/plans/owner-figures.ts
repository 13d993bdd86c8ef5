/**
 * The owner's figures of care plans (issue 38, item 7), pure: monthly recurring revenue computed in
 * cents, a plan's status in the client's words, and a declined renewal charge in words. No React, no
 * database, no I/O.
 */
import { fromMinorUnits, toMinorUnits } from "~/features/money/minor-units";
import type { ChargeDecline } from "~/features/payments/provider";
import type { ShownPlanStatus } from "./client-plans.server";
import type { PlanCycle } from "./plans";

/**
 * Monthly recurring revenue in USD: a monthly plan counts its price, a yearly one a twelfth of its
 * price. Summed exactly in cents (a yearly price in twelfths of a cent), rounded to the cent once at
 * the end, so 1,000 yearly plans of $490 make $40,833.33, not 1,000 roundings of $40.83.
 */
export function monthlyRecurringRevenueUsd(
  plans: ReadonlyArray<{ cycle: PlanCycle; priceUsd: number }>,
): number {
  let twelfths = 0;
  for (const plan of plans) {
    const cents = toMinorUnits(plan.priceUsd, "USD");
    twelfths += plan.cycle === "yearly" ? cents : cents * 12;
  }
  // An integer of twelfths of a cent: the one rounding, halves up.
  return fromMinorUnits(Math.round(twelfths / 12), "USD");
}

/** USD amounts added in cents (exact), as one amount. */
export function sumUsd(amounts: readonly number[]): number {
  return fromMinorUnits(
    amounts.reduce((cents, usd) => cents + toMinorUnits(usd, "USD"), 0),
    "USD",
  );
}

/** How MRR is computed, in the words shown under the figure. */
export const MRR_DEFINITION =
  "Active and past-due plans: monthly plans at their price, yearly plans at a twelfth of theirs, in USD before tax.";

/**
 * The client's word for a subscription's state, the rule of the client's Care Plans page: an
 * `incomplete` plan whose first invoice is paid is active (the activation job starts it within a
 * minute), else waiting for payment; an active plan cancelled at its period's end is ending.
 */
export function shownPlanStatus(
  sub: { status: string; cancelAtPeriodEnd: boolean },
  firstInvoicePaid: boolean,
): ShownPlanStatus {
  if (sub.status === "incomplete") return firstInvoicePaid ? "active" : "waiting";
  if (sub.status === "active" && sub.cancelAtPeriodEnd) return "ending";
  return sub.status as ShownPlanStatus;
}

/** Stripe's decline codes (the sandbox reports the same ones) in the owner's words. */
const DECLINE_WORDS: Record<string, string> = {
  insufficient_funds: "Insufficient funds",
  card_declined: "Declined by the card's bank",
  generic_decline: "Declined by the card's bank",
  do_not_honor: "Declined by the card's bank",
  card_velocity_exceeded: "The card's limit is reached",
  withdrawal_count_limit_exceeded: "The card's limit is reached",
  stolen_card: "The card is reported stolen",
  lost_card: "The card is reported lost",
  pickup_card: "The bank asks for the card to be retained",
  fraudulent: "Declined as suspected fraud",
  expired_card: "The card has expired",
  incorrect_cvc: "Wrong security code",
  incorrect_number: "Wrong card number",
  invalid_account: "The card's account is closed or invalid",
  account_closed: "The card's account is closed",
  processing_error: "An error at the card's bank",
  authentication_required: "The bank asks the cardholder to confirm the payment",
  authentication_not_handled: "The bank asks the cardholder to confirm the payment",
};

/** What follows a decline of each kind (dunning.ts). */
const AFTER_DECLINE: Record<"soft" | "hard" | "authentication", string> = {
  soft: "retried on days 1, 3 and 7 after the due date",
  hard: "not retried",
  authentication: "not retried: only the client can pay it",
};

/**
 * A declined renewal charge in words: what the bank said (the decline code's words, else the
 * provider's message, else its code) and what follows it ("Insufficient funds; retried on days 1, 3
 * and 7 after the due date").
 */
export function declineInWords(
  attempt: ChargeDecline & { message: string | null; outcome: "soft" | "hard" | "authentication" },
): string {
  const said =
    DECLINE_WORDS[attempt.declineCode ?? ""] ??
    DECLINE_WORDS[attempt.code ?? ""] ??
    (attempt.message?.trim() || null) ??
    `Declined (${attempt.declineCode ?? attempt.code ?? "no reason given"})`;
  return `${said.replace(/\.$/, "")}; ${AFTER_DECLINE[attempt.outcome]}.`;
}
