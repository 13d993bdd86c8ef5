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
