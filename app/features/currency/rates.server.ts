/**
 * Exchange rates for the whole process: one instance per process (on the Runtime), cached for
 * "15 minutes (900000 ms)" and shared by every request. Concurrent requests share one upstream call.
 * The live provider is EXCHANGE_RATES_URL (JSON of USD rates); without it, or when it fails, times out
 * or answers invalid rates, the built-in table is used, and `source` says which.
 */
import type { Logger } from "pino";
import { FALLBACK_RATES, type Rates } from "./currency";
import { parseProviderRates } from "./currency-schemas";

export const RATES_TTL_MS = 900_000;
/** A failed provider is retried after a minute, not on every request (each would wait for the timeout). */
export const RATES_FAILURE_TTL_MS = 60_000;

/** "live": from the provider; "built-in": no provider configured; "built-in (…)": the provider failed. */
export type RatesSource = "live" | "built-in" | "built-in (provider failed)" | "built-in (provider invalid)";

export interface RatesSnapshot {
  rates: Rates;
  base: "USD";
  source: RatesSource;
  /** ISO time the rates were obtained (for the built-in table: when it was chosen). */
  fetched_at: string;
}

export interface ExchangeRatesOptions {
  url: string | null;
  timeoutMs: number;
  logger?: Pick<Logger, "warn" | "info">;
  /** Milliseconds since the epoch; replaceable so tests can move time on. */
  now?: () => number;
  fetch?: typeof fetch;
}

export class ExchangeRatesService {
  now: () => number;
  private readonly url: string | null;
  private readonly timeoutMs: number;
  private readonly logger: ExchangeRatesOptions["logger"];
  private readonly fetchImpl: typeof fetch;
  private cached: { snapshot: RatesSnapshot; expiresAt: number } | null = null;
  private inFlight: Promise<RatesSnapshot> | null = null;

  constructor(options: ExchangeRatesOptions) {
    this.url = options.url;
    this.timeoutMs = options.timeoutMs;
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** The current rates; fetches (once, whoever asks) when the cache is empty or expired. Never throws. */
  get(): Promise<RatesSnapshot> {
    if (this.cached && this.now() < this.cached.expiresAt) return Promise.resolve(this.cached.snapshot);
    this.inFlight ??= this.refresh().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** The cached rates while fresh, else null; never fetches (the cached-answer fast path uses it). */
  peek(): RatesSnapshot | null {
    return this.cached && this.now() < this.cached.expiresAt ? this.cached.snapshot : null;
  }

  private async refresh(): Promise<RatesSnapshot> {
    const snapshot = await this.load();
    const ttl =
      snapshot.source === "live" || snapshot.source === "built-in" ? RATES_TTL_MS : RATES_FAILURE_TTL_MS;
    this.cached = { snapshot, expiresAt: this.now() + ttl };
    return snapshot;
  }

  private async load(): Promise<RatesSnapshot> {
    if (!this.url) return this.builtIn("built-in");
    let payload: unknown;
    try {
      const response = await this.fetchImpl(this.url, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!response.ok) throw new Error(`provider answered ${response.status}`);
      payload = await response.json();
    } catch (error) {
      this.logger?.warn({ err: error }, "exchange rates: provider failed, using the built-in table");
      return this.builtIn("built-in (provider failed)");
    }
    const parsed = parseProviderRates(payload);
    if (!parsed.ok) {
      this.logger?.warn({ reason: parsed.error }, "exchange rates: invalid rates, using the built-in table");
      return this.builtIn("built-in (provider invalid)");
    }
    // Currencies the provider leaves out keep their built-in rate.
    return {
      rates: { ...FALLBACK_RATES, ...parsed.rates },
      base: "USD",
      source: "live",
      fetched_at: new Date(this.now()).toISOString(),
    };
  }

  private builtIn(source: RatesSource): RatesSnapshot {
    return {
      rates: { ...FALLBACK_RATES },
      base: "USD",
      source,
      fetched_at: new Date(this.now()).toISOString(),
    };
  }
}
