/**
 * The one table of the account rate limits, per client address: the account forms (accounts.server.ts)
 * and better-auth's own endpoints (auth.server.ts) both take their numbers from here, so a form and the
 * endpoint behind it can never disagree.
 */
const TEN_MINUTES = 10 * 60_000;

export const ACCOUNT_LIMITS = {
  signIn: { max: 10, windowMs: TEN_MINUTES, endpoints: ["/sign-in/email"] },
  signUp: { max: 5, windowMs: TEN_MINUTES, endpoints: ["/sign-up/email"] },
  resend: { max: 3, windowMs: TEN_MINUTES, endpoints: ["/send-verification-email"] },
  reset: { max: 5, windowMs: TEN_MINUTES, endpoints: ["/request-password-reset", "/reset-password"] },
  changePassword: { max: 10, windowMs: TEN_MINUTES, endpoints: ["/change-password"] },
  // Two-factor sign-in codes (the second step), and the password checks of its settings.
  twoFactor: {
    max: 10,
    windowMs: TEN_MINUTES,
    endpoints: ["/two-factor/verify-totp", "/two-factor/verify-backup-code"],
  },
  twoFactorSettings: {
    max: 10,
    windowMs: TEN_MINUTES,
    endpoints: ["/two-factor/enable", "/two-factor/disable", "/two-factor/generate-backup-codes"],
  },
  // The password (and code) that confirm an account's deletion (issue 25, ADR 0520).
  deleteAccount: { max: 10, windowMs: TEN_MINUTES, endpoints: ["/verify-password"] },
} as const;

export type AccountAction = keyof typeof ACCOUNT_LIMITS;

/** The same limits in better-auth's `rateLimit.customRules` form (window in seconds). */
export function betterAuthRateRules(): Record<string, { window: number; max: number }> {
  const rules: Record<string, { window: number; max: number }> = {};
  for (const { max, windowMs, endpoints } of Object.values(ACCOUNT_LIMITS)) {
    for (const path of endpoints) rules[path] = { window: windowMs / 1000, max };
  }
  return rules;
}

/**
 * Sign-in attempts per account (whatever address they come from; a success clears them): the first few cost nothing; after
 * that each attempt on the account waits longer before its password is checked, up to a ceiling. The
 * owner is slowed down, never locked out, and an unknown address is slowed the same way as a known one
 * (the counter is keyed by the typed address, so the delay says nothing about whether it exists). A
 * successful sign-in clears the counter.
 */
export const ACCOUNT_SIGN_IN_SLOWDOWN = {
  windowMs: 15 * 60_000,
  freeFailures: 5,
  firstDelayMs: 1000,
  maxDelayMs: 8000,
} as const;

/** How long an attempt waits after `failures` failed sign-ins on the account in the window. */
export function signInDelayMs(failures: number, policy = ACCOUNT_SIGN_IN_SLOWDOWN): number {
  if (failures < policy.freeFailures) return 0;
  const doublings = Math.min(failures - policy.freeFailures, 10);
  return Math.min(policy.firstDelayMs * 2 ** doublings, policy.maxDelayMs);
}
