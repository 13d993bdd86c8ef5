/**
 * The browser's currency state outside React, so its rules are testable without a DOM: the shown
 * currency, the rates known so far, and whether a client-side change is still loading rates
 * ("While prices load they show '...'"). A change to a currency whose rate is unknown fetches
 * /api/exchange-rates once; if that fails, prices stay in USD.
 */
import { z } from "zod";
import { BASE_CURRENCY, currencyCodeSchema, type Rates } from "./currency";
import type { CurrencyState } from "./currency-state";

export interface CurrencySnapshot extends CurrencyState {
  loading: boolean;
}

const ratesResponseSchema = z.object({
  rates: z.record(z.string().regex(/^[A-Z]{3}$/), z.number().positive().finite()),
  base: z.literal("USD"),
});

/** Reads the site's own /api/exchange-rates (never a third party from the browser). */
export async function fetchSiteRates(fetchImpl: typeof fetch = fetch): Promise<Rates> {
  const response = await fetchImpl("/api/exchange-rates", { headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`exchange rates answered ${response.status}`);
  return ratesResponseSchema.parse(await response.json()).rates;
}

export class CurrencyStore {
  private snapshot: CurrencySnapshot;
  private readonly listeners = new Set<() => void>();
  private request = 0;
  /** Whether the visitor changed the currency on this page (then new server data keeps that choice). */
  private chosen = false;

  constructor(
    initial: CurrencyState,
    private readonly loadRates: () => Promise<Rates> = () => fetchSiteRates(),
  ) {
    this.snapshot = { ...initial, rates: { ...initial.rates, USD: 1 }, loading: false };
  }

  getSnapshot = (): CurrencySnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private update(patch: Partial<CurrencySnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of this.listeners) listener();
  }

  /** New server data (e.g. after a navigation): takes its rates, keeps a change the visitor made. */
  absorb(state: CurrencyState): void {
    const rates = { ...this.snapshot.rates, ...state.rates, USD: 1 };
    this.update(this.chosen ? { rates, location: state.location } : { ...state, rates, loading: false });
  }

  /** Shows prices in `code`; resolves once its rate is known (or known to be unavailable). */
  setCurrency = async (code: string): Promise<void> => {
    const parsed = currencyCodeSchema.safeParse(code);
    if (!parsed.success) return;
    const currency = parsed.data;
    this.chosen = true;
    const ticket = ++this.request;
    if (currency === BASE_CURRENCY || this.snapshot.rates[currency] !== undefined) {
      this.update({ currency, loading: false });
      return;
    }
    this.update({ currency, loading: true });
    let rates: Rates = {};
    try {
      rates = await this.loadRates();
    } catch (error) {
      // "Currency conversion failure: logged; prices stay in USD."
      console.warn("Currency conversion failed; prices stay in USD.", error);
    }
    if (ticket !== this.request) return; // a later change won
    this.update({ rates: { ...rates, ...this.snapshot.rates, USD: 1 }, loading: false });
  };
}
