/**
 * Whether a Cookie header carries better-auth's session cookie (prefix "portico", with or without a
 * `__Secure-` or `__Host-` prefix, auth.server.ts). Only its presence: whether the session is valid is
 * for better-auth to say. Read where a request must be told apart without a lookup: documents for a
 * session are private (server/react-router.ts), and a request without one is signed out for sure (the
 * fast path's answer to /api/session, server/page-cache.ts).
 */
export const SESSION_COOKIE = /(^|;\s*)(__Secure-|__Host-)?portico\.session_token=/;
