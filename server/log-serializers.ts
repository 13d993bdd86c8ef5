/**
 * What Portico's log lines may carry, in one place: every logger of the process (pino, pino-http's
 * request loggers, better-auth's messages) goes through these serializers.
 *
 * - An error is its type, message, code (and HTTP status), its cause the same way, and a stack only when
 *   it is unexpected (a bug rather than an outage or bad input). Never its other properties: pg-pool
 *   hangs the whole client on a lost connection's error (its PostgreSQL cancel key `secretKey`, the
 *   backend `processID`, the connection parameters, event listeners: several KB per line), and Drizzle
 *   puts a failed query's parameters (session tokens, password hashes) in its message.
 * - A request is its id, method and address, with tokens in the address masked; never its headers
 *   (cookies, authorization) or body. A response is its status.
 * - Anything else is copied a few levels deep, with secret-named keys masked and objects that are not
 *   plain data (a client, a socket, a request) reduced to their class name.
 */
import type { LoggerOptions } from "pino";
import { isDatabaseUnavailable, isRejectedInput } from "~/db/errors";

export const REDACTED = "[redacted]";

/** Keys whose values are secrets wherever they appear. */
const SECRET_KEY =
  /pass(word|wd)?|secret|token|cookie|authori[sz]ation|api[-_]?key|private[-_]?key|^key$|signature|^otp$|^code$|backup[-_]?codes?|session[-_]?id|credential/i;
/** Query parameters that carry secrets (verification and reset tokens, one-time codes). */
const SECRET_PARAM = /token|code|secret|pass|key|signature|sig$|otp|session|credential/i;
/** better-auth's reset link puts its token in the path: /api/auth/reset-password/{token}. */
const TOKEN_IN_PATH = /^(\/api\/auth\/reset-password\/)[^/?#]+/;

const MAX_MESSAGE = 500;
const MAX_STACK_FRAMES = 12;
const MAX_STRING = 300;

/** Programming errors: always logged with their stack. */
const BUG_TYPES = new Set([
  "TypeError",
  "ReferenceError",
  "SyntaxError",
  "RangeError",
  "EvalError",
  "AssertionError",
]);

export interface SerializedError {
  type: string;
  message: string;
  code?: string | number;
  status?: number;
  cause?: SerializedError;
  stack?: string;
}

/** Hides credentials in URLs (`postgres://user:password@host`) and token parameters in text. */
export function scrubText(text: string): string {
  return text
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^:/@\s]*):[^@\s]*@/gi, `$1:${REDACTED}@`)
    .replace(
      /([?&][^=&\s#]*?(?:token|code|secret|pass|key|signature|session)[^=&\s#]*=)[^&\s#"']+/gi,
      `$1${REDACTED}`,
    );
}

/** A request address fit for a log line: token parameters and path tokens masked, at most 300 characters. */
export function safeUrl(url: string | undefined): string {
  if (!url) return "";
  const hash = url.indexOf("#");
  const withoutHash = hash === -1 ? url : url.slice(0, hash);
  const q = withoutHash.indexOf("?");
  const path = (q === -1 ? withoutHash : withoutHash.slice(0, q)).replace(TOKEN_IN_PATH, `$1${REDACTED}`);
  if (q === -1) return path.slice(0, MAX_STRING);
  const query = withoutHash
    .slice(q + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq === -1) return pair;
      return SECRET_PARAM.test(pair.slice(0, eq)) ? `${pair.slice(0, eq + 1)}${REDACTED}` : pair;
    })
    .join("&");
  return `${path}?${query}`.slice(0, MAX_STRING);
}

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : null;
}

function typeOf(e: Record<string, unknown>): string {
  // pino-http hands its serializer pino's own serialization, which has kept the class name in `type`.
  if (Object.getPrototypeOf(e) === Object.prototype && typeof e.type === "string") return e.type;
  const name = (e.constructor as { name?: unknown } | undefined)?.name;
  if (typeof name === "string" && name !== "Object" && name !== "Error") return name;
  return typeof e.name === "string" && e.name ? e.name : "Error";
}

function messageOf(e: Record<string, unknown>): string {
  let message = typeof e.message === "string" ? e.message : String(e.message ?? "");
  // Drizzle: "Failed query: {sql}\nparams: {values}". The values are data (tokens, hashes): never logged.
  const params = message.indexOf("\nparams:");
  if (message.startsWith("Failed query:") && params !== -1) message = message.slice(0, params);
  message = scrubText(message);
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
}

function codeOf(e: Record<string, unknown>): string | number | undefined {
  return typeof e.code === "string" || typeof e.code === "number" ? e.code : undefined;
}

function statusOf(e: Record<string, unknown>): number | undefined {
  const status = e.status ?? e.statusCode;
  return typeof status === "number" && Number.isInteger(status) ? status : undefined;
}

/**
 * An outage, a refused input or a client's mistake, which its type, message and code explain: no stack.
 * Anything else, and any programming error, is unexpected and keeps its stack.
 */
export function isExpectedError(error: unknown): boolean {
  const top = record(error);
  if (!top || BUG_TYPES.has(typeOf(top))) return false;
  if (isDatabaseUnavailable(error) || isRejectedInput(error)) return true;
  let current: Record<string, unknown> | null = top;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = codeOf(current);
    // Node's system errors (ECONNRESET, ETIMEDOUT…) and nodemailer's (EAUTH, ECONNECTION, EENVELOPE…).
    if (typeof code === "string" && /^E[A-Z0-9_]+$/.test(code) && !code.startsWith("ERR_")) return true;
    const status = statusOf(current);
    if (status !== undefined && status >= 400 && status < 500) return true;
    if (current.name === "AbortError" || current.name === "TimeoutError") return true;
    // pino-http's stand-in for a 5xx answer that had no error: the request's own lines say why.
    if (typeof current.message === "string" && /^failed with status code \d{3}$/.test(current.message))
      return true;
    current = record(current.cause);
  }
  return false;
}

function stackOf(e: Record<string, unknown>): string | undefined {
  if (typeof e.stack !== "string") return undefined;
  const lines = e.stack.split("\n");
  // The first line repeats the message (unscrubbed, for Drizzle with its parameters): ours is above.
  const frames = lines.filter((l) => /^\s+at /.test(l)).slice(0, MAX_STACK_FRAMES);
  return scrubText(frames.join("\n"));
}

/** pino's own serialization of an error (what pino-http hands its serializer) keeps the error in `raw`. */
function unwrap(error: unknown): unknown {
  const raw = record(error)?.raw;
  return raw instanceof Error ? raw : error;
}

/** The one error serializer (pino's `err`). Accepts raw errors and pino's serialization of them. */
export function serializeError(value: unknown, depth = 0): SerializedError {
  const error = unwrap(value);
  const e = record(error);
  if (!e) {
    // A string is an error's message (the outbox logs its last delivery error so).
    const text = scrubText(String(error));
    return {
      type: typeof error === "string" ? "Error" : typeof error,
      message: text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text,
    };
  }
  const out: SerializedError = { type: typeOf(e), message: messageOf(e) };
  const code = codeOf(e);
  if (code !== undefined) out.code = code;
  const status = statusOf(e);
  if (status !== undefined) out.status = status;
  // AggregateError (a connection refused on every address): its first error says why.
  const cause = e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined);
  if (cause !== undefined && cause !== null && depth < 3) out.cause = serializeError(cause, depth + 1);
  if (depth === 0 && !isExpectedError(error)) {
    const stack = stackOf(e);
    if (stack) out.stack = stack;
  }
  return out;
}

interface RequestLike {
  id?: unknown;
  method?: unknown;
  url?: unknown;
  originalUrl?: unknown;
}

/** pino-http's `req`: id, method and address. Never headers (cookies, authorization), never a body. */
export function serializeRequest(req: RequestLike): { id: string; method: string; url: string } {
  const url =
    typeof req.originalUrl === "string" ? req.originalUrl : typeof req.url === "string" ? req.url : "";
  return { id: String(req.id ?? ""), method: String(req.method ?? "").slice(0, 20), url: safeUrl(url) };
}

/** pino-http's `res`: the status. Never headers (Set-Cookie). */
export function serializeResponse(res: { statusCode?: unknown }): { statusCode: number } {
  return { statusCode: typeof res.statusCode === "number" ? res.statusCode : 0 };
}

/**
 * Any other value bound for a log line: plain data copied two levels deep (ten entries per array,
 * twenty keys per object), secret-named keys masked, errors serialized, and objects that are not plain
 * data (clients, sockets, requests, streams) reduced to their class name.
 */
export function summarize(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value === "string") {
    const text = scrubText(value);
    return text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}…` : text;
  }
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object") return `[${typeof value}]`;
  if (value instanceof Error) return serializeError(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    if (depth >= 2) return `[Array(${value.length})]`;
    return value.slice(0, 10).map((v) => summarize(v, depth + 1));
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    return `[${(value.constructor as { name?: string } | undefined)?.name || "Object"}]`;
  }
  if (depth >= 2) return "[Object]";
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value).slice(0, 20)) {
    // An error code ("INVALID_TOKEN") is not a secret; a one-time code is.
    const errorCode = key === "code" && typeof v === "string" && /^[A-Z][A-Z0-9_]*$/.test(v);
    out[key] = SECRET_KEY.test(key) && !errorCode ? REDACTED : summarize(v, depth + 1);
  }
  return out;
}

/**
 * The serializers and redaction every logger of the process is built with. `redact` is the last guard
 * for values logged under other keys: a secret-named field at the top or one level down is masked.
 */
export const loggerOptions = {
  serializers: {
    err: serializeError,
    error: serializeError,
    req: serializeRequest,
    res: serializeResponse,
    // better-auth's messages carry whatever it passed along (app/features/accounts/auth.server.ts).
    auth: (value: unknown) => summarize(value),
  },
  redact: {
    paths: [
      "password",
      "*.password",
      "token",
      "*.token",
      "secret",
      "*.secret",
      "secretKey",
      "*.secretKey",
      "cookie",
      "*.cookie",
      "headers",
      "*.headers",
      "authorization",
      "*.authorization",
      "client",
      "*.client",
    ],
    censor: REDACTED,
  },
} satisfies Pick<LoggerOptions, "serializers" | "redact">;
