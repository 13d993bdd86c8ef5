import type { Logger } from "pino";
import type { Runtime } from "./runtime";

declare module "react-router" {
  interface AppLoadContext {
    runtime: Runtime;
    /** The request's id, also in the X-Request-Id header and every log line of the request. */
    requestId: string;
    /** The CSP nonce of this response. */
    cspNonce: string;
    /** A child logger carrying the request id. */
    logger: Logger;
    /** The caller's IP address (X-Forwarded-For honoured only with TRUST_PROXY), for rate limits. */
    clientIp: string | null;
    /**
     * Logs an error met while handling the request (one JSON line) and notes whether it was a database
     * outage (the answer becomes 503) or a value the database refused (400). entry.server.tsx's
     * handleError calls it for every loader, action and render error.
     */
    reportError(error: unknown): void;
  }
}
