/**
 * The JavaScript a page's HTML makes the browser load, measured on the production build in
 * build/client: the scripts the document loads up front, and everything they can import later
 * (lazy chunks: Mech, below-the-fold sections, client validation, menus). Sizes are gzip bytes, as
 * served. Deterministic: it reads files, it times nothing.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const CLIENT_DIR = "build/client";

/**
 * Every script the document loads up front: modulepreloads, script tags and the entry's imports, and
 * the list of scripts the deferred-hydration loader adds after `load` (ADR 0811), a JSON array.
 */
export function initialScripts(html: string): string[] {
  const urls = new Set<string>();
  for (const [, href] of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.add(href!);
  for (const [list] of html.matchAll(/\[(?:"\/assets\/[^"]+\.js",?)+\]/g)) {
    for (const href of JSON.parse(list) as string[]) urls.add(href);
  }
  for (const [, src] of html.matchAll(/<script[^>]*src="([^"]+)"/g)) urls.add(src!);
  for (const [, spec] of html.matchAll(/import\(?\s*"(\/assets\/[^"]+\.js)"/g)) urls.add(spec!);
  return [...urls].filter((u) => u.endsWith(".js"));
}

const sizes = new Map<string, number>();
/** gzip bytes of one built asset (its URL path, e.g. /assets/x.js). */
export function gzipBytes(url: string): number {
  let n = sizes.get(url);
  if (n === undefined) {
    n = gzipSync(readFileSync(path.join(CLIENT_DIR, url))).length;
    sizes.set(url, n);
  }
  return n;
}

/** The chunks one built chunk refers to, static imports and dynamic import() alike. */
function referencedChunks(url: string): string[] {
  const code = readFileSync(path.join(CLIENT_DIR, url), "utf8");
  const dir = path.posix.dirname(url);
  const out = new Set<string>();
  // Chunks name each other by relative path ("./x.js") in imports, import() and preload lists; the
  // preload helper also lists them from the site root ("assets/x.js").
  for (const [, spec] of code.matchAll(/["'`](\.\.?\/[^"'`]+\.js)["'`]/g)) {
    out.add(path.posix.join(dir, spec!));
  }
  for (const [, spec] of code.matchAll(/["'`]\/?(assets\/[^"'`]+\.js)["'`]/g)) out.add(`/${spec!}`);
  return [...out];
}

/** The initial scripts and every chunk reachable from them. */
export function reachableScripts(initial: string[]): string[] {
  const seen = new Set<string>();
  const queue = [...initial];
  while (queue.length) {
    const url = queue.pop()!;
    if (seen.has(url)) continue;
    seen.add(url);
    queue.push(...referencedChunks(url));
  }
  return [...seen];
}

export function totalGzip(urls: string[]): number {
  return urls.reduce((sum, url) => sum + gzipBytes(url), 0);
}
