/**
 * Serves React Router from Express. It does what @react-router/express does (a fetch Request from the
 * Node request, the Response back onto the Node response, aborting on disconnect, flushing
 * `text/event-stream` headers at once) and three things more, on every route in one place:
 *
 * - a loader or action that failed because the database is unavailable answers 503 (`Retry-After`),
 *   not 500; one that failed on a value PostgreSQL refuses (a NUL character) answers 400;
 * - pages and answers that belong to a signed-in person are never cached by a browser or proxy:
 *   `Cache-Control: private, no-store` on the portal, the back office, invoices, every document sent to
 *   a request carrying a session cookie, and every response that sets a cookie;
 * - errors are logged once, as one JSON line with the request id (entry.server.tsx's `handleError`
 *   calls the load context's `reportError`).
 */
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type express from "express";
import {
  type AppLoadContext,
  createRequestHandler,
  isRouteErrorResponse,
  type ServerBuild,
} from "react-router";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable, isRejectedInput } from "~/db/errors";
import { sessionCookiesToSet } from "~/features/accounts/session.server";
import { SESSION_COOKIE } from "~/features/accounts/session-cookie";
import { labelRoute, routeMatcher } from "./metrics";
import { storeIfCacheable } from "./page-cache";

export const UNAVAILABLE_MESSAGE = DATABASE_UNAVAILABLE_MESSAGE;
export const REJECTED_INPUT_MESSAGE = "The request contains a value that cannot be stored.";
/** Seconds a client should wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 5;

/** Paths whose every answer is private to the person signed in. */
const PRIVATE_PATHS = /^\/(client|invoice|admin|payment-success|dev\/mail)(\/|\.data$|$)/;

/** Headers a route may set for itself in place of the security middleware's (lower case). */
const ROUTE_OWN_HEADERS = new Set(["content-security-policy", "x-content-type-options"]);

/** What went wrong while React Router handled one request (filled in by `reportError`). */
export interface RequestFailures {
  databaseUnavailable: boolean;
  rejectedInput: boolean;
}

/** A body that `request.formData()` could not read (a multipart body without its boundary, …). */
function isUnreadableForm(error: unknown): boolean {
  return error instanceof TypeError && /FormData|Content-Type was not one of/i.test(error.message);
}

/** Sorts an error reported during a request into an outage, bad input or a bug, and logs it. */
export function reportRequestError(req: express.Request, failures: RequestFailures, error: unknown): void {
  if (isDatabaseUnavailable(error)) {
    failures.databaseUnavailable = true;
    req.log.error({ err: error }, "database unavailable");
  } else if (isRejectedInput(error) || isUnreadableForm(error)) {
    failures.rejectedInput = true;
    req.log.warn({ err: error }, "input refused by the database");
  } else if (isRouteErrorResponse(error) && error.status < 500) {
    // A 404 or a 405 thrown by the router: the caller's mistake, not ours.
    req.log.warn({ status: error.status, err: (error as { error?: unknown }).error }, "request refused");
  } else {
    req.log.error({ err: error }, "request failed");
  }
}

export function reactRouterHandler(options: {
  build: () => Promise<ServerBuild>;
  mode: "development" | "production";
  getLoadContext(req: express.Request, res: express.Response, failures: RequestFailures): AppLoadContext;
}): express.RequestHandler {
  // Given a function, React Router's handler calls it and derives everything from the build again on
  // every request (data routes, static handler, ranked route branches: 4 % of a signed-in page's CPU,
  // ADR 0820). In production the build never changes: it is loaded once and the handler made from the
  // object; development keeps the function, so an edited route is picked up.
  // With it, the route table's matcher that labels each request for /metrics (server/metrics.ts).
  type Handling = { handle: ReturnType<typeof createRequestHandler>; route: (pathname: string) => string };
  let handling: Promise<Handling> | null = null;
  const devHandler = createRequestHandler(options.build, options.mode);
  const handlerFor =
    options.mode === "development"
      ? () => options.build().then((build) => ({ handle: devHandler, route: routeMatcher(build.routes) }))
      : () => {
          handling ??= options.build().then(
            (build) => ({
              handle: createRequestHandler(build, options.mode),
              route: routeMatcher(build.routes),
            }),
            (error: unknown) => {
              handling = null;
              throw error;
            },
          );
          return handling;
        };
  return async (req, res, next) => {
    try {
      const failures: RequestFailures = { databaseUnavailable: false, rejectedInput: false };
      const { handle, route } = await handlerFor();
      labelRoute(res, route(req.path));
      const request = toFetchRequest(req, res);
      const context = options.getLoadContext(req, res, failures);
      let response = await handle(request, context);
      response = withSessionCookies(response, sessionCookiesToSet(context));
      response = answerFailures(request, response, failures);
      response = privateWhenPersonal(req, response);
      response = await storeIfCacheable(res, response);
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

/** A 500 caused by an outage or by refused input becomes a 503 or a 400, with a clean body. */
function answerFailures(request: Request, response: Response, failures: RequestFailures): Response {
  if (response.status !== 500) return response;
  const status = failures.databaseUnavailable ? 503 : failures.rejectedInput ? 400 : null;
  if (!status) return response;
  const headers = new Headers(response.headers);
  headers.set("Cache-Control", "no-store");
  if (status === 503) headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  const { pathname } = new URL(request.url);
  const type = headers.get("Content-Type") ?? "";
  // A document keeps its error page; single-fetch (.data) answers keep their encoding for the router.
  if (type.startsWith("text/html") || pathname.endsWith(".data")) {
    return new Response(response.body, { status, headers });
  }
  void response.body?.cancel();
  const message = status === 503 ? UNAVAILABLE_MESSAGE : REJECTED_INPUT_MESSAGE;
  headers.delete("Content-Length");
  if (pathname.startsWith("/api/")) {
    headers.set("Content-Type", "application/json; charset=utf-8");
    return new Response(JSON.stringify({ error: message }), { status, headers });
  }
  headers.set("Content-Type", "text/plain; charset=utf-8");
  return new Response(message, { status, headers });
}

/** The lookup's renewed (or cleared) session cookie, unless the answer sets the session cookie itself. */
function withSessionCookies(response: Response, cookies: readonly string[]): Response {
  if (cookies.length === 0) return response;
  if (response.headers.getSetCookie().some((c) => SESSION_COOKIE.test(c))) return response;
  const headers = new Headers(response.headers);
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function privateWhenPersonal(req: express.Request, response: Response): Response {
  const type = response.headers.get("Content-Type") ?? "";
  const personal =
    PRIVATE_PATHS.test(req.path) ||
    response.headers.has("Set-Cookie") ||
    (SESSION_COOKIE.test(req.get("cookie") ?? "") &&
      (type.startsWith("text/html") || req.path.endsWith(".data")));
  if (!personal) return response;
  try {
    response.headers.set("Cache-Control", "private, no-store");
    return response;
  } catch {
    // Immutable headers (a fetched response passed through): copy them.
    const headers = new Headers(response.headers);
    headers.set("Cache-Control", "private, no-store");
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/**
 * The address React Router sees, from the Host header (or a trusted proxy's X-Forwarded-Host). Throws
 * a TypeError for a host no URL can carry (`a b`, `[::1`, a port over 65535); requestGuards answers
 * those 400 before any route runs.
 */
export function requestUrl(req: express.Request): URL {
  const forwardedPort = req.app.enabled("trust proxy")
    ? req.get("X-Forwarded-Host")?.split(":")[1]
    : undefined;
  const hostPort = req.get("host")?.split(":")[1];
  const port = [forwardedPort, hostPort]
    .map((p) => Number.parseInt(p ?? "", 10))
    .find((p) => Number.isSafeInteger(p));
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  return new URL(`${req.protocol}://${hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
}

function toFetchRequest(req: express.Request, res: express.Response): Request {
  const url = requestUrl(req);

  let controller: AbortController | null = new AbortController();
  res.on("finish", () => {
    controller = null;
  });
  // A client that goes away (a closed tab, an ended event stream) aborts the request's signal.
  res.on("close", () => controller?.abort());

  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(key, v);
  }
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

async function sendResponse(res: express.Response, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) {
    // A route's own policy for what it serves (an attachment's sandbox CSP and nosniff) replaces the
    // page's set before it, rather than adding a second one; every other header is appended.
    if (ROUTE_OWN_HEADERS.has(key)) res.setHeader(key, value);
    else res.append(key, value);
  }
  // Server-Sent Events: the headers go out now, not with the first event.
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
