/**
 * Answers that are the same for everyone who asks the same thing, kept in memory ready to send (ADR
 * 0105, ADR 0800): public pages per path and currency state, and the exchange-rates JSON per rates
 * snapshot. Each entry holds its final headers and its body compressed once (gzip and brotli), so a
 * hit costs a lookup and a write, not a render nor a compression.
 *
 * Invalidation: `invalidatePageCache()` clears every entry and bumps the generation, so a render that
 * started before the change is never stored after it. The back office calls it in its own process
 * after a catalogue edit commits; every other process calls it when its live-events hub receives the
 * `catalogue` event (pg_notify), see server/runtime.ts. It also empties the in-memory catalogue the
 * public pages render from (catalogue.server.ts) and the care plans' (plans.server.ts), which change at
 * the same moments.
 */
import { clearCatalogueCache } from "~/features/catalogue/catalogue.server";
import { clearPlansCache } from "~/features/plans/plans.server";

export interface CachedAnswer {
  /** Header names and values, alternating, as `writeHead` takes them (no per-request header). */
  headers: string[];
  /** A strong validator of the body (the identity bytes), quoted. */
  etag: string;
  /** The body, once per content coding; the identity body is made from gzip on the rare request for it. */
  gzip: Buffer;
  br: Buffer;
  /** Bytes held, for the cache's bound. */
  size: number;
  /** The route it answers for, its label in /metrics on every hit (server/metrics.ts, ADR 0904). */
  route: string;
}

/** Paths that render the same for every visitor without cookies (a query string is never cached). */
export const CACHEABLE_PATH = /^\/(services\/[a-z0-9-]+|blog\/[a-z0-9-]+|privacy|terms|plans)?$/;

/** The bound: compressed bodies of a few hundred pages (a home page is about 60 KB in both codings). */
const MAX_BYTES = 24 * 1024 * 1024;
const answers = new Map<string, CachedAnswer>();
let bytes = 0;
let generation = 0;

export function pageCacheGeneration(): number {
  return generation;
}

export function getCachedAnswer(key: string): CachedAnswer | undefined {
  return answers.get(key);
}

/** Stores an answer made during `renderedIn`; one older than the latest invalidation is dropped. */
export function storeCachedAnswer(key: string, renderedIn: number, answer: CachedAnswer): void {
  if (renderedIn !== generation || answer.size > MAX_BYTES) return;
  const previous = answers.get(key);
  if (previous) {
    answers.delete(key);
    bytes -= previous.size;
  }
  // Maps iterate in insertion order: the oldest entries go first.
  while (bytes + answer.size > MAX_BYTES) {
    const [oldestKey, oldest] = answers.entries().next().value!;
    answers.delete(oldestKey);
    bytes -= oldest.size;
  }
  answers.set(key, answer);
  bytes += answer.size;
}

export function invalidatePageCache(): void {
  generation++;
  answers.clear();
  bytes = 0;
  clearCatalogueCache();
  clearPlansCache();
}
