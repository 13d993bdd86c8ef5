import type { RequestHandler } from "express";

/**
 * The same-origin rule of mutating requests (ARCHITECTURE.md, security bars), enforced for every POST by
 * sameOriginOnly below. Browsers send `Origin` on cross-origin POSTs and `Sec-Fetch-Site` where they
 * support it; a request with neither comes from a non-browser client (a payment provider's webhook,
 * curl), for which no cookie can be forged, so it passes.
 */
export function isCrossSite(input: {
  origin: string | null | undefined;
  fetchSite: string | null | undefined;
  /** The origin the request was addressed to (scheme://host of the request itself). */
  requestOrigin: string;
  publicUrl: string;
}): boolean {
  if (input.fetchSite === "cross-site") return true;
  const { origin } = input;
  if (!origin) return false;
  if (origin === "null") return true;
  return origin !== input.requestOrigin && origin !== new URL(input.publicUrl).origin;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
export const CROSS_ORIGIN_REFUSED = "Cross-origin requests are not allowed.";

/** Refuses state-changing requests that a browser sent from another site (CSRF), before any route runs. */
export function sameOriginOnly(publicUrl: string): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get("origin");
    const fetchSite = req.get("sec-fetch-site");
    const requestOrigin = `${req.protocol}://${req.get("host")}`;
    if (!isCrossSite({ origin, fetchSite, requestOrigin, publicUrl })) return next();
    req.log.warn({ origin, fetchSite }, "cross-origin request refused");
    // JSON callers (the /api endpoints) get JSON, as they expect; forms get plain text.
    if (req.is("application/json") || req.path.startsWith("/api/")) {
      res.status(403).json({ error: CROSS_ORIGIN_REFUSED });
    } else {
      res.status(403).type("text/plain").send(CROSS_ORIGIN_REFUSED);
    }
  };
}
