/**
 * The shape of a service page's copy (written in content/services/<slug>.md, read by content-file.ts),
 * and how its prices get in: the copy names them by token,
 * `{price.<package>}` or `{addon.<addon>}`, and `priceCopy` fills them from the catalogue, so when the
 * owner changes a price the pages follow. Pure: no React, no database.
 */

export interface Item {
  title: string;
  text: string;
}

export interface ContentSection {
  id: string;
  title: string;
  intro?: string;
  items: Item[];
  /** "list" renders a compact checklist instead of cards. */
  style?: "cards" | "list";
}

export interface ServicePageContent {
  /** The page's SEO description. */
  description: string;
  tagline: string;
  sections: ContentSection[];
  /** An extra highlighted panel, e.g. hosting's emergency support. */
  panel?: { title: string; text: string; points: string[] };
  process: { title: string; steps: Item[] };
  /** Absent where the spec fetches prices but does not show them (hosting support). */
  pricing?: { title: string; note?: string };
  faq: { title: string; entries: Array<{ question: string; answer: string }> };
  closing: { title: string; text: string };
}

/** The catalogue prices copy may name (USD). */
export interface CopyPrices {
  pricing: Readonly<Record<string, number>>;
  addons: Readonly<Record<string, { usd: number }>>;
}

/** A USD amount as copy writes it: "$25", "$4.50". */
export function usdInCopy(usd: number): string {
  return Number.isInteger(usd) ? `$${usd}` : `$${usd.toFixed(2)}`;
}

const TOKEN = /\{(price|addon)\.([a-z0-9_-]+)\}/gi;

/** Fills the price tokens of one text; a token the catalogue cannot fill is an error, never a blank. */
export function priceText(text: string, prices: CopyPrices): string {
  return text.replace(TOKEN, (token, kind: string, key: string) => {
    const usd = kind.toLowerCase() === "price" ? prices.pricing[key] : prices.addons[key]?.usd;
    if (typeof usd !== "number" || !Number.isFinite(usd)) {
      throw new Error(`Service copy names ${token}, which the catalogue does not have`);
    }
    return usdInCopy(usd);
  });
}

/** The page's copy with every price token filled from the catalogue. */
export function priceCopy<T>(copy: T, prices: CopyPrices): T {
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return priceText(value, prices);
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    }
    return value;
  };
  return walk(copy) as T;
}
