/**
 * Pure catalogue rules, shared by browser and server: the eight service pages, the spec's
 * "Service id redirect" table, route-id resolution, starting prices, the packages offered, default
 * packages and quantity bounds. No React, no database, no I/O.
 */

export type ServiceSlug =
  | "email-migration"
  | "email-deliverability"
  | "ssl-setup"
  | "cloud-management"
  | "data-migration"
  | "hosting-support"
  | "acronis-setup"
  | "per-incident-support";

/** The eight service pages, in the order the site lists them. `label` is the menu text. */
export const SERVICE_PAGES: ReadonlyArray<{ slug: ServiceSlug; label: string }> = [
  { slug: "email-migration", label: "Email Migration" },
  { slug: "email-deliverability", label: "Email Deliverability" },
  { slug: "ssl-setup", label: "SSL Setup" },
  { slug: "cloud-management", label: "Cloud Management" },
  { slug: "data-migration", label: "Data Migration" },
  { slug: "hosting-support", label: "Hosting Support" },
  { slug: "acronis-setup", label: "Backup Setup" },
  { slug: "per-incident-support", label: "Per-Incident Support" },
];

/** The spec's "Service id redirect" table: service name to the page it redirects to. */
export const SERVICE_NAME_TO_SLUG: Readonly<Record<string, ServiceSlug>> = {
  "Email Migration & Setup": "email-migration",
  "Domain & Email Security": "email-deliverability",
  "SSL & HTTPS Setup": "ssl-setup",
  "Cloud Suite Management": "cloud-management",
  "Cloud Data Migration": "data-migration",
  "Hosting & Control Panel Support": "hosting-support",
  "Acronis Account Setup": "acronis-setup",
  "Per Incident Support": "per-incident-support",
};

/** Other names the old site and old links used for the same services. */
const LEGACY_ALIASES: Readonly<Record<ServiceSlug, readonly string[]>> = {
  "email-migration": ["email-migration-setup", "email-setup", "mailbox-migration"],
  "email-deliverability": ["domain-email-security", "email-security", "deliverability", "dmarc-setup"],
  "ssl-setup": ["ssl-https-setup", "ssl", "https-setup", "ssl-certificate"],
  "cloud-management": ["cloud-suite-management", "cloud-suite", "workspace-management"],
  "data-migration": ["cloud-data-migration", "cloud-migration"],
  "hosting-support": ["hosting-control-panel-support", "hosting", "cpanel-support", "control-panel-support"],
  "acronis-setup": ["acronis-account-setup", "acronis", "backup-setup", "backup-account-setup"],
  "per-incident-support": ["incident-support", "per-incident", "support-incident"],
};

export function isServiceSlug(value: string): value is ServiceSlug {
  return SERVICE_PAGES.some((p) => p.slug === value);
}

/** Lowercase, every run of non-alphanumerics to one hyphen, no leading or trailing hyphen. */
export function toRouteKey(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The minimal shape route resolution needs, so it works on rows and on seed data alike. */
export interface ServiceIdentity {
  id: string;
  slug: string;
  name: string;
}

/**
 * Resolves whatever a link carries (canonical id, slug, service name, or a legacy alias;
 * any case, URL-decoded) to the canonical service id, or null when nothing matches.
 */
export function resolveServiceRouteId(routeId: string, services: readonly ServiceIdentity[]): string | null {
  const raw = routeId.trim();
  if (!raw) return null;
  const byId = services.find((s) => s.id.toLowerCase() === raw.toLowerCase());
  if (byId) return byId.id;
  const key = toRouteKey(raw);
  if (!key) return null;
  for (const s of services) {
    const pageSlug = SERVICE_NAME_TO_SLUG[s.name] ?? s.slug;
    const keys = [
      s.slug,
      pageSlug,
      toRouteKey(s.name),
      ...(isServiceSlug(pageSlug) ? LEGACY_ALIASES[pageSlug] : []),
    ];
    if (keys.includes(key)) return s.id;
  }
  return null;
}

/** The page a service redirects to, by its name as the spec's table says (falling back to its slug). */
export function servicePagePath(service: ServiceIdentity): string {
  const slug = SERVICE_NAME_TO_SLUG[service.name] ?? (isServiceSlug(service.slug) ? service.slug : null);
  return slug ? `/services/${slug}` : "/";
}

/** "Starting from": the lowest positive price among the packages, or null when none is positive. */
export function startingPriceUsd(pricing: Readonly<Record<string, number>>): number | null {
  const positive = Object.values(pricing).filter((p) => Number.isFinite(p) && p > 0);
  return positive.length ? Math.min(...positive) : null;
}

/** A package a service offers, as every page that lists or sells packages shows it. */
export interface OfferedPackage {
  key: string;
  /** The package's display name, or its key when it has none. */
  name: string;
  priceUsd: number;
  features: readonly string[];
}

/** What `offeredPackages` reads of a service; names and features may be left out where unused. */
export interface PackageCatalogue {
  packageOrder: readonly string[];
  pricing: Readonly<Record<string, number>>;
  packageNames?: Readonly<Record<string, string>>;
  features?: Readonly<Record<string, readonly string[]>>;
}

/** A record's own entry, never one inherited from Object.prototype ("constructor", "toString"). */
function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * The one rule for which packages a service offers: the keys of its packageOrder that have a price of
 * their own, in that order. The purchase page, the portal's service cards, the public price cards, the
 * default package and checkout all read it.
 */
export function offeredPackages(service: PackageCatalogue): OfferedPackage[] {
  const offered: OfferedPackage[] = [];
  for (const key of service.packageOrder) {
    const priceUsd = own(service.pricing, key);
    if (typeof priceUsd !== "number") continue;
    offered.push({
      key,
      name: own(service.packageNames, key) ?? key,
      priceUsd,
      features: own(service.features, key) ?? [],
    });
  }
  return offered;
}

/**
 * The package preselected on purchase and used for card features: 'basic' when offered, else the
 * first package offered ('basic' when none is, which checkout then refuses as not offered).
 */
export function defaultPackage(service: PackageCatalogue): string {
  const offered = offeredPackages(service);
  return (offered.find((p) => p.key === "basic") ?? offered[0])?.key ?? "basic";
}

export interface QuantityRules {
  /** Label of the quantity selector, or null when the service is bought once per order. */
  label: string | null;
  min: number;
  max: number;
}

export function quantityRules(service: {
  quantityLabel: string | null;
  minQuantity: number;
  maxQuantity: number;
}): QuantityRules {
  if (!service.quantityLabel) return { label: null, min: 1, max: 1 };
  return { label: service.quantityLabel, min: service.minQuantity, max: service.maxQuantity };
}

/**
 * The quantity selector's rule: a whole number within the bounds. Non-numeric input falls back to
 * the minimum; out-of-range input is ignored, so the previous value stays.
 */
export function nextQuantity(input: string | number, previous: number, rules: QuantityRules): number {
  const n = typeof input === "number" ? input : Number(String(input).trim());
  if (String(input).trim() === "" || !Number.isFinite(n) || !Number.isInteger(n)) return rules.min;
  if (n < rules.min || n > rules.max) return previous;
  return n;
}

/** The − button works above the minimum, the + button below the maximum (disabled at the bounds). */
export function quantityButtons(
  quantity: number,
  rules: QuantityRules,
): { decrease: boolean; increase: boolean } {
  return { decrease: quantity > rules.min, increase: quantity < rules.max };
}

/** − and +: one step, never past a bound. */
export function stepQuantity(quantity: number, delta: 1 | -1, rules: QuantityRules): number {
  return Math.min(rules.max, Math.max(rules.min, quantity + delta));
}

/**
 * The quantity the server accepts for an order: a whole number within the bounds, else null (the
 * action then answers 400). Services bought once per order always have quantity 1.
 */
export function orderQuantity(input: unknown, rules: QuantityRules): number | null {
  if (!rules.label) return 1;
  const raw =
    typeof input === "number" ? input : typeof input === "string" && input.trim() ? Number(input) : NaN;
  if (!Number.isInteger(raw) || raw < rules.min || raw > rules.max) return null;
  return raw;
}
