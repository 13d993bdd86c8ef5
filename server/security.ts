import { randomBytes } from "node:crypto";
import type { RequestHandler } from "express";
import helmet from "helmet";
import type { Config } from "~/config.server";

/** Gives each response a fresh CSP nonce, read by entry.server.tsx for every inline script. */
export const cspNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
};

/**
 * Security headers. The CSP is enforced, not report-only: scripts run only from our origin or with
 * this response's nonce. Development relaxes it for Vite's hot-reload client.
 */
export function securityHeaders(config: Config): RequestHandler {
  const https = config.publicUrl.startsWith("https://");
  const dev = config.env === "development";
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": dev
          ? ["'self'", "'unsafe-inline'", "'unsafe-eval'"]
          : [
              "'self'",
              (_req, res) =>
                `'nonce-${(res as unknown as { locals: { cspNonce: string } }).locals.cspNonce}'`,
            ],
        "style-src": ["'self'", ...(dev ? ["'unsafe-inline'"] : [])],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'", ...(dev ? ["ws:"] : [])],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        ...(https ? { "upgrade-insecure-requests": [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
  });
}
