/**
 * What the account screens do, as feature functions: the route modules only parse and wire. Every
 * message is the spec's (client-portal.md §8) unless the spec is silent.
 */
import { isAPIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import { user as userTable } from "~/db/schema";
import { rateLimitAddress } from "~/features/rate-limit/address";
import { clearRateLimit, consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import { ensureClient, markClientVerified } from "./clients.server";
import type { AccountDeps } from "./deps.server";
import { ACCOUNT_LIMITS, ACCOUNT_SIGN_IN_SLOWDOWN, type AccountAction, signInDelayMs } from "./limits";
import { ACCOUNT_MESSAGES } from "./messages";
import { noteSignIn, sendSecurityAlert } from "./security-alerts.server";
import type { SessionUser } from "./session-user";

export { ACCOUNT_MESSAGES };

/** Where the verification link leads once the address is confirmed (client-portal.md §7, sign-up). */
export const VERIFIED_CALLBACK = "/client/login?verified=true";
export const RESET_CALLBACK = "/client/reset-password";

export async function withinLimit(deps: AccountDeps, action: AccountAction, subject = ""): Promise<boolean> {
  const { max, windowMs } = ACCOUNT_LIMITS[action];
  const key = `account:${action}:${rateLimitAddress(deps.clientIp)}${subject ? `:${subject}` : ""}`;
  const result = await consumeRateLimit(deps.db, key, max, windowMs);
  return result.allowed;
}

async function findUserByEmail(deps: AccountDeps, email: string) {
  const [row] = await deps.db
    .select({
      id: userTable.id,
      name: userTable.name,
      email: userTable.email,
      emailVerified: userTable.emailVerified,
    })
    .from(userTable)
    .where(eq(userTable.email, email))
    .limit(1);
  return row ?? null;
}

function errorCode(error: unknown): string | undefined {
  return isAPIError(error) ? (error.body as { code?: string } | undefined)?.code : undefined;
}

function errorMessage(error: unknown): string | undefined {
  return isAPIError(error)
    ? (error.body as { message?: string } | undefined)?.message || error.message
    : undefined;
}

// --- Register ---------------------------------------------------------------------------------------

export type SignUpResult =
  | { ok: true }
  | { ok: false; status: number; error: string; fieldErrors?: Record<string, string> };

export async function signUp(
  deps: AccountDeps,
  request: Request,
  input: { name: string; email: string; password: string },
  /** A same-site path to come back to after verifying and signing in (e.g. the purchase page). */
  returnTo: string | null = null,
): Promise<SignUpResult> {
  if (!(await withinLimit(deps, "signUp"))) {
    return { ok: false, status: 429, error: ACCOUNT_MESSAGES.tooManyAttempts };
  }
  // The spec's screen says when an address is taken; we say no more than that.
  if (await findUserByEmail(deps, input.email)) {
    return {
      ok: false,
      status: 409,
      error: ACCOUNT_MESSAGES.alreadyRegistered,
      fieldErrors: { email: ACCOUNT_MESSAGES.emailExists },
    };
  }
  try {
    await deps.auth.api.signUpEmail({
      body: {
        name: input.name,
        email: input.email,
        password: input.password,
        callbackURL: returnTo
          ? `${VERIFIED_CALLBACK}&redirectTo=${encodeURIComponent(returnTo)}`
          : VERIFIED_CALLBACK,
      },
      headers: request.headers,
    });
  } catch (error) {
    const message = errorMessage(error);
    if (message && errorCode(error) === "WEAK_PASSWORD") {
      // The large common-password list is checked on the server only (auth.server.ts).
      return { ok: false, status: 400, error: message, fieldErrors: { password: message } };
    }
    if (message) return { ok: false, status: 400, error: message };
    deps.logger.error({ err: error }, "registration failed");
    return { ok: false, status: 500, error: ACCOUNT_MESSAGES.registrationFailed };
  }
  try {
    await deps.emails.welcome({ name: input.name, email: input.email });
  } catch (error) {
    // The spec: a welcome email failure is only logged.
    deps.logger.error({ err: error }, "welcome email could not be queued");
  }
  return { ok: true };
}

// --- Log in -----------------------------------------------------------------------------------------

export type SignInResult =
  | { ok: true; user: SessionUser; cookies: Headers }
  /** The password was right and the account has two-factor on: no session yet, a code comes next. */
  | { ok: true; twoFactor: true; cookies: Headers }
  | { ok: false; status: number; error: string }
  | { ok: false; status: 403; unverified: { email: string; name: string } };

export async function signIn(
  deps: AccountDeps,
  request: Request,
  input: { email: string; password: string; rememberMe: boolean },
): Promise<SignInResult> {
  if (!(await withinLimit(deps, "signIn"))) {
    return { ok: false, status: 429, error: ACCOUNT_MESSAGES.tooManyAttempts };
  }
  // Per account, besides the per-address limit above: slowed down after a few failures, never locked.
  const db = deps.db;
  const failuresKey = `account:signInFailures:${input.email}`;
  const { windowMs } = ACCOUNT_SIGN_IN_SLOWDOWN;
  // Counted before the password is checked (a success clears it), so a parallel burst is slowed too:
  // each attempt in it sees the ones before it.
  const attempt = await consumeRateLimit(db, failuresKey, Number.MAX_SAFE_INTEGER, windowMs);
  const delay = signInDelayMs(attempt.hits - 1);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  const startedAt = new Date();
  try {
    const { headers, response } = await deps.auth.api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: input.rememberMe },
      headers: request.headers,
      returnHeaders: true,
    });
    if ("twoFactorRedirect" in response && response.twoFactorRedirect) {
      // The challenge cookie is in `headers`; the second step (two-factor.server.ts) finishes it.
      await clearRateLimit(db, failuresKey);
      return { ok: true, twoFactor: true, cookies: headers };
    }
    const u = response.user as { id: string; name: string; email: string; role?: string };
    await clearRateLimit(db, failuresKey);
    // Confirmation detected on sign-in: the client record is ensured, verified.
    await ensureClient(deps.db, u);
    // A device not seen lately: a security alert (if the client wants them).
    await noteSignIn(deps, request, u, startedAt);
    return {
      ok: true,
      cookies: headers,
      user: { id: u.id, name: u.name, email: u.email, role: u.role === "admin" ? "admin" : "client" },
    };
  } catch (error) {
    const code = errorCode(error);
    if (code === "INVALID_EMAIL_OR_PASSWORD") {
      return { ok: false, status: 401, error: ACCOUNT_MESSAGES.invalidCredentials };
    }
    if (code === "EMAIL_NOT_VERIFIED") {
      const found = await findUserByEmail(deps, input.email);
      return { ok: false, status: 403, unverified: { email: input.email, name: found?.name ?? "" } };
    }
    const message = errorMessage(error);
    if (message) return { ok: false, status: 400, error: message };
    deps.logger.error({ err: error }, "login failed");
    return { ok: false, status: 500, error: ACCOUNT_MESSAGES.loginFailed };
  }
}

// --- Verify email -----------------------------------------------------------------------------------

export type VerificationStatus = { verified: true; email: string; name: string } | { verified: false };

/** Whether the address is confirmed now; if so, the client record is created or updated as verified. */
export async function checkVerification(deps: AccountDeps, email: string): Promise<VerificationStatus> {
  const found = await findUserByEmail(deps, email);
  if (!found?.emailVerified) return { verified: false };
  await markClientVerified(deps.db, found);
  return { verified: true, email: found.email, name: found.name };
}

export async function resendVerification(deps: AccountDeps, email: string | null): Promise<string> {
  if (!email) return ACCOUNT_MESSAGES.resendMissingEmail;
  try {
    if (!(await withinLimit(deps, "resend", email))) return ACCOUNT_MESSAGES.resendFailed;
    await deps.auth.api.sendVerificationEmail({ body: { email, callbackURL: VERIFIED_CALLBACK } });
    return ACCOUNT_MESSAGES.resendSent;
  } catch (error) {
    if (isAPIError(error)) return ACCOUNT_MESSAGES.resendFailed;
    deps.logger.error({ err: error }, "resend verification failed");
    return ACCOUNT_MESSAGES.resendException;
  }
}

// --- Forgot and reset password ------------------------------------------------------------------------

/**
 * Always the same answer, whether or not the address has an account, and in the same time: the request
 * waits only for the rate limit (the same for every address); too many requests from one address are
 * refused (429). Looking the account up, storing the reset token and queueing the email happen after the
 * answer, so how long the answer takes says nothing about whether the address is registered.
 */
export async function requestPasswordReset(
  deps: AccountDeps,
  email: string,
): Promise<{ ok: true; message: string } | { ok: false; status: 429; error: string }> {
  if (!(await withinLimit(deps, "reset"))) {
    return { ok: false, status: 429, error: ACCOUNT_MESSAGES.tooManyAttempts };
  }
  const { auth } = deps;
  const { logger } = deps;
  setImmediate(() => {
    auth.api.requestPasswordReset({ body: { email, redirectTo: RESET_CALLBACK } }).catch((error: unknown) => {
      logger.error({ err: error }, "password reset request failed");
    });
  });
  return { ok: true, message: ACCOUNT_MESSAGES.resetRequested };
}

export async function resetPassword(
  deps: AccountDeps,
  input: { token: string; password: string },
): Promise<{ ok: true } | { ok: false; status: number; error: string }> {
  if (!(await withinLimit(deps, "reset"))) {
    return { ok: false, status: 429, error: ACCOUNT_MESSAGES.tooManyAttempts };
  }
  try {
    // Ends every session of the user (revokeSessionsOnPasswordReset).
    await deps.auth.api.resetPassword({
      body: { token: input.token, newPassword: input.password },
    });
    return { ok: true };
  } catch (error) {
    if (errorCode(error) === "INVALID_TOKEN") {
      return { ok: false, status: 400, error: ACCOUNT_MESSAGES.resetLinkInvalid };
    }
    const message = errorMessage(error);
    if (message) return { ok: false, status: 400, error: message };
    deps.logger.error({ err: error }, "password reset failed");
    return { ok: false, status: 500, error: ACCOUNT_MESSAGES.passwordFailed };
  }
}

// --- Change password (profile) ------------------------------------------------------------------------

export async function changePassword(
  deps: AccountDeps,
  request: Request,
  input: { currentPassword: string; newPassword: string },
): Promise<{ ok: true } | { ok: false; status: number; error: string }> {
  if (!(await withinLimit(deps, "changePassword"))) {
    return { ok: false, status: 429, error: ACCOUNT_MESSAGES.tooManyAttempts };
  }
  const { auth } = deps;
  let changed: { user: { id: string; name: string; email: string; role?: string | null } };
  try {
    changed = await auth.api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword },
      headers: request.headers,
    });
  } catch (error) {
    if (errorCode(error) === "INVALID_PASSWORD") {
      return { ok: false, status: 400, error: ACCOUNT_MESSAGES.currentPasswordWrong };
    }
    const message = errorMessage(error);
    if (message && errorCode(error) === "WEAK_PASSWORD") return { ok: false, status: 400, error: message };
    deps.logger.warn({ err: error }, "password change failed");
    return { ok: false, status: 400, error: ACCOUNT_MESSAGES.passwordFailed };
  }
  // Every other session (other browsers, a stolen cookie) ends; this one goes on.
  await auth.api.revokeOtherSessions({ headers: request.headers }).catch((error: unknown) => {
    deps.logger.error({ err: error }, "could not end the other sessions after a password change");
  });
  await sendSecurityAlert(deps, changed.user, "passwordChanged");
  return { ok: true };
}
