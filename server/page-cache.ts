/**
 * The fast path for answers that are the same for everyone who asks the same thing (ADR 0105, ADR 0800,
 * ADR 0822): public pages per path and currency state, and `/api/exchange-rates` per rates snapshot.
 *
 * It runs before Express (`createRequestHandler` in server/app.ts): Express alone costs a small answer
 * two thirds of its throughput. A hit is answered here, ready-made: the stored headers (the
 * security headers of the render, with a CSP that allows the page's inline scripts by their hashes,
 * ADR 0800), the body compressed once, a fresh request id, one log line. A miss goes down the whole
 * chain as before, and `storeIfCacheable` (called by reactRouterHandler) keeps the answer if anyone may
 * get it: a 200 without Set-Cookie, not private, and (for a page) rendered with this response's nonce.
 *
 * Looked up only for a GET or HEAD without a query string, with a Host header any URL can carry, over
 * https where the site requires it. Cookies do not matter (ADR 0822): a shared page is rendered
 * without the session (root-data.server.ts), so a signed-in client gets the visitor's page, with no
 * session lookup here; the one cookie such a page depends on, the pinned currency, is part of the key.
 * A miss that may be stored goes on with that cookie alone, so whatever else the browser sent (the
 * session, anything a future loader might read) cannot reach a page that is kept for others.
 * Everything else, and any request while the rates are being refreshed, takes the usual way.
 *
 * Issue 35: the pin counts only for a currency the selector offers (pinned-currency.server.ts), so it
 * cannot make pages without end; identical misses arriving together render once (single flight: the
 * later ones wait for the first render's stored answer); each entry is compressed once, at moderate
 * levels. Every answer made here carries its route's label for /metrics (ADR 0904).
 */
import { createHash, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type express from "express";
import proxyaddr from "proxy-addr";
import { codeOfLoaders } from "~/delivery/deferred-hydration.server";
import {
  CACHEABLE_PATH,
  type CachedAnswer,
  getCachedAnswer,
  pageCacheGeneration,
  storeCachedAnswer,
} from "~/delivery/page-cache.server";
import { SESSION_ANSWER_PATH, type SessionAnswer } from "~/features/accounts/session-answer";
import { SESSION_COOKIE } from "~/features/accounts/session-cookie";
import { detectLocation, sharedPageCurrency } from "~/features/currency/currency.server";
import {
  hasPinnedCurrency,
  pinnedCurrencyCookieName,
  readPinnedCurrency,
} from "~/features/currency/pinned-currency.server";
import { labelRoute, routeLabelOf } from "./metrics";
import type { Runtime } from "./runtime";
import { fileHeaders } from "./security";

const EXCHANGE_RATES_PATH = "/api/exchange-rates";
/** An incoming X-Request-Id kept as the request's id (else a new UUID). */
export const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;
/** A host name or address with an optional port, as a Host header may carry it. */
const PLAIN_HOST = /^([A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/;

/** A host any URL can carry: a name or address and a port up to 65535 (else Express answers it: 400). */
function plainHost(value: string): boolean {
  const match = PLAIN_HOST.exec(value);
  return match !== null && (match[2] === undefined || Number(match[2]) <= 65535);
}
/** Headers of a render that are not kept: per response, or set again when a stored answer is sent. */
const NOT_KEPT = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "set-cookie",
  "x-request-id",
  "x-page-cache",
  "date",
  "connection",
  "keep-alive",
  "etag",
  "vary",
]);
/** Script types a browser runs (JSON-LD is data, not subject to script-src). */
const RUNNABLE_SCRIPT = /^(|module|text\/javascript|application\/javascript)$/i;

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/**
 * Compression of a stored answer, once per entry (single flight): gzip at zlib's default level and
 * brotli at quality 5, moderate settings rather than the highest (gzip 9, brotli 10-11), whose CPU a
 * burst of new keys would pay on the request path for a few per cent fewer bytes (ADR 0800).
 */
const GZIP_LEVEL = 6;
const BROTLI_QUALITY = 5;

/** What the fast path leaves for reactRouterHandler on a miss it may store. */
export interface CacheMiss {
  key: string;
  generation: number;
  /** Called once the answer is stored or known not to be: identical misses waiting on it go on. */
  settled(): void;
}

const misses = new WeakMap<ServerResponse, CacheMiss>();

/**
 * Renders under way, by cache key (single flight): an identical miss arriving meanwhile waits for the
 * first render's answer to be stored and is served from the cache, instead of rendering again.
 */
const rendering = new Map<string, Promise<void>>();

function header(value: string | string[] | undefined): string | null {
  return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
}

/** The content coding to send, from Accept-Encoding: brotli, then gzip, else none. */
export function preferredEncoding(accept: string | undefined): "br" | "gzip" | "identity" {
  if (!accept) return "identity";
  let br: number | undefined;
  let gz: number | undefined;
  let any: number | undefined;
  for (const part of accept.split(",")) {
    const [rawName = "", ...params] = part.split(";");
    const name = rawName.trim().toLowerCase();
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (m) q = Number(m[1]);
    }
    if (name === "br") br = q;
    else if (name === "gzip" || name === "x-gzip") gz = q;
    else if (name === "*") any = q;
  }
  br ??= any ?? 0;
  gz ??= any ?? 0;
  if (br > 0 && br >= gz) return "br";
  if (gz > 0) return "gzip";
  return "identity";
}

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** Express's compiled `trust proxy` setting: whether the hop at `index` from `address` is trusted. */
export type TrustProxy = (address: string, index: number) => boolean;

/**
 * The fast path: answers a request from the cache and returns true, or returns false (marking a miss
 * that may be stored) for Express to handle. Reads the client address and scheme exactly as Express
 * does under the same `trust proxy` setting.
 */
export function cachedAnswers(
  runtime: Runtime,
  trust: TrustProxy,
): (req: IncomingMessage, res: ServerResponse, render: () => void) => boolean {
  const { config, currency, logger } = runtime;
  const httpsRequired = config.env === "production" && config.publicUrl.startsWith("https:");
  const httpsCookies = config.publicUrl.startsWith("https://");
  const pinName = pinnedCurrencyCookieName(httpsCookies);
  const fileHeadersOn = fileHeaders(config);

  /** The request id: an incoming X-Request-Id kept, else a new one (as pino-http's genReqId). */
  const requestId = (req: IncomingMessage): string => {
    const incoming = req.headers["x-request-id"];
    return typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  };
  /** The JSON log line pino-http writes for a request answered through Express. */
  const logAnswer = (id: string, method: string, url: string, status: number, started: number) => {
    if (!logger.isLevelEnabled("info")) return;
    logger.info(
      {
        req: { id, method, url },
        res: { statusCode: status },
        responseTime: Math.round(performance.now() - started),
      },
      "request completed",
    );
  };

  /** Sends a stored answer (a hit), as the route would have, with a fresh request id. */
  const sendAnswer = (req: IncomingMessage, res: ServerResponse, answer: CachedAnswer, started: number) => {
    const method = req.method ?? "GET";
    const url = req.url ?? "";
    const id = requestId(req);
    labelRoute(res, answer.route);
    const headers = [...answer.headers, "X-Request-Id", id, "X-Page-Cache", "hit"];
    let status = 200;
    let body: Buffer | undefined;
    if (matchesEtag(header(req.headers["if-none-match"]) ?? undefined, answer.etag)) {
      status = 304;
    } else {
      const encoding = preferredEncoding(header(req.headers["accept-encoding"]) ?? undefined);
      // Nearly every client takes brotli or gzip; the plain body is rebuilt for the rest.
      body = encoding === "br" ? answer.br : encoding === "gzip" ? answer.gzip : zlib.gunzipSync(answer.gzip);
      if (encoding !== "identity") headers.push("Content-Encoding", encoding);
      headers.push("Content-Length", String(body.length));
    }
    res.writeHead(status, headers);
    res.end(method === "HEAD" ? undefined : body);
    logAnswer(id, method, url, status, started);
  };

  return (req, res, render) => {
    const started = performance.now();
    const method = req.method;
    if (method !== "GET" && method !== "HEAD") return false;
    const url = req.url ?? "";
    const rates = url === EXCHANGE_RATES_PATH;
    const sessionAnswer = url === SESSION_ANSWER_PATH;
    if (!rates && !sessionAnswer && !CACHEABLE_PATH.test(url)) return false;
    const host = req.headers.host;
    if (!host || !plainHost(host)) return false;
    const forwardedHost = req.headers["x-forwarded-host"];
    if (forwardedHost !== undefined && !(typeof forwardedHost === "string" && plainHost(forwardedHost))) {
      return false;
    }
    if (httpsRequired && schemeOf(req, trust) !== "https") return false;
    const snapshot = currency.rates.peek();
    if (!snapshot) return false;
    const cookie = header(req.headers.cookie);
    const locate = () => {
      const headers = { get: (name: string) => header(req.headers[name.toLowerCase()]) };
      return detectLocation(currency, headers, proxyaddr(req, trust), logger);
    };

    if (sessionAnswer) {
      // Asked after load by every shared page (ADR 0822). Without a session cookie nobody is signed in,
      // and without a pinned currency there is nothing to correct: the route's answer, without Express
      // and a better-auth call. A session or a pin (to check, or to clear) takes the route.
      if (cookie !== null && (SESSION_COOKIE.test(cookie) || hasPinnedCurrency(cookie, httpsCookies))) {
        return false;
      }
      const answer: SessionAnswer = {
        signedIn: false,
        currency: sharedPageCurrency(locate(), null, httpsCookies, snapshot),
      };
      const body = Buffer.from(JSON.stringify(answer));
      const id = requestId(req);
      labelRoute(res, SESSION_ANSWER_PATH);
      fileHeadersOn(res);
      res.writeHead(200, {
        "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": "private, no-store",
        "Content-Length": String(body.length),
        "X-Request-Id": id,
      });
      res.end(method === "HEAD" ? undefined : body);
      logAnswer(id, method, url, 200, started);
      return true;
    }

    let key: string;
    if (rates) {
      key = `${url}\n${snapshot.source}\n${snapshot.fetched_at}`;
    } else {
      key = `${url}\n${JSON.stringify(sharedPageCurrency(locate(), cookie, httpsCookies, snapshot))}`;
    }
    const answer = getCachedAnswer(key);
    if (answer) {
      sendAnswer(req, res, answer, started);
      return true;
    }
    // Only a GET's answer is stored: React Router answers HEAD without a body.
    if (method !== "GET") return false;
    if (!rates && cookie !== null) {
      // The render that may be kept for others sees the key's one cookie and nothing else.
      const pinned = readPinnedCurrency(cookie, httpsCookies);
      if (pinned) req.headers.cookie = `${pinName}=${pinned}`;
      else delete req.headers.cookie;
    }
    const underWay = rendering.get(key);
    if (underWay) {
      // The same answer is being rendered: wait for it. If it was not stored (not cacheable, an error,
      // an invalidation meanwhile), render this one too, storable but without making others wait.
      void underWay.then(() => {
        const stored = getCachedAnswer(key);
        if (stored) return sendAnswer(req, res, stored, started);
        misses.set(res, { key, generation: pageCacheGeneration(), settled: () => {} });
        render();
      });
      return true;
    }
    let settle!: () => void;
    const flight = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const settled = () => {
      if (rendering.get(key) === flight) rendering.delete(key);
      settle();
    };
    rendering.set(key, flight);
    misses.set(res, { key, generation: pageCacheGeneration(), settled });
    // A render that never reaches storeIfCacheable (an error, a client gone) lets the others go on.
    res.once("close", () => {
      if (misses.get(res)?.settled !== settled) return;
      misses.delete(res);
      settled();
    });
    return false;
  };
}

/** The request's scheme as Express's `req.protocol` reads it (X-Forwarded-Proto from a trusted hop). */
function schemeOf(req: IncomingMessage, trust: TrustProxy): string {
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  if (!trust(req.socket.remoteAddress ?? "", 0)) return scheme;
  const forwarded = header(req.headers["x-forwarded-proto"]) ?? scheme;
  return forwarded.split(",")[0]!.trim();
}

/** The hashes of the inline scripts a browser would run, including those inserted by the hydration
 * loader, as CSP sources. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  const add = (text: string) =>
    hashes.add(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  for (const [, attrs = "", text = ""] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\ssrc\s*=/i.test(attrs)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]*)/i.exec(attrs)?.[1] ?? "";
    if (!RUNNABLE_SCRIPT.test(type)) continue;
    add(text);
  }
  // The module script the hydration loader inserts once the document is parsed (ADR 0811).
  for (const code of codeOfLoaders(html)) add(code);
  return [...hashes];
}

/** A stored answer but for the route it answers for (added when it is stored). */
export type PreparedAnswer = Omit<CachedAnswer, "route">;

/**
 * A rendered answer made ready to serve to anyone, or null if it must not be stored. The per-response
 * nonce leaves the page and its CSP: the page's inline scripts are allowed by their hashes instead.
 */
export async function prepareAnswer(
  keptHeaders: [string, string][],
  body: string,
  nonce: string,
  html: boolean,
): Promise<PreparedAnswer | null> {
  let text = body;
  let scriptSources: string[] = [];
  if (html) {
    // entry.server.tsx puts this response's nonce on every inline script: a page without it is not
    // what it renders, and one that still holds it elsewhere is not understood. Neither is stored.
    if (!nonce || !text.includes(nonce)) return null;
    text = text.replaceAll(` nonce="${nonce}"`, "");
    if (text.includes(nonce)) return null;
    scriptSources = inlineScriptHashes(text);
  }
  const headers: string[] = [];
  let nonceReplaced = false;
  for (const [name, value] of keptHeaders) {
    let v = value;
    if (/^content-security-policy$/i.test(name) && nonce && v.includes(`'nonce-${nonce}'`)) {
      v = v.replace(`'nonce-${nonce}'`, scriptSources.join(" ")).replace(/ +;/g, ";").replace(/ {2,}/g, " ");
      nonceReplaced = true;
    }
    // Nothing of this response's nonce may be left to the next visitor.
    if (nonce && v.includes(nonce)) return null;
    headers.push(name, v);
  }
  // A page's CSP allowed its scripts by the nonce: without that, the page is not what we render.
  if (html && !nonceReplaced) return null;
  const identity = Buffer.from(text, "utf8");
  const [gz, br] = await Promise.all([
    gzip(identity, { level: GZIP_LEVEL }),
    brotli(identity, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
  ]);
  const etag = `"${createHash("sha256").update(identity).digest("base64url").slice(0, 32)}"`;
  headers.push("Vary", "Accept-Encoding", "ETag", etag);
  return { headers, etag, gzip: gz, br, size: gz.length + br.length + 2048 };
}

/**
 * Called by reactRouterHandler with a rendered answer to a request the middleware marked: stores it (in
 * the background) if anyone may get it, and returns the response to send (the body, once read, is
 * rebuilt).
 */
export async function storeIfCacheable(res: express.Response, response: Response): Promise<Response> {
  const miss = misses.get(res);
  if (!miss || res.req.method !== "GET") return response;
  misses.delete(res);
  const type = response.headers.get("Content-Type") ?? "";
  const cacheControl = response.headers.get("Cache-Control") ?? "";
  const html = type.startsWith("text/html");
  if (
    response.status !== 200 ||
    !(html || type.startsWith("application/json")) ||
    response.headers.has("Set-Cookie") ||
    /private|no-store/i.test(cacheControl)
  ) {
    miss.settled();
    return response;
  }
  const body = await response.text();
  const kept = new Map<string, [string, string]>();
  for (const name of res.getHeaderNames()) {
    const value = res.getHeader(name);
    if (NOT_KEPT.has(name) || value === undefined || Array.isArray(value)) continue;
    kept.set(name, [name, String(value)]);
  }
  for (const [name, value] of response.headers.entries()) {
    if (!NOT_KEPT.has(name)) kept.set(name, [name, value]);
  }
  const log = res.req.log;
  const route = routeLabelOf(res);
  prepareAnswer([...kept.values()], body, String(res.locals.cspNonce ?? ""), html)
    .then(
      (answer) => {
        if (answer) storeCachedAnswer(miss.key, miss.generation, { ...answer, route });
        else log.warn({ url: res.req.url }, "page cache: answer not stored (nonce not where expected)");
      },
      (error: unknown) => log.warn({ err: error }, "page cache: answer not stored"),
    )
    .finally(miss.settled);
  res.setHeader("X-Page-Cache", "miss");
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
