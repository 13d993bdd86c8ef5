/**
 * Where a visitor is, decided on the server so the first render already shows local prices:
 * 1. a trusted proxy's country header (COUNTRY_HEADER, off by default),
 * 2. an offline GeoIP lookup of the client address (geoip-country, data shipped in the package),
 *    cached per address for 1 hour ("the detected location for 1 hour"),
 * 3. the region of the Accept-Language header,
 * 4. else US / United States / USD.
 * The headers are read on every request: people behind one office address may differ.
 */
import geoip from "geoip-country";
import {
  DEFAULT_LOCATION,
  type DetectedLocation,
  locationForCountry,
  normalizeCountryCode,
  regionFromAcceptLanguage,
} from "./currency";

export const LOCATION_TTL_MS = 3_600_000;
const MAX_CACHED_ADDRESSES = 10_000;

export type LocationSource = "header" | "geoip" | "accept-language" | "default";

export interface LocationRequest {
  headers: Pick<Headers, "get">;
  /** The client address as the server sees it (after trusted proxies), if known. */
  address: string | null | undefined;
}

export interface LocationDetectorOptions {
  /** Lowercase name of the trusted proxy's country header (e.g. cf-ipcountry), or null. */
  countryHeader: string | null;
  /** Whether to look addresses up in the offline GeoIP database. */
  geoip: boolean;
  /** Address to country code; the shipped database by default. */
  lookup?: (address: string) => string | null;
  now?: () => number;
}

export function geoipCountry(address: string): string | null {
  try {
    return geoip.lookup(address)?.country ?? null;
  } catch {
    return null;
  }
}

export class LocationDetector {
  now: () => number;
  private readonly options: LocationDetectorOptions;
  private readonly lookup: (address: string) => string | null;
  private readonly cache = new Map<string, { country: string | null; expiresAt: number }>();

  constructor(options: LocationDetectorOptions) {
    this.options = options;
    this.lookup = options.lookup ?? geoipCountry;
    this.now = options.now ?? Date.now;
  }

  detect(request: LocationRequest): DetectedLocation & { source: LocationSource } {
    const { countryHeader } = this.options;
    if (countryHeader) {
      const fromHeader = normalizeCountryCode(request.headers.get(countryHeader));
      if (fromHeader) return { ...locationForCountry(fromHeader), source: "header" };
    }
    if (this.options.geoip && request.address) {
      const fromAddress = this.countryOfAddress(request.address);
      if (fromAddress) return { ...locationForCountry(fromAddress), source: "geoip" };
    }
    const fromLanguage = regionFromAcceptLanguage(request.headers.get("accept-language"));
    if (fromLanguage) return { ...locationForCountry(fromLanguage), source: "accept-language" };
    return { ...DEFAULT_LOCATION, source: "default" };
  }

  private countryOfAddress(rawAddress: string): string | null {
    const address = rawAddress.startsWith("::ffff:") ? rawAddress.slice(7) : rawAddress;
    const now = this.now();
    const hit = this.cache.get(address);
    if (hit && now < hit.expiresAt) return hit.country;
    if (hit) this.cache.delete(address);
    const country = normalizeCountryCode(this.lookup(address));
    if (this.cache.size >= MAX_CACHED_ADDRESSES) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(address, { country, expiresAt: now + LOCATION_TTL_MS });
    return country;
  }
}
