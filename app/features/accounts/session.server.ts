// Route glue, so these take the load context; the account functions take accountDeps(context) (deps.server.ts).
/**
 * Who is asking: the session behind a request, the access gate of /client/* (client-portal.md §4), and
 * the short-lived "pending verification" cookie that lets the verify-email screen know whose address
 * it is waiting for without a session.
 */

import { eq } from "drizzle-orm";
import { type AppLoadContext, createCookie, redirect } from "react-router";
import { type Client, session as sessionTable, user as userTable } from "~/db/schema";
import { pinnedCurrencyAtSignIn } from "~/features/currency/pinned-currency.server";
import type { CurrencyPreference } from "~/features/currency/preferences.server";
import type { Bell } from "~/features/notifications/bell.server";
import { ensureClient, markClientVerified } from "./clients.server";
import { readPortalShell } from "./portal-shell.server";
import { pastAbsoluteLifetime } from "./session-lifetimes";
import type { SessionUser } from "./session-user";

export interface SignedIn {
  user: SessionUser & { emailVerified: boolean; twoFactorEnabled: boolean };
  sessionId: string;
}

/**
 * The session is looked up once per request: the root loader, the portal shell and a page's loader or
 * action all ask, and share one answer. Keyed by the request's load context (one per request) and its
 * cookie header, so a request that changes the cookie asks again.
 */
const sessionsOfRequest = new WeakMap<AppLoadContext, Map<string, Promise<SignedIn | null>>>();

export function getSignedIn(request: Request, context: AppLoadContext): Promise<SignedIn | null> {
  let byCookie = sessionsOfRequest.get(context);
  if (!byCookie) {
    byCookie = new Map();
    sessionsOfRequest.set(context, byCookie);
  }
  const cookie = request.headers.get("cookie") ?? "";
  let lookup = byCookie.get(cookie);
  if (!lookup) {
    lookup = lookUpSession(request, context);
    byCookie.set(cookie, lookup);
    // A failed lookup is not remembered.
    lookup.catch(() => byCookie.delete(cookie));
  }
  return lookup;
}

/** Forgets this request's session answer (after signing in or out within the same request). */
export function forgetSignedIn(context: AppLoadContext): void {
  sessionsOfRequest.delete(context);
}

/**
 * The session cookies a lookup asked to set: a remembered session's cookie renewed with its extended
 * expiry (better-auth extends the session at most daily, ADR 0400), or a dead session's cookie
 * cleared. server/react-router.ts adds them to the response, unless it sets the session cookie itself
 * (a sign-in or sign-out). Without this, the browser kept the cookie's first Max-Age: a client using
 * the site every day was signed out 30 days after signing in, though the session itself lived on.
 */
const cookiesOfRequest = new WeakMap<AppLoadContext, string[]>();

export function sessionCookiesToSet(context: AppLoadContext): readonly string[] {
  return cookiesOfRequest.get(context) ?? [];
}

async function lookUpSession(request: Request, context: AppLoadContext): Promise<SignedIn | null> {
  const { headers, response: result } = await context.runtime.auth.api.getSession({
    headers: request.headers,
    returnHeaders: true,
  });
  const cookies = headers.getSetCookie();
  const keep = (list: string[]) => {
    if (list.length > 0) cookiesOfRequest.set(context, [...sessionCookiesToSet(context), ...list]);
  };
  if (!result) {
    keep(cookies);
    return null;
  }
  const { user, session } = result;
  if (pastAbsoluteLifetime(session.createdAt)) {
    // However recently used, a session ends 90 days after its sign-in (its cookie is not renewed: the
    // next lookup finds no session and clears it).
    await context.runtime.database.db.delete(sessionTable).where(eq(sessionTable.id, session.id));
    return null;
  }
  keep(cookies);
  return {
    sessionId: session.id,
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      role: (user as { role?: string }).role === "admin" ? "admin" : "client",
      emailVerified: user.emailVerified,
      twoFactorEnabled: (user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled === true,
    },
  };
}

/** The user the public header shows as signed in: a session with a confirmed email. */
export async function getCurrentUser(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  const signedIn = await getSignedIn(request, context);
  if (!signedIn?.user.emailVerified) return null;
  const { emailVerified: _ignored, twoFactorEnabled: _also, ...user } = signedIn.user;
  return user;
}

export interface PendingVerification {
  email: string;
  name: string;
}

function pendingCookie(context: AppLoadContext) {
  const { config, authSecret } = context.runtime;
  const https = config.publicUrl.startsWith("https://");
  return createCookie(`${https ? "__Host-" : ""}portico_pending_verification`, {
    httpOnly: true,
    sameSite: "lax",
    secure: https,
    path: "/",
    maxAge: 24 * 60 * 60,
    secrets: [authSecret],
  });
}

export async function readPendingVerification(
  request: Request,
  context: AppLoadContext,
): Promise<PendingVerification | null> {
  const value = await pendingCookie(context).parse(request.headers.get("cookie"));
  if (!value || typeof value.email !== "string") return null;
  return { email: value.email, name: typeof value.name === "string" ? value.name : "" };
}

/** Whose address verify-email waits for: the pending cookie set at registration, or an unverified session. */
export async function pendingVerificationFor(
  request: Request,
  context: AppLoadContext,
): Promise<PendingVerification | null> {
  const pending = await readPendingVerification(request, context);
  if (pending) return pending;
  const signedIn = await getSignedIn(request, context);
  return signedIn ? { email: signedIn.user.email, name: signedIn.user.name } : null;
}

/**
 * The address the login form offers (issue 37, item 13): the one this browser registered with (or tried
 * to sign in with before confirming it), read from the signed pending-verification cookie, once that
 * account's address is confirmed. Never from the query: a link cannot put an address in the form.
 */
export async function confirmedAddressOfThisBrowser(
  request: Request,
  context: AppLoadContext,
): Promise<string | null> {
  const pending = await readPendingVerification(request, context);
  if (!pending) return null;
  const [row] = await context.runtime.database.db
    .select({ emailVerified: userTable.emailVerified })
    .from(userTable)
    .where(eq(userTable.email, pending.email))
    .limit(1);
  return row?.emailVerified ? pending.email : null;
}

export function setPendingVerification(
  context: AppLoadContext,
  pending: PendingVerification,
): Promise<string> {
  return pendingCookie(context).serialize(pending);
}

export function clearPendingVerification(context: AppLoadContext): Promise<string> {
  return pendingCookie(context).serialize("", { maxAge: 0 });
}

/**
 * The access gate's refusals: no user → /client/login; signed in without a confirmed email →
 * /client/verify-email (remembering the address and name).
 */
async function refuse(signedIn: SignedIn | null, request: Request, context: AppLoadContext): Promise<never> {
  if (!signedIn) {
    const url = new URL(request.url);
    const back = `${url.pathname}${url.search}`;
    throw redirect(`/client/login?redirectTo=${encodeURIComponent(back)}`);
  }
  const { email, name } = signedIn.user;
  throw redirect("/client/verify-email", {
    headers: { "Set-Cookie": await setPendingVerification(context, { email, name }) },
  });
}

function sessionUserOf({ user }: SignedIn): SessionUser {
  return { id: user.id, name: user.name, email: user.email, role: user.role };
}

/**
 * The access gate: no user → /client/login; signed in without a confirmed email → /client/verify-email
 * (remembering the address and name); an admin held back by ADMIN_REQUIRE_2FA → its setup page (a 403
 * with `api`: the bell's fetcher); confirmed without a client record → one is created.
 */
export async function requireClient(
  request: Request,
  context: AppLoadContext,
  options: { api?: boolean } = {},
): Promise<{ user: SessionUser; client: Client }> {
  const signedIn = await getSignedIn(request, context);
  if (!signedIn?.user.emailVerified) return refuse(signedIn, request, context);
  if (lacksRequiredTwoFactor(signedIn, context))
    throw options.api ? twoFactorRequiredResponse("json") : redirect(ADMIN_TWO_FACTOR_SETUP);
  const user = sessionUserOf(signedIn);
  return { user, client: await clientOfRequest(request, context, user) };
}

/**
 * The client record is read once per request: the portal shell's loader and the page's loader both pass
 * the gate in the same request (one load context). An action (any method but GET and HEAD) always
 * reads it afresh and forgets what the request knew, so the loaders that run after it in the same
 * request (React Router runs them after the action) read the record as the action left it.
 */
const clientsOfRequest = new WeakMap<AppLoadContext, { userId: string; client: Promise<Client> }>();

const readsOnce = (request: Request) => request.method === "GET" || request.method === "HEAD";

function clientOfRequest(request: Request, context: AppLoadContext, user: SessionUser): Promise<Client> {
  if (!readsOnce(request)) {
    clientsOfRequest.delete(context);
    return ensureClient(context.runtime.database.db, user);
  }
  const known = clientsOfRequest.get(context);
  if (known?.userId === user.id) return known.client;
  return rememberClient(context, user.id, ensureClient(context.runtime.database.db, user));
}

function rememberClient(context: AppLoadContext, userId: string, client: Promise<Client>): Promise<Client> {
  clientsOfRequest.set(context, { userId, client });
  // A failed read is not remembered.
  client.catch(() => {
    if (clientsOfRequest.get(context)?.client === client) clientsOfRequest.delete(context);
  });
  return client;
}

/** The currency preference the portal shell's statement is reading for this request (GET only). */
const preferencesOfRequest = new WeakMap<
  AppLoadContext,
  { userId: string; preference: Promise<CurrencyPreference | null> }
>();

export interface PortalShell {
  user: SessionUser;
  client: Client;
  bell: Bell;
  liveCursor: number;
}

/**
 * The portal shell's loader: the access gate of requireClient, then the client record, the bell and the
 * live cursor in one statement with the saved currency preference (portal-shell.server.ts). On a GET
 * the client record and the preference are remembered for the request, so the page's loader and the
 * root loader, which run beside this one, do not read them again.
 *
 * Sharing depends on order, never on correctness: the root, shell and page loaders all wait for the one
 * session lookup and resume in route order. This one starts its statement in the step it resumes, so
 * the page's requireClient (resumed next) and the root loader (which asks for the preference a step
 * later, through getCurrentUser) find it. A loader that asked first would read for itself, as before;
 * the query budgets of tests/integration/portal-pages.test.ts would show it.
 */
export async function requirePortalShell(request: Request, context: AppLoadContext): Promise<PortalShell> {
  const signedIn = await getSignedIn(request, context);
  if (!signedIn?.user.emailVerified) return refuse(signedIn, request, context);
  // The shell carries the bell: an admin's is the owner's (ADMIN_REQUIRE_2FA, ADR 0702).
  if (lacksRequiredTwoFactor(signedIn, context)) throw redirect(ADMIN_TWO_FACTOR_SETUP);
  const user = sessionUserOf(signedIn);
  const { db } = context.runtime.database;
  const reads = readPortalShell(db, user.id);
  const once = readsOnce(request);
  const known = once ? clientsOfRequest.get(context) : undefined;
  let client: Promise<Client>;
  if (known?.userId === user.id) client = known.client;
  else {
    // The gate's rule, as ensureClient's: a verified user without a client record gets one.
    client = reads.then(({ client }) => (client?.emailVerified ? client : markClientVerified(db, user)));
    if (once) rememberClient(context, user.id, client);
  }
  if (once && preferencesOfRequest.get(context)?.userId !== user.id) {
    // For the root loader's currency: a failed read is no preference, as currency.server.ts's own read.
    const preference = reads.then(
      (r) => r.preference,
      () => null,
    );
    preferencesOfRequest.set(context, { userId: user.id, preference });
  }
  const [{ bell, liveCursor }, current] = await Promise.all([reads, client]);
  return { user, client: current, bell, liveCursor };
}

/**
 * The saved currency preference of the signed-in user when the portal shell is reading it in this
 * request (see requirePortalShell), else undefined: the caller reads it itself.
 */
export function preferenceOfRequest(
  context: AppLoadContext,
  userId: string,
): Promise<CurrencyPreference | null> | undefined {
  const known = preferencesOfRequest.get(context);
  return known?.userId === userId ? known.preference : undefined;
}

/** Where an admin without two-factor sign-in is sent when ADMIN_REQUIRE_2FA is on. */
export const ADMIN_TWO_FACTOR_SETUP = "/admin/two-factor";

/** What an API or stream answers (403) to an admin held back by ADMIN_REQUIRE_2FA. */
export const ADMIN_TWO_FACTOR_REQUIRED =
  "Two-factor sign-in is required for admins: turn it on at /admin/two-factor to continue.";

/**
 * The admins' two-factor rule (ADR 0702), one place for every surface: with ADMIN_REQUIRE_2FA, an
 * admin without two-factor sign-in reaches only its setup page and signing out. An admin session
 * carries the owner's data outside /admin too (the bell's notifications in the portal shell and at
 * /client/notifications, the live events at /api/events), so the portal's gates ask this as
 * requireAdmin does.
 */
export function lacksRequiredTwoFactor(signedIn: SignedIn | null, context: AppLoadContext): boolean {
  return Boolean(
    signedIn &&
      signedIn.user.role === "admin" &&
      context.runtime.config.adminRequireTwoFactor &&
      !signedIn.user.twoFactorEnabled,
  );
}

/** The 403 of an API (`json`) or a stream (`text`) refused by the admins' two-factor rule. */
export function twoFactorRequiredResponse(as: "json" | "text"): Response {
  const headers = { "Cache-Control": "no-store" };
  return as === "json"
    ? Response.json({ ok: false, error: ADMIN_TWO_FACTOR_REQUIRED }, { status: 403, headers })
    : new Response(ADMIN_TWO_FACTOR_REQUIRED, {
        status: 403,
        headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" },
      });
}

/**
 * Admin pages and actions: signed in with the admin role, else 404 for everyone (visitor or client), so
 * the back office does not even reveal that it exists. Every /admin loader and action calls this. With
 * ADMIN_REQUIRE_2FA, an admin without two-factor sign-in is refused too (sent to its setup page), on
 * loaders and actions alike; only that page itself passes `allowWithoutTwoFactor`.
 */
export async function requireAdmin(
  request: Request,
  context: AppLoadContext,
  options: { allowWithoutTwoFactor?: boolean } = {},
): Promise<SessionUser> {
  const signedIn = await getSignedIn(request, context);
  if (signedIn?.user.role !== "admin" || !signedIn.user.emailVerified)
    throw new Response("Not Found", { status: 404 });
  if (lacksRequiredTwoFactor(signedIn, context) && !options.allowWithoutTwoFactor) {
    throw redirect(ADMIN_TWO_FACTOR_SETUP);
  }
  const { emailVerified: _ignored, twoFactorEnabled: _also, ...user } = signedIn.user;
  return user;
}

/** Only same-site paths are followed after sign-in (no open redirect): see ./redirect.ts. */
export { safeRedirectPath } from "./redirect";

/**
 * The cookies of a completed sign-in: better-auth's, and the pinned currency of the person now signed
 * in (ADR 0822), so the shared public pages show their saved currency from the first one on.
 */
export async function signInCookies(
  request: Request,
  context: AppLoadContext,
  userId: string,
  authCookies: Headers,
): Promise<Headers> {
  const headers = forwardCookies(authCookies);
  const { config, database } = context.runtime;
  const pin = await pinnedCurrencyAtSignIn(
    database.db,
    userId,
    request.headers.get("cookie"),
    config.publicUrl.startsWith("https://"),
    context.logger,
  );
  if (pin) headers.append("Set-Cookie", pin);
  return headers;
}

/** Copies every Set-Cookie of a better-auth response into headers for our own response. */
export function forwardCookies(from: Headers, to: Headers = new Headers()): Headers {
  for (const cookie of from.getSetCookie()) to.append("Set-Cookie", cookie);
  return to;
}
