/**
 * Two-factor sign-in (TOTP, backup codes) on better-auth's `twoFactor` plugin, driven from route actions
 * like the rest of the accounts (docs/decisions/0702-two-factor-sign-in.md): turning it on (password,
 * QR code, a first code, backup codes shown once), off (password), new backup codes (password), and the
 * second step of a sign-in, limited per client address and slowed down per account.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { isAPIError } from "better-auth/api";
import { symmetricDecrypt } from "better-auth/crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import encodeQR from "qr";
import { session as sessionTable, twoFactor as twoFactorTable, verification } from "~/db/schema";
import { clearRateLimit, consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import { type ActionResult, parseForm } from "~/ui/form";
import { withinLimit } from "./accounts.server";
import { ensureClient } from "./clients.server";
import type { AccountDeps } from "./deps.server";
import { ACCOUNT_SIGN_IN_SLOWDOWN, signInDelayMs } from "./limits";
import { ACCOUNT_MESSAGES } from "./messages";
import { noteSignIn, sendSecurityAlert } from "./security-alerts.server";
import type { SessionUser } from "./session-user";
import {
  type ParsedCode,
  type TotpSetup,
  TWO_FACTOR_MESSAGES,
  type TwoFactorIntent,
  type TwoFactorView,
  twoFactorPasswordSchema,
  twoFactorSetupCodeSchema,
} from "./two-factor";

function errorCode(error: unknown): string | undefined {
  return isAPIError(error) ? (error.body as { code?: string } | undefined)?.code : undefined;
}

// --- QR code and secret ---------------------------------------------------------------------------------

/** The QR code of a text as one SVG path (dark modules, runs merged), with a 4-module quiet zone. */
export function qrPath(text: string): { size: number; path: string } {
  const grid = encodeQR(text, "raw", { ecc: "medium", border: 4 });
  let path = "";
  grid.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < row.length && row[x]) x++;
      path += `M${start} ${y}h${x - start}v1h-${x - start}z`;
    }
  });
  return { size: grid.length, path };
}

export function totpSetup(uri: string): TotpSetup {
  const secret = new URL(uri).searchParams.get("secret") ?? "";
  return { uri, secret, qr: qrPath(uri) };
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding, as authenticator apps read a secret. */
export function base32(bytes: Uint8Array): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** The `otpauth://` URI of a secret, as the plugin builds it (6 digits, 30 seconds). */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  const params = new URLSearchParams({
    secret: base32(new TextEncoder().encode(secret)),
    issuer,
    digits: "6",
    period: "30",
  });
  return `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(account)}?${params}`;
}

/** An unfinished setup (page reloaded, or a wrong first code): its QR code again. */
async function pendingSetup(
  deps: AccountDeps,
  user: { id: string; email: string },
): Promise<TotpSetup | null> {
  const [row] = await deps.db
    .select({ secret: twoFactorTable.secret, verified: twoFactorTable.verified })
    .from(twoFactorTable)
    .where(eq(twoFactorTable.userId, user.id))
    .limit(1);
  if (!row || row.verified) return null;
  const authContext = await deps.auth.$context;
  try {
    const secret = await symmetricDecrypt({ key: authContext.secretConfig, data: row.secret });
    return totpSetup(otpauthUri(deps.config.business.name, user.email, secret));
  } catch (error) {
    // Not readable with this auth secret (changed since): the page offers to cancel and start again.
    deps.logger.warn({ err: error }, "unfinished two-factor setup could not be read");
    return null;
  }
}

// --- Settings (profile tab, admins' setup page) -----------------------------------------------------------

export async function twoFactorStatus(
  deps: AccountDeps,
  user: { id: string; email: string },
): Promise<{ status: TwoFactorView["status"]; setup: TotpSetup | null }> {
  const [row] = await deps.db
    .select({ verified: twoFactorTable.verified })
    .from(twoFactorTable)
    .where(eq(twoFactorTable.userId, user.id))
    .limit(1);
  if (!row) return { status: "off", setup: null };
  if (row.verified) return { status: "on", setup: null };
  return { status: "pending", setup: await pendingSetup(deps, user) };
}

export async function twoFactorView(
  deps: AccountDeps,
  user: { id: string; email: string },
): Promise<TwoFactorView> {
  const { status, setup } = await twoFactorStatus(deps, user);
  return { status, setup, intent: null, backupCodes: null, notice: null, fieldErrors: {} };
}

/**
 * What a post of the settings answers (the one form answer, ADR 0011): the settings to show either
 * way, with their own notice and field messages; a refusal's `error` is its notice.
 */
export type TwoFactorResult = ActionResult<{ twoFactor: TwoFactorView }, { twoFactor: TwoFactorView }>;

export interface TwoFactorActionResult {
  result: TwoFactorResult;
  /** Set-Cookie headers to forward (turning it on or off replaces the session). */
  headers: Headers;
}

/** One of the settings' intents, for the signed-in `user`. */
export async function twoFactorAction(
  deps: AccountDeps,
  request: Request,
  user: SessionUser,
  intent: TwoFactorIntent,
  values: Record<string, string>,
): Promise<TwoFactorActionResult> {
  const headers = new Headers();
  const current = await twoFactorStatus(deps, user);
  const result = (
    status: number,
    changes: Partial<TwoFactorView> & Pick<TwoFactorView, "notice">,
  ): TwoFactorActionResult => {
    const view: TwoFactorView = {
      status: current.status,
      setup: current.setup,
      intent,
      backupCodes: null,
      fieldErrors: {},
      ...changes,
    };
    if (status === 200) return { result: { ok: true, twoFactor: view }, headers };
    return { result: { ok: false, status, error: view.notice?.text ?? "", twoFactor: view }, headers };
  };
  const error = (status: number, text: string, fieldErrors: Record<string, string> = {}) =>
    result(status, { notice: { tone: "error", text }, fieldErrors });
  const { auth } = deps;

  if (intent === "twoFactorCancel") {
    // Only an unfinished setup can be dropped without the password.
    await deps.db
      .delete(twoFactorTable)
      .where(and(eq(twoFactorTable.userId, user.id), eq(twoFactorTable.verified, false)));
    const after = await twoFactorStatus(deps, user);
    return result(200, {
      status: after.status,
      setup: after.setup,
      notice: { tone: "success", text: TWO_FACTOR_MESSAGES.setupCancelled },
    });
  }

  if (intent === "twoFactorConfirm") {
    if (current.status !== "pending") return error(400, TWO_FACTOR_MESSAGES.notEnabled);
    const parsed = parseForm(twoFactorSetupCodeSchema, values);
    if (!parsed.ok) {
      const text = TWO_FACTOR_MESSAGES.setupCodeRequired;
      return error(400, text, { code: text });
    }
    if (!(await withinLimit(deps, "twoFactor"))) return error(429, ACCOUNT_MESSAGES.tooManyAttempts);
    const startedAt = new Date();
    try {
      // With a session, the plugin marks the secret verified and turns two-factor on (a new session).
      const { headers: authHeaders } = await auth.api.verifyTOTP({
        body: { code: parsed.data.code },
        headers: request.headers,
        returnHeaders: true,
      });
      for (const cookie of authHeaders.getSetCookie()) headers.append("Set-Cookie", cookie);
    } catch (e) {
      if (errorCode(e) === "INVALID_CODE") {
        const text = TWO_FACTOR_MESSAGES.invalidSetupCode;
        return error(400, text, { code: text });
      }
      deps.logger.error({ err: e }, "two-factor confirmation failed");
      return error(500, TWO_FACTOR_MESSAGES.failed);
    }
    // Every other session (signed in before the second factor existed) ends; this one goes on.
    await deps.db
      .delete(sessionTable)
      .where(and(eq(sessionTable.userId, user.id), lt(sessionTable.createdAt, startedAt)));
    // The backup codes made when the setup started, shown now, once.
    const codes = await auth.api.viewBackupCodes({ body: { userId: user.id } });
    await sendSecurityAlert(deps, user, "twoFactorEnabled");
    return result(200, {
      status: "on",
      setup: null,
      backupCodes: codes.backupCodes,
      notice: { tone: "success", text: TWO_FACTOR_MESSAGES.enabled },
    });
  }

  // The others need the current password.
  const parsed = parseForm(twoFactorPasswordSchema, values);
  if (!parsed.ok) return error(400, parsed.error, { password: parsed.error });
  if (!(await withinLimit(deps, "twoFactorSettings"))) return error(429, ACCOUNT_MESSAGES.tooManyAttempts);
  const password = parsed.data.password;
  const wrongPassword = () =>
    error(400, TWO_FACTOR_MESSAGES.passwordWrong, { password: TWO_FACTOR_MESSAGES.passwordWrong });

  try {
    if (intent === "twoFactorStart") {
      if (current.status === "on") return error(400, TWO_FACTOR_MESSAGES.alreadyEnabled);
      const started = await auth.api.enableTwoFactor({
        body: { password, method: "totp" },
        headers: request.headers,
      });
      if (!("totpURI" in started) || !started.totpURI) throw new Error("no TOTP URI from enableTwoFactor");
      return result(200, {
        status: "pending",
        setup: totpSetup(started.totpURI),
        notice: { tone: "success", text: TWO_FACTOR_MESSAGES.setupStarted },
      });
    }
    if (intent === "twoFactorDisable") {
      if (current.status !== "on") return error(400, TWO_FACTOR_MESSAGES.notEnabled);
      const { headers: authHeaders } = await auth.api.disableTwoFactor({
        body: { password },
        headers: request.headers,
        returnHeaders: true,
      });
      for (const cookie of authHeaders.getSetCookie()) headers.append("Set-Cookie", cookie);
      await sendSecurityAlert(deps, user, "twoFactorDisabled");
      return result(200, {
        status: "off",
        setup: null,
        notice: { tone: "success", text: TWO_FACTOR_MESSAGES.disabled },
      });
    }
    // twoFactorBackupCodes
    if (current.status !== "on") return error(400, TWO_FACTOR_MESSAGES.notEnabled);
    const made = await auth.api.generateBackupCodes({ body: { password }, headers: request.headers });
    await sendSecurityAlert(deps, user, "backupCodesRegenerated");
    return result(200, {
      backupCodes: made.backupCodes,
      notice: { tone: "success", text: TWO_FACTOR_MESSAGES.codesRegenerated },
    });
  } catch (e) {
    const code = errorCode(e);
    if (code === "INVALID_PASSWORD" || code === "CREDENTIAL_ACCOUNT_NOT_FOUND") return wrongPassword();
    deps.logger.error({ err: e, intent }, "two-factor settings change failed");
    return error(500, TWO_FACTOR_MESSAGES.failed);
  }
}

// --- The second step of a sign-in -----------------------------------------------------------------------

function challengeCookieName(deps: AccountDeps): string {
  const https = deps.config.publicUrl.startsWith("https://");
  return `${https ? "__Host-" : ""}portico.two_factor`;
}

/**
 * Whose sign-in is waiting for a code: the user id behind the (signed) challenge cookie that the password
 * step set, while the challenge lasts. Null when there is none, it was tampered with, or it expired.
 */
export async function pendingSignInUserId(deps: AccountDeps, request: Request): Promise<string | null> {
  const name = challengeCookieName(deps);
  const header = request.headers.get("cookie") ?? "";
  const raw = header
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name}=`))
    ?.slice(name.length + 1);
  if (!raw) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const dot = decoded.lastIndexOf(".");
  if (dot <= 0) return null;
  const identifier = decoded.slice(0, dot);
  const signature = Buffer.from(decoded.slice(dot + 1), "base64");
  const expected = createHmac("sha256", deps.authSecret).update(identifier).digest();
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return null;
  const [row] = await deps.db
    .select({ userId: verification.value })
    .from(verification)
    .where(and(eq(verification.identifier, identifier), gt(verification.expiresAt, new Date())))
    .limit(1);
  return row?.userId ?? null;
}

export type SecondStepResult =
  | { ok: true; user: SessionUser; cookies: Headers }
  | { ok: false; status: number; error: string }
  /** The challenge is over (expired, or too many wrong codes): sign in again with the password. */
  | { ok: false; status: number; restart: "expired" | "retry"; cookies: Headers };

/**
 * Checks a code of the second step. Limited per client address (as sign-in is), and slowed down per
 * account after a few wrong codes (0700's schedule), counted before the code is checked so a parallel
 * burst is slowed too; the plugin also ends the challenge after 5 wrong codes.
 */
export async function verifySignInCode(
  deps: AccountDeps,
  request: Request,
  input: { code: ParsedCode; trustDevice: boolean },
): Promise<SecondStepResult> {
  if (!(await withinLimit(deps, "twoFactor"))) {
    return { ok: false, status: 429, error: ACCOUNT_MESSAGES.tooManyAttempts };
  }
  const userId = await pendingSignInUserId(deps, request);
  if (!userId) {
    return { ok: false, status: 400, restart: "expired", cookies: new Headers() };
  }
  const db = deps.db;
  const failuresKey = `account:twoFactorFailures:${userId}`;
  const attempt = await consumeRateLimit(
    db,
    failuresKey,
    Number.MAX_SAFE_INTEGER,
    ACCOUNT_SIGN_IN_SLOWDOWN.windowMs,
  );
  const delay = signInDelayMs(attempt.hits - 1);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  if (input.code.kind === "totp") {
    // A code works once: the same code again within its validity (3 steps of 30 s) is refused, so one
    // seen over a shoulder or in a proxy log cannot be replayed.
    const use = await consumeRateLimit(db, `account:totpUsed:${userId}:${input.code.code}`, 1, 120_000);
    if (!use.allowed) return { ok: false, status: 401, error: TWO_FACTOR_MESSAGES.invalidCode };
  }
  const { auth } = deps;
  const startedAt = new Date();
  try {
    const body = { code: input.code.code, trustDevice: input.trustDevice };
    const { headers, response } =
      input.code.kind === "totp"
        ? await auth.api.verifyTOTP({ body, headers: request.headers, returnHeaders: true })
        : await auth.api.verifyBackupCode({ body, headers: request.headers, returnHeaders: true });
    await clearRateLimit(db, failuresKey);
    const u = response.user as { id: string; name: string; email: string; role?: string };
    await ensureClient(db, u);
    await noteSignIn(deps, request, u, startedAt);
    return {
      ok: true,
      cookies: headers,
      user: { id: u.id, name: u.name, email: u.email, role: u.role === "admin" ? "admin" : "client" },
    };
  } catch (e) {
    const code = errorCode(e);
    if (code === "INVALID_CODE" || code === "INVALID_BACKUP_CODE") {
      return { ok: false, status: 401, error: TWO_FACTOR_MESSAGES.invalidCode };
    }
    if (code === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE") {
      const cookies = isAPIError(e) ? new Headers(e.headers ?? undefined) : new Headers();
      return { ok: false, status: 429, restart: "retry", cookies };
    }
    if (
      code === "INVALID_TWO_FACTOR_COOKIE" ||
      code === "TOTP_NOT_ENABLED" ||
      code === "BACKUP_CODES_NOT_ENABLED"
    ) {
      return { ok: false, status: 400, restart: "expired", cookies: new Headers() };
    }
    deps.logger.error({ err: e }, "two-factor sign-in failed");
    return { ok: false, status: 500, error: ACCOUNT_MESSAGES.loginFailed };
  }
}

// --- A code asked again to confirm a grave step (an account's deletion) -------------------------------------

/**
 * Whether `code` is the signed-in user's (the request's session) current TOTP code or one of their
 * backup codes, checked by the plugin itself on the session (its own decryption of the key, its window,
 * its constant-time comparison; no new session, no cookie). As at sign-in, a TOTP code works once: the
 * same code within its validity is refused, whether it was used to sign in or here; a backup code is
 * used up. Rate limiting is the caller's (with the password it confirms).
 */
export async function checkCurrentCode(
  deps: AccountDeps,
  request: Request,
  userId: string,
  code: ParsedCode,
): Promise<boolean> {
  const [row] = await deps.db
    .select({ verified: twoFactorTable.verified })
    .from(twoFactorTable)
    .where(eq(twoFactorTable.userId, userId))
    .limit(1);
  if (!row?.verified) return false;
  const headers = request.headers;
  try {
    if (code.kind === "totp") {
      // The sign-in's key (verifySignInCode), counted before the check as there.
      const use = await consumeRateLimit(deps.db, `account:totpUsed:${userId}:${code.code}`, 1, 120_000);
      if (!use.allowed) return false;
      const { user } = await deps.auth.api.verifyTOTP({ body: { code: code.code }, headers });
      return user.id === userId;
    }
    const { user } = await deps.auth.api.verifyBackupCode({
      body: { code: code.code, disableSession: true },
      headers,
    });
    return user.id === userId;
  } catch (e) {
    const reason = errorCode(e);
    if (reason === "INVALID_CODE" || reason === "INVALID_BACKUP_CODE") return false;
    throw e;
  }
}
