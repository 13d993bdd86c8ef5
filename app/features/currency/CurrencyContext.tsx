/**
 * Gives every <Price> the page's currency. The root loader supplies the server's choice, so the first
 * render (on the server and at hydration) already shows local prices, with no flash of USD.
 */
import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { DEFAULT_LOCATION } from "./currency";
import type { CurrencyState } from "./currency-state";
import { type CurrencySnapshot, CurrencyStore } from "./currency-store";

const usdOnly: CurrencyState = { currency: "USD", rates: { USD: 1 }, location: { ...DEFAULT_LOCATION } };

const CurrencyContext = createContext<CurrencyStore | null>(null);

export function CurrencyProvider({
  value,
  store: given,
  children,
}: {
  value: CurrencyState | undefined;
  /** A store made elsewhere (tests, or a page that drives the currency itself). */
  store?: CurrencyStore;
  children: ReactNode;
}) {
  const [store] = useState(() => given ?? new CurrencyStore(value ?? usdOnly));
  const initial = useRef(value);
  useEffect(() => {
    // Server data changes on navigation (the root loader runs again); the first value is already in.
    if (value && value !== initial.current) store.absorb(value);
  }, [store, value]);
  return <CurrencyContext.Provider value={store}>{children}</CurrencyContext.Provider>;
}

export interface UseCurrency extends CurrencySnapshot {
  setCurrency(code: string): Promise<void>;
}

/** The page's currency store, for code that corrects it from outside React's data (the header's
 * after-load answer, ADR 0822); null outside a provider. */
export function useCurrencyStore(): CurrencyStore | null {
  return useContext(CurrencyContext);
}

/** Shared by pages rendered without a provider; it never changes currency (nothing there selects one). */
const outside = new CurrencyStore(usdOnly, async () => ({ USD: 1 }));

/** The page's currency state. Outside a provider (e.g. an error page without data): USD. */
export function useCurrency(): UseCurrency {
  const store = useContext(CurrencyContext) ?? outside;
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return { ...snapshot, setCurrency: store.setCurrency };
}
