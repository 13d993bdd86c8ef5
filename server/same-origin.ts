import type { RequestHandler } from "express";
import { isCrossSite } from "~/features/security/same-origin";

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
