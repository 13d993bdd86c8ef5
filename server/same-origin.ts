import type { RequestHandler } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests that a browser sent from another site (CSRF). Browsers always send
 * `Origin` on cross-origin POSTs, and `Sec-Fetch-Site` where supported; a request with neither comes
 * from a non-browser client (a payment provider's webhook, curl), which cookies cannot be forged for.
 */
export function sameOriginOnly(publicUrl: string): RequestHandler {
  const allowed = new URL(publicUrl).origin;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get("origin");
    const ownOrigin = `${req.protocol}://${req.get("host")}`;
    const fetchSite = req.get("sec-fetch-site");
    const crossOrigin =
      (origin !== undefined && origin !== "null" && origin !== allowed && origin !== ownOrigin) ||
      origin === "null" ||
      (origin === undefined && fetchSite === "cross-site");
    if (!crossOrigin) return next();
    req.log.warn({ origin, fetchSite }, "cross-origin request refused");
    res.status(403).type("text/plain").send("Cross-origin requests are not allowed.");
  };
}
