/**
 * Request body limits, enforced before any route reads a byte of the body.
 *
 * - A declared `Content-Length` above the limit is answered 413 at once; the body is never read.
 * - A body without a length (chunked) is counted as it streams in: the middleware wraps the request
 *   stream's `push`, which Node's HTTP parser calls for every chunk, so it consumes nothing itself and
 *   whoever reads the body next (React Router's `request.formData()`, `express.raw()` for a webhook that
 *   needs the raw bytes to check a signature) reads it as usual. Past the limit it answers 413, drops
 *   the rest and fails the reader's stream with an error, so no action runs on a truncated body.
 *
 * The default fits every form and JSON body of the site. A route that needs more (an upload, a payment
 * provider's webhook) gets a rule in BODY_LIMITS below: the longest matching path prefix wins, among the
 * rules for the body's media type (an upload's rule leaves the route's other forms at the default); a
 * rule with `match` applies only to the paths it matches, and may say what its 413 means (`message`).
 */
import type express from "express";
import { UUID_PATTERN } from "~/features/ids/ids";
import { MESSAGE_POST_MAX_BYTES, MESSAGE_POST_TOO_LARGE } from "~/features/orders/attachments";

export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

export interface BodyLimitRule {
  /** A path prefix, e.g. "/api/payments/". */
  prefix: string;
  /** When set, the rule applies only to the paths under the prefix that this matches. */
  match?: RegExp;
  bytes: number;
  /** Only bodies of this media type (e.g. "multipart/form-data" for uploads); any type when absent. */
  type?: string;
  /** What the 413 says (else `tooLargeMessage`). */
  message?: string;
}

/** Routes allowed more than the default. */
export const BODY_LIMITS: BodyLimitRule[] = [
  // Payment providers' webhook events (Stripe's can exceed 64 KB); the route reads the raw body.
  { prefix: "/api/payments/", bytes: 1024 * 1024 },
  // The owner's order page: a message with up to 5 files of 10 MB (ADR 0512), multipart only (its other
  // forms keep the default). The route itself answers the form's 413 above 51 MB
  // (features/orders/message-post.server.ts); this is the backstop past that.
  { prefix: "/admin/orders/", bytes: 64 * 1024 * 1024, type: "multipart/form-data" },
  // A client's order page posts messages with up to five files of 10 MB (ADR 0512): that page only
  // (its document and its `.data` path), not the files under it nor any other order path.
  {
    prefix: "/client/orders/",
    match: new RegExp(`^/client/orders/${UUID_PATTERN}(\\.data)?$`, "i"),
    bytes: MESSAGE_POST_MAX_BYTES,
    message: MESSAGE_POST_TOO_LARGE,
  },
];

export class PayloadTooLargeError extends Error {
  override name = "PayloadTooLargeError";
  readonly status = 413;
  constructor(readonly limit: number) {
    super(`request body larger than ${limit} bytes`);
  }
}

export function tooLargeMessage(limit: number): string {
  const size = limit % 1024 === 0 ? `${limit / 1024} KB` : `${limit} bytes`;
  return `The request is too large: at most ${size} can be sent here.`;
}

/** The rule for a path and media type: the longest matching prefix (whose `match`, if any, matches too). */
export function ruleFor(path: string, rules: BodyLimitRule[], contentType = ""): BodyLimitRule | undefined {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  let best: BodyLimitRule | undefined;
  for (const rule of rules) {
    if (rule.type && rule.type !== type) continue;
    if (!path.startsWith(rule.prefix) || (rule.match && !rule.match.test(path))) continue;
    if (!best || rule.prefix.length > best.prefix.length) best = rule;
  }
  return best;
}

export function limitFor(path: string, rules: BodyLimitRule[], fallback: number, contentType = ""): number {
  return ruleFor(path, rules, contentType)?.bytes ?? fallback;
}

function answerTooLarge(
  req: express.Request,
  res: express.Response,
  limit: number,
  message = tooLargeMessage(limit),
): void {
  req.log?.warn({ limit, contentLength: req.get("content-length") ?? null }, "request body too large");
  if (res.headersSent) return;
  // The rest of the body is not wanted: the connection closes after this answer.
  res.status(413).set({ Connection: "close", "Cache-Control": "no-store" });
  if (req.path.startsWith("/api/") || req.is("application/json")) res.json({ error: message });
  else res.type("text/plain").send(message);
}

export function bodyLimit(
  options: { defaultBytes?: number; rules?: BodyLimitRule[] } = {},
): express.RequestHandler {
  const fallback = options.defaultBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const rules = options.rules ?? BODY_LIMITS;
  return (req, res, next) => {
    const rule = ruleFor(req.path, rules, req.get("content-type"));
    const limit = rule?.bytes ?? fallback;
    const declared = req.get("content-length");
    if (declared !== undefined) {
      // Node's parser delivers exactly Content-Length bytes, so the declared length is the real one.
      if (Number(declared) > limit) return answerTooLarge(req, res, limit, rule?.message);
      return next();
    }
    if (req.get("transfer-encoding") === undefined) return next();

    let received = 0;
    let over = false;
    const push = req.push.bind(req);
    req.push = (chunk: unknown, encoding?: BufferEncoding) => {
      if (over) {
        // Drained and dropped; a sender that will not stop after far too much is cut off.
        if (chunk !== null) received += (chunk as Buffer).length;
        if (received > limit * 16 + 1024 * 1024) req.socket.destroy();
        return true;
      }
      if (chunk !== null) {
        received += (chunk as Buffer).length;
        if (received > limit) {
          over = true;
          answerTooLarge(req, res, limit, rule?.message);
          // The reader (if any) learns the body is not coming; it must not act on a truncated one.
          const error = new PayloadTooLargeError(limit);
          if (req.listenerCount("error") > 0) req.emit("error", error);
          else res.once("finish", () => req.destroy(error));
          return true;
        }
      }
      return push(chunk, encoding);
    };
    next();
  };
}
