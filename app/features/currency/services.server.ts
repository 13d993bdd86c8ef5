/**
 * The process-wide currency services (one of each per process, held by the Runtime): the shared
 * exchange-rate cache and the location detector with its per-address cache.
 */
import type { Logger } from "pino";
import type { Config } from "~/config.server";
import { LocationDetector } from "./location.server";
import { ExchangeRatesService } from "./rates.server";

export interface CurrencyServices {
  rates: ExchangeRatesService;
  location: LocationDetector;
}

export function createCurrencyServices(config: Config["currency"], logger?: Logger): CurrencyServices {
  return {
    rates: new ExchangeRatesService({
      url: config.exchangeRatesUrl,
      timeoutMs: config.exchangeRatesTimeoutMs,
      logger,
    }),
    location: new LocationDetector({ countryHeader: config.countryHeader, geoip: config.geoip }),
  };
}
