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
  }
}
