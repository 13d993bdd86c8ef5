/**
 * What a database error means for the request that met it: the database is unavailable (a 503, try
 * again soon) or the input held a value PostgreSQL refuses (a 400), rather than a bug (a 500). Pure: it
 * only reads error objects, from `pg`, PGlite or Drizzle (which wraps them in `cause`).
 */

/**
 * What a person is told while the database is unavailable: the 503 page and API answers
 * (server/react-router.ts), and pages that show a load error in place (the portal's services list).
 */
export const DATABASE_UNAVAILABLE_MESSAGE =
  "The service is temporarily unavailable. Please try again in a moment.";

/**
 * The message for a failed read, safe to show: the outage's message when the database is unavailable,
 * else the given fallback (a bug's own text, which may name tables or values, stays in the log).
 */
export function loadErrorMessage(
  error: unknown,
  fallback: string,
): { message: string; unavailable: boolean } {
  return isDatabaseUnavailable(error)
    ? { message: DATABASE_UNAVAILABLE_MESSAGE, unavailable: true }
    : { message: fallback, unavailable: false };
}

/** Socket errors of a database connection. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

/** SQLSTATEs of an unavailable server: class 08 is matched by prefix. */
const UNAVAILABLE_SQLSTATES = new Set([
  "57P01", // admin_shutdown (also pg_terminate_backend)
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, recovering)
  "57P05", // idle_session_timeout
  "57014", // query_canceled: statement_timeout
  "53300", // too_many_connections
  "25P03", // idle_in_transaction_session_timeout
]);

/** Messages of pg, pg-pool and PGlite for a lost, closed or slow connection. */
const UNAVAILABLE_MESSAGES = [
  /^timeout exceeded when trying to connect$/,
  /^Connection terminated/,
  /^Query read timeout$/,
  /is not queryable$/,
  /^Cannot use a pool after calling end/,
  /^PGlite is closed$/,
];

/** SQLSTATEs of a value PostgreSQL will not store (a NUL byte, a malformed number). */
const BAD_INPUT_SQLSTATES = new Set([
  "22021", // character_not_in_repertoire: invalid byte sequence (a NUL character)
  "22P02", // invalid_text_representation
  "22001", // string_data_right_truncation
  "22003", // numeric_value_out_of_range
  "22007", // invalid_datetime_format
  "22008", // datetime_field_overflow
]);

function* causes(error: unknown): Generator<Record<string, unknown>> {
  let current = error;
  for (let depth = 0; depth < 6 && current && typeof current === "object"; depth++) {
    yield current as Record<string, unknown>;
    current = (current as { cause?: unknown }).cause;
  }
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causes(error)) {
    const code = typeof e.code === "string" ? e.code : "";
    if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) {
      return true;
    }
    const message = typeof e.message === "string" ? e.message : "";
    if (UNAVAILABLE_MESSAGES.some((m) => m.test(message))) return true;
  }
  return false;
}

/** A value in the request that the database refused: the caller's fault, a 400. */
export function isRejectedInput(error: unknown): boolean {
  for (const e of causes(error)) {
    if (typeof e.code === "string" && BAD_INPUT_SQLSTATES.has(e.code)) return true;
  }
  return false;
}
