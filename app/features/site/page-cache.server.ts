/**
 * The rendered HTML of public pages, kept in memory per path and currency state (ADR 0105). A page is
 * the same for every visitor without cookies who gets the same currency, so it is rendered once and
 * served from here until the catalogue changes. The CSP nonce of the render is replaced by a
 * placeholder when stored and by each response's own fresh nonce when served.
 *
 * Invalidation: `invalidatePageCache()` clears every entry and bumps the generation, so a render that
 * started before the change is never stored after it. The back office calls it in its own process
 * after a catalogue edit commits; every other process calls it when its live-events hub receives the
 * `catalogue` event (pg_notify), see server/runtime.ts.
 */

/** Stands in for the nonce in stored HTML; no real nonce (base64 of 16 bytes) can look like it. */
export const NONCE_PLACEHOLDER = "\u0000portico-nonce\u0000";

export interface CachedPage {
  html: string;
  headers: [string, string][];
}

/** Paths that render the same for every visitor without cookies (a query string is never cached). */
export const CACHEABLE_PATH = /^\/(services\/[a-z0-9-]+|blog\/[a-z0-9-]+|privacy|terms)?$/;

const MAX_ENTRIES = 500;
const pages = new Map<string, CachedPage>();
let generation = 0;

export function pageCacheGeneration(): number {
  return generation;
}

export function getCachedPage(key: string): CachedPage | undefined {
  return pages.get(key);
}

/** Stores a page rendered during `renderedIn`; a render older than the latest invalidation is dropped. */
export function storeCachedPage(key: string, renderedIn: number, page: CachedPage): void {
  if (renderedIn !== generation) return;
  if (pages.size >= MAX_ENTRIES) pages.delete(pages.keys().next().value!);
  pages.set(key, page);
}

export function invalidatePageCache(): void {
  generation++;
  pages.clear();
}

export function pageCacheSize(): number {
  return pages.size;
}
