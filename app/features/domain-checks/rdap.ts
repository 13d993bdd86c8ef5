/**
 * Registration expiry through RDAP (RFC 9083, RFC 7484 bootstrap): the registry's RDAP server for the
 * domain's ending comes from IANA's bootstrap file, and the domain's `expiration` event gives the date.
 * A registry without RDAP, or one that does not publish the date, leaves it to a date the client or the
 * owner typed. Pure: the parsing and the rules; the fetching is in registration.server.ts.
 */
import { z } from "zod";
import { type CheckResult, daysPhrase, daysUntil, formatDay } from "./report";

export const RDAP_BOOTSTRAP_URL = "https://data.iana.org/rdap/dns.json";

/** Days left at or under which a registration is a problem, and a warning. */
export const REGISTRATION_PROBLEM_DAYS = 7;
export const REGISTRATION_WARNING_DAYS = 30;

const bootstrapSchema = z.object({
  services: z.array(z.tuple([z.array(z.string()), z.array(z.string())])),
});

export type RdapBootstrap = z.infer<typeof bootstrapSchema>;

export function parseBootstrap(json: unknown): RdapBootstrap | null {
  const parsed = bootstrapSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** The https base URLs for `domain` (ASCII): the entry whose ending matches the most labels. */
export function rdapBaseUrls(bootstrap: RdapBootstrap, domain: string): string[] {
  let best: { labels: number; urls: string[] } | null = null;
  for (const [endings, urls] of bootstrap.services) {
    for (const ending of endings.map((e) => e.toLowerCase().replace(/^\.|\.$/g, ""))) {
      if (ending === "" || !(domain === ending || domain.endsWith(`.${ending}`))) continue;
      const labels = ending.split(".").length;
      if (!best || labels > best.labels) best = { labels, urls };
    }
  }
  return (best?.urls ?? []).filter((u) => u.startsWith("https://"));
}

/** The domain lookup URL under a base (RFC 9082 §3.1.3). */
export function rdapDomainUrl(base: string, domain: string): string {
  return `${base.endsWith("/") ? base : `${base}/`}domain/${domain}`;
}

const domainSchema = z.object({
  events: z.array(z.object({ eventAction: z.string(), eventDate: z.string() })).optional(),
  entities: z
    .array(z.object({ roles: z.array(z.string()).optional(), vcardArray: z.unknown().optional() }))
    .optional(),
});

export interface RdapDomainFacts {
  expiresOn: Date | null;
  registrar: string | null;
}

/** The expiry date and the registrar's name out of an RDAP domain answer. */
export function rdapDomainFacts(json: unknown): RdapDomainFacts | null {
  const parsed = domainSchema.safeParse(json);
  if (!parsed.success) return null;
  const expiration = parsed.data.events?.find((e) => e.eventAction.toLowerCase() === "expiration");
  const date = expiration ? new Date(expiration.eventDate) : null;
  const registrarEntity = parsed.data.entities?.find((e) => e.roles?.includes("registrar"));
  let registrar: string | null = null;
  const vcard = registrarEntity?.vcardArray;
  if (Array.isArray(vcard) && Array.isArray(vcard[1])) {
    const fn = (vcard[1] as unknown[]).find((p) => Array.isArray(p) && p[0] === "fn") as
      | unknown[]
      | undefined;
    if (typeof fn?.[3] === "string") registrar = fn[3];
  }
  return { expiresOn: date && !Number.isNaN(date.getTime()) ? date : null, registrar };
}

export interface RegistrationDetails {
  /** Where the date came from: the registry (rdap), typed by a person, or none. */
  source: "rdap" | "typed" | null;
  expiresOn: string | null;
  daysLeft: number | null;
  registrar: string | null;
  rdapUrl: string | null;
}

/** The verdict on a known expiry date. */
export function evaluateExpiry(
  domain: string,
  expiresOn: Date,
  now: Date,
  details: Omit<RegistrationDetails, "expiresOn" | "daysLeft">,
): CheckResult<RegistrationDetails> {
  const daysLeft = daysUntil(expiresOn, now);
  const full = { ...details, expiresOn: expiresOn.toISOString(), daysLeft };
  const from = details.source === "typed" ? " (the date typed in, not read from the registry)" : "";
  if (expiresOn.getTime() <= now.getTime()) {
    return {
      verdict: "problem",
      reason: `The registration of ${domain} expired on ${formatDay(expiresOn)}${from}.`,
      details: full,
    };
  }
  const when = `The registration of ${domain} expires ${daysPhrase(daysLeft)}, on ${formatDay(expiresOn)}${from}`;
  if (daysLeft <= REGISTRATION_PROBLEM_DAYS) return { verdict: "problem", reason: `${when}.`, details: full };
  if (daysLeft <= REGISTRATION_WARNING_DAYS) return { verdict: "warning", reason: `${when}.`, details: full };
  return {
    verdict: "ok",
    reason: `${domain} is registered until ${formatDay(expiresOn)} (${daysLeft} days left)${from}.`,
    details: full,
  };
}

/** When the registry cannot say: the typed date when there is one, else "not checked" with `why`. */
export function fallBackToTyped(
  domain: string,
  typed: Date | null | undefined,
  now: Date,
  why: string,
  rdapUrl: string | null,
): CheckResult<RegistrationDetails> {
  if (typed) return evaluateExpiry(domain, typed, now, { source: "typed", registrar: null, rdapUrl });
  return {
    verdict: "not-checked",
    reason: `${why}: enter the expiry date by hand to have it watched.`,
    details: { source: null, expiresOn: null, daysLeft: null, registrar: null, rdapUrl },
  };
}
