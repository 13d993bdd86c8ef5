/**
 * Bad input that no route should ever see, answered with a 4xx before any route runs (never a 500):
 * - an address with malformed percent-encoding (`/%`, `/services/%ZZ`, `/blog/%E0%A4%A`), or with a NUL
 *   character anywhere in it (PostgreSQL refuses NUL in text): 400;
 * - a method outside GET, HEAD, OPTIONS, POST, PUT, PATCH and DELETE (TRACE, CONNECT, PROPFIND, …): 405,
 *   where TRACE used to give a 500 (a fetch Request cannot carry it);
 * - a Host header (or a trusted proxy's X-Forwarded-Host) that no URL can carry (`a b`, `[::1`, a port
 *   over 65535): 400, where it used to reach React Router's URL parsing and give a 500;
 * - a router data request (`….data`) for an /api/* address: 404. The API routes are resource routes
 *   that take no part in navigation, and for the live-events stream React Router's data request waited
 *   on its endless body: no answer ever, and a stream held open for nobody (found by the hostile-input
 *   suite: `OPTIONS /api/events.data`, signed in);
 * - a page action (any POST to a page, not to /api/*) whose body is not a form: 415. Pages take
 *   `application/x-www-form-urlencoded` or `multipart/form-data` only; JSON goes to the /api routes,
 *   which check their own content types.
 */
import type express from "express";
import { requestUrl } from "./react-router";

export const BAD_ADDRESS = "Bad request: the address is not valid.";
export const METHOD_NOT_ALLOWED = "Method not allowed.";
export const NOT_FOUND = "Not found.";
export const BAD_HOST = "Bad request: the Host header is not valid.";
export const FORMS_ONLY =
  "Pages accept form submissions only (application/x-www-form-urlencoded or multipart/form-data).";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const KNOWN_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"];

function wellFormedPath(url: string): boolean {
  const path = url.split("?")[0] ?? "";
  try {
    decodeURIComponent(path);
  } catch {
    return false;
  }
  return !/%00|\0/i.test(url);
}

export function requestGuards(): express.RequestHandler {
  return (req, res, next) => {
    if (!KNOWN_METHODS.includes(req.method)) {
      req.log.warn({ method: req.method.slice(0, 40) }, "unknown method refused");
      res
        .status(405)
        .set({ "Cache-Control": "no-store", Allow: KNOWN_METHODS.join(", ") })
        .type("text/plain")
        .send(METHOD_NOT_ALLOWED);
      return;
    }
    if (!wellFormedPath(req.originalUrl)) {
      req.log.warn({ url: req.originalUrl.slice(0, 300) }, "malformed address refused");
      res.status(400).set("Cache-Control", "no-store").type("text/plain").send(BAD_ADDRESS);
      return;
    }
    try {
      requestUrl(req);
    } catch {
      req.log.warn({ host: req.get("host")?.slice(0, 300) ?? null }, "malformed host refused");
      res.status(400).set("Cache-Control", "no-store").type("text/plain").send(BAD_HOST);
      return;
    }
    if (req.path.startsWith("/api/") && req.path.endsWith(".data")) {
      res.status(404).set("Cache-Control", "no-store").type("text/plain").send(NOT_FOUND);
      return;
    }
    if (!SAFE_METHODS.has(req.method) && !req.path.startsWith("/api/")) {
      if (!req.is(["application/x-www-form-urlencoded", "multipart/form-data"])) {
        req.log.warn({ contentType: req.get("content-type") ?? null }, "page action without a form body");
        res.status(415).set("Cache-Control", "no-store").type("text/plain").send(FORMS_ONLY);
        return;
      }
    }
    next();
  };
}
