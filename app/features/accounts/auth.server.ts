/**
 * better-auth on Portico's database: email + password, email verification, password reset, sessions in
 * the database, rate limits in the database. Created once per process by the runtime.
 */
import { APIError, betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { createAuthMiddleware } from "better-auth/api";
import { twoFactor } from "better-auth/plugins/two-factor";
import type { Logger } from "pino";
import type { Config } from "~/config.server";
import type { Database } from "~/db/client.server";
import * as schema from "~/db/schema";
import { consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import { markClientVerified } from "./clients.server";
import { serverPasswordError } from "./common-passwords.server";
import { betterAuthRateRules } from "./limits";
import { MAX_PASSWORD_LENGTH } from "./password";
import { SESSION_IDLE_SECONDS, SESSION_REFRESH_SECONDS } from "./session-lifetimes";

export const CLIENT_IP_HEADER = "x-portico-client-ip";

export interface AccountEmails {
  verification(user: { name: string; email: string }, url: string): Promise<void>;
  passwordReset(user: { name: string; email: string }, url: string): Promise<void>;
}

/** Verification links live a day; reset links an hour (single use either way). */
export const VERIFICATION_LINK_TTL_SECONDS = 24 * 60 * 60;
export const RESET_LINK_TTL_SECONDS = 60 * 60;
/** "Trust this device": no code asked on this browser for 30 days. The code step lives 10 minutes. */
export const TRUST_DEVICE_SECONDS = 30 * 24 * 60 * 60;
export const TWO_FACTOR_CHALLENGE_SECONDS = 10 * 60;

/**
 * The only better-auth endpoints reachable over HTTP: the links in the verification and password-reset
 * emails. Everything else (sign-up, sign-in, update-user, change-email, …) is done through the app's own
 * forms, which call `auth.api` on the server after applying the spec's rules; over HTTP those endpoints
 * would be a second door without the rules (a 2 MB name, an `image` of `javascript:…`). A new endpoint
 * (a plugin's, an upgrade's) stays closed until it is listed here.
 */
const PUBLIC_AUTH_ENDPOINTS: Array<{ methods: string[]; path: RegExp }> = [
  { methods: ["GET", "HEAD"], path: /^\/verify-email$/ },
  { methods: ["GET", "HEAD"], path: /^\/reset-password\/[^/]+$/ },
];

/** Whether an HTTP request may reach better-auth's handler (`pathname` is the full path). */
export function isPublicAuthEndpoint(method: string, pathname: string): boolean {
  if (!pathname.startsWith("/api/auth/")) return false;
  const path = pathname.slice("/api/auth".length);
  return PUBLIC_AUTH_ENDPOINTS.some((e) => e.methods.includes(method) && e.path.test(path));
}

/** Endpoints whose body carries a new password, and the field holding it. */
const NEW_PASSWORD_FIELD: Record<string, string> = {
  "/sign-up/email": "password",
  "/reset-password": "newPassword",
  "/change-password": "newPassword",
};

export function createAuth(deps: {
  config: Config;
  db: Database;
  secret: string;
  logger: Logger;
  emails: AccountEmails;
  /** Called once an address is verified (the back office promotes ADMIN_EMAILS there). */
  onVerified?: (user: { id: string; email: string }) => Promise<void>;
}) {
  const { config, db, logger, emails } = deps;
  const https = config.publicUrl.startsWith("https://");
  return betterAuth({
    appName: config.business.name,
    baseURL: config.publicUrl,
    basePath: "/api/auth",
    secret: deps.secret,
    trustedOrigins: [config.publicUrl],
    telemetry: { enabled: false },
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        twoFactor: schema.twoFactor,
      },
    }),
    user: {
      additionalFields: {
        role: { type: "string", required: false, defaultValue: "client", input: false },
      },
    },
    session: {
      // "Remember me": 30 days, refreshed daily. Without it: a browser-session cookie and a 1-day session.
      // Idle lifetime here; the absolute one is enforced where the session is read (session.server.ts).
      expiresIn: SESSION_IDLE_SECONDS,
      updateAge: SESSION_REFRESH_SECONDS,
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: 8,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: RESET_LINK_TTL_SECONDS,
      sendResetPassword: async ({ user, url }) => emails.passwordReset(user, url),
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: false,
      autoSignInAfterVerification: false,
      expiresIn: VERIFICATION_LINK_TTL_SECONDS,
      sendVerificationEmail: async ({ user, url }) => emails.verification(user, url),
      afterEmailVerification: async (user) => {
        await markClientVerified(db, user);
        await deps.onVerified?.(user);
      },
    },
    rateLimit: {
      enabled: true,
      window: 60,
      max: 60,
      // The account limits' one table (limits.ts), shared with the account forms.
      customRules: betterAuthRateRules(),
      // The same table as every other rate limit, so limits hold across processes.
      customStorage: {
        consume: async (key, rule) => {
          const r = await consumeRateLimit(db, `auth:${key}`, rule.max, rule.window * 1000);
          return { allowed: r.allowed, retryAfter: r.allowed ? null : r.retryAfterSeconds };
        },
      },
    },
    advanced: {
      // Over https every auth cookie is `__Host-` prefixed (Secure, Path=/, no Domain: the browser then
      // refuses it from a sibling subdomain or over http). better-auth's own switch only gives
      // `__Secure-`, so the names are set here and its switch stays off.
      useSecureCookies: false,
      cookiePrefix: "portico",
      cookies: https
        ? hostPrefixedCookies("portico", [
            "session_token",
            "session_data",
            "dont_remember",
            "two_factor",
            "trust_device",
          ])
        : {},
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: https, path: "/" },
      // Set by server/app.ts from Express's req.ip (which honours X-Forwarded-For only with TRUST_PROXY),
      // replacing whatever a client sent under that name.
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      // A session and its user in one query rather than two, on every signed-in request (drizzle's
      // relations in db/schema.ts; ADR 0820).
      database: { joins: true },
    },
    plugins: [
      // TOTP two-factor sign-in with backup codes (docs/decisions/0702-two-factor-sign-in.md). Its
      // endpoints stay closed over HTTP (PUBLIC_AUTH_ENDPOINTS); two-factor.server.ts drives them.
      twoFactor({
        issuer: config.business.name,
        trustDeviceMaxAge: TRUST_DEVICE_SECONDS,
        twoFactorCookieMaxAge: TWO_FACTOR_CHALLENGE_SECONDS,
        // Wrong codes are slowed down per account and limited per address (two-factor.server.ts), as
        // wrong passwords are (0700); the plugin's lockout would let anyone who knows the password lock
        // the owner out.
        accountLockout: { enabled: false },
      }),
    ],
    hooks: {
      // The spec's password rules hold on every path that sets a password, not only in our forms.
      before: createAuthMiddleware(async (ctx) => {
        const field = NEW_PASSWORD_FIELD[ctx.path];
        if (!field) return;
        const value = (ctx.body as Record<string, unknown> | undefined)?.[field];
        const error = typeof value === "string" ? serverPasswordError(value) : "Password is required";
        if (error) throw new APIError("BAD_REQUEST", { message: error, code: "WEAK_PASSWORD" });
      }),
    },
    logger: {
      log: (level, message, ...args) => {
        const fn = level === "error" ? logger.error : level === "warn" ? logger.warn : logger.debug;
        // `auth` has its own serializer (server/log-serializers.ts): errors by type and message, no
        // objects, no secrets.
        fn.call(logger, { auth: args.length ? args : undefined }, message);
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

function hostPrefixedCookies(prefix: string, names: string[]): Record<string, { name: string }> {
  return Object.fromEntries(names.map((n) => [n, { name: `__Host-${prefix}.${n}` }]));
}
