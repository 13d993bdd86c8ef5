/**
 * Serves public pages from the in-memory page cache (app/features/site/page-cache.server.ts, ADR 0105).
 *
 * Only a GET of a public path, without a query string and without any cookie (so never a signed-in
 * person, nor anything a cookie could change), is looked up. Its key is the path and the currency state
 * the root loader would compute for the request (detected country, currency and rate): the only
 * per-visitor input of a public page. A miss is rendered by React Router as usual, and
 * reactRouterHandler stores the answer if it is a plain 200 HTML page (no Set-Cookie, not private).
 * Each answer, hit or miss, carries its own fresh CSP nonce.
 */
import type express from "express";
import { currencyForRequest } from "~/features/currency/currency.server";
import {
  CACHEABLE_PATH,
  type CachedPage,
  getCachedPage,
  NONCE_PLACEHOLDER,
  pageCacheGeneration,
  storeCachedPage,
} from "~/features/site/page-cache.server";
import type { Runtime } from "./runtime";

/** What the page-cache middleware leaves for reactRouterHandler on a miss it may store. */
export interface PageCacheMiss {
  key: string;
  generation: number;
}

function requestHeaders(req: express.Request): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(key, v);
  }
  return headers;
}

export function pageCache(runtime: Runtime): express.RequestHandler {
  return async (req, res, next) => {
    if (req.method !== "GET" || req.headers.cookie) return next();
    if (req.originalUrl !== req.path || !CACHEABLE_PATH.test(req.path)) return next();
    try {
      const generation = pageCacheGeneration();
      const currency = await currencyForRequest({
        services: runtime.currency,
        db: runtime.database.db,
        request: { headers: requestHeaders(req) } as Request,
        clientAddress: req.ip ?? null,
        userId: null,
      });
      const key = `${req.path}\n${JSON.stringify(currency)}`;
      const hit = getCachedPage(key);
      if (!hit) {
        res.locals.pageCacheMiss = { key, generation } satisfies PageCacheMiss;
        return next();
      }
      for (const [name, value] of hit.headers) res.append(name, value);
      res.setHeader("X-Page-Cache", "hit");
      res.status(200).send(hit.html.replaceAll(NONCE_PLACEHOLDER, String(res.locals.cspNonce)));
    } catch (error) {
      // The cache is only a shortcut: anything odd renders the page the usual way.
      req.log.warn({ err: error }, "page cache: lookup failed");
      next();
    }
  };
}

/**
 * Called by reactRouterHandler with a rendered answer to a request the middleware marked: stores it if
 * it is a page anyone may get, and returns the response to send (the body, once read, is rebuilt).
 */
export async function storeIfCacheable(res: express.Response, response: Response): Promise<Response> {
  const miss = res.locals.pageCacheMiss as PageCacheMiss | undefined;
  if (!miss) return response;
  const type = response.headers.get("Content-Type") ?? "";
  const cacheControl = response.headers.get("Cache-Control") ?? "";
  if (
    response.status !== 200 ||
    !type.startsWith("text/html") ||
    response.headers.has("Set-Cookie") ||
    /private|no-store/i.test(cacheControl)
  ) {
    return response;
  }
  const html = await response.text();
  const nonce = String(res.locals.cspNonce);
  const headers: CachedPage["headers"] = [];
  for (const [name, value] of response.headers.entries()) {
    if (!/^(content-length|set-cookie)$/i.test(name)) headers.push([name, value]);
  }
  // A page without this response's nonce is not what entry.server.tsx renders: not stored.
  if (nonce && html.includes(nonce)) {
    storeCachedPage(miss.key, miss.generation, { html: html.replaceAll(nonce, NONCE_PLACEHOLDER), headers });
  }
  res.setHeader("X-Page-Cache", "miss");
  return new Response(html, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
