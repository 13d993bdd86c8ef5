/**
 * The sandbox's test cards (ADR 0531): the card a client picks on the sandbox's page decides how later
 * charges of it end, as Stripe's test cards do (the same last four digits and the same decline codes).
 * Pure, for the sandbox's page and the provider alike.
 */
import type { ChargeDecline } from "./provider";

export interface SandboxTestCard {
  label: string;
  brand: string;
  last4: string;
  /** How a charge of it ends: null succeeds. */
  decline: ChargeDecline | null;
  /** Expires at the end of the month it was saved in (to try the expiring-card notice). */
  expiresThisMonth?: boolean;
}

export const SANDBOX_TEST_CARDS = {
  succeeds: { label: "Visa 4242: charges succeed", brand: "visa", last4: "4242", decline: null },
  expiring: {
    label: "Mastercard 4444: charges succeed, expires this month",
    brand: "mastercard",
    last4: "4444",
    decline: null,
    expiresThisMonth: true,
  },
  insufficient_funds: {
    label: "Visa 9995: declined, insufficient funds (retried)",
    brand: "visa",
    last4: "9995",
    decline: { code: "card_declined", declineCode: "insufficient_funds" },
  },
  stolen: {
    label: "Visa 9979: declined, stolen card (not retried)",
    brand: "visa",
    last4: "9979",
    decline: { code: "card_declined", declineCode: "stolen_card" },
  },
  authentication: {
    label: "Visa 3184: needs the cardholder's authentication",
    brand: "visa",
    last4: "3184",
    decline: { code: "authentication_required", declineCode: "authentication_required" },
  },
} as const satisfies Record<string, SandboxTestCard>;

export type SandboxTestCardName = keyof typeof SANDBOX_TEST_CARDS;

export const SANDBOX_TEST_CARD_NAMES = Object.keys(SANDBOX_TEST_CARDS) as SandboxTestCardName[];

export function isSandboxTestCard(value: unknown): value is SandboxTestCardName {
  return typeof value === "string" && Object.hasOwn(SANDBOX_TEST_CARDS, value);
}

/** The expiry a card saved on `savedAt` gets: the end of that month for `expiring`, else three years on. */
export function sandboxCardExpiry(
  name: SandboxTestCardName,
  savedAt: Date,
): { expMonth: number; expYear: number } {
  const card: SandboxTestCard = SANDBOX_TEST_CARDS[name];
  const month = savedAt.getUTCMonth() + 1;
  const year = savedAt.getUTCFullYear();
  return card.expiresThisMonth ? { expMonth: month, expYear: year } : { expMonth: month, expYear: year + 3 };
}
