import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { NextFunction, Request, RequestHandler, Response } from "express";
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
        // The stylesheet is a file of the site's own (ADR 0821); development keeps Vite's style tags.
        "style-src": dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'", ...(dev ? ["ws:"] : [])],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
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

/** The policy of a static file: it may load nothing, run nothing and be framed by no one. */
export const FILE_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Headers of a built file (script, stylesheet, icon) as express.static serves it: not sniffed as another
 * type, readable by this origin only, the strictest CSP (an SVG opened directly runs nothing), and HSTS
 * over https.
 */
export function fileHeaders(config: Config): (res: ServerResponse) => void {
  const https = config.publicUrl.startsWith("https://");
  return (res) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
    res.setHeader("Content-Security-Policy", FILE_CSP);
    if (https) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  };
}

/**
 * The JSON APIs under /api/ (exchange rates, location, events, webhooks, test hooks): answers no browser
 * renders as a document, so they carry a file's headers. better-auth's endpoints (/api/auth/*) are not
 * among them: their verification and reset links land in the browser and may answer with a page.
 */
export function isDataApi(path: string): boolean {
  return path.startsWith("/api/") && !path.startsWith("/api/auth/");
}

/** Runs middleware in order, stopping at the first that answers or fails. */
export function runAll(handlers: RequestHandler[], req: Request, res: Response, next: NextFunction): void {
  let i = 0;
  const step = (error?: unknown) => {
    if (error !== undefined || i === handlers.length) return next(error);
    handlers[i++]!(req, res, step);
  };
  step();
}

/**
 * Browser features the site never uses, turned off for it and for anything it might embed (so an
 * injected script or frame cannot ask for the camera, a payment sheet or the location).
 */
export const PERMISSIONS_POLICY = [
  "accelerometer",
  "autoplay",
  "camera",
  "display-capture",
  "encrypted-media",
  "fullscreen",
  "geolocation",
  "gyroscope",
  "magnetometer",
  "microphone",
  "midi",
  "payment",
  "picture-in-picture",
  "publickey-credentials-get",
  "screen-wake-lock",
  "usb",
  "xr-spatial-tracking",
]
  .map((feature) => `${feature}=()`)
  .join(", ");

export const permissionsPolicy: RequestHandler = (_req, res, next) => {
  res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
  next();
};

/**
 * In production with an https PUBLIC_URL, a request that reached us over plain http (as the proxy
 * reports it in X-Forwarded-Proto, trusted per TRUST_PROXY) is sent to the https address: 301 for
 * reads, 308 for anything else so a form post is not silently turned into a GET. Health checks
 * stay answerable over http for load balancers.
 */
export function httpsOnly(config: Config): RequestHandler {
  const publicUrl = new URL(config.publicUrl);
  const active = config.env === "production" && publicUrl.protocol === "https:";
  return (req: Request, res, next) => {
    if (!active || req.secure || req.path === "/healthz") return next();
    const status = req.method === "GET" || req.method === "HEAD" ? 301 : 308;
    res.redirect(status, new URL(req.originalUrl, publicUrl.origin).toString());
  };
}
