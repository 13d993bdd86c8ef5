/**
 * Registration expiry: IANA's RDAP bootstrap file (kept in memory for a day, fetched through the safe
 * connection like everything else), then the registry's RDAP answer for the domain, following at most
 * two redirects (RFC 7480 §5.2), each through the safe connection again.
 */

import { connectionFailureWords } from "./https.server";
import type { HttpsAnswer, SafeNetwork } from "./network.server";
import { RefusedConnection } from "./network.server";
import {
  evaluateExpiry,
  fallBackToTyped,
  parseBootstrap,
  RDAP_BOOTSTRAP_URL,
  type RdapBootstrap,
  type RegistrationDetails,
  rdapBaseUrls,
  rdapDomainFacts,
  rdapDomainUrl,
} from "./rdap";
import type { CheckResult } from "./report";

export const BOOTSTRAP_TTL_MS = 24 * 3_600_000;
const MAX_BOOTSTRAP_BYTES = 1_000_000;
const MAX_RDAP_BYTES = 512_000;
const RDAP_REDIRECTS = 2;

/** The bootstrap file, fetched at most once a day per process (a failure is not kept). */
export interface RdapBootstrapCache {
  get(fetch: (url: string) => Promise<HttpsAnswer>, now: Date): Promise<RdapBootstrap>;
}

export function createRdapBootstrapCache(
  url: string = RDAP_BOOTSTRAP_URL,
  ttlMs = BOOTSTRAP_TTL_MS,
): RdapBootstrapCache {
  let kept: { at: number; bootstrap: RdapBootstrap } | null = null;
  let pending: Promise<RdapBootstrap> | null = null;
  return {
    async get(fetch, now) {
      if (kept && now.getTime() - kept.at < ttlMs) return kept.bootstrap;
      pending ??= (async () => {
        try {
          const answer = await fetch(url);
          if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
          const bootstrap = parseBootstrap(JSON.parse(answer.body));
          if (!bootstrap) throw new Error(`${url} is not an RDAP bootstrap file`);
          kept = { at: now.getTime(), bootstrap };
          return bootstrap;
        } finally {
          pending = null;
        }
      })();
      return pending;
    },
  };
}

export interface RegistrationContext {
  network: SafeNetwork;
  bootstrap: RdapBootstrapCache;
  now: () => Date;
  ca?: string[] | undefined;
  signal: AbortSignal;
  /** An expiry date typed by the client or the owner, for registries without RDAP. */
  typedExpiry?: Date | null | undefined;
}

function fetcher(context: RegistrationContext, accept: string, maxBytes: number) {
  return (url: string) =>
    context.network.httpsGet(url, { accept, maxBytes, ca: context.ca, signal: context.signal });
}

export async function checkRegistration(
  domain: string,
  suffix: string,
  context: RegistrationContext,
): Promise<CheckResult<RegistrationDetails>> {
  const now = context.now();
  // A server that could not be reached: the typed expiry if there is one, else "not checked", saying why.
  const unreachable = (error: unknown, what: string, rdapUrl: string | null) => {
    const why = error instanceof RefusedConnection ? error.message : connectionFailureWords(error);
    return fallBackToTyped(domain, context.typedExpiry, now, `${what} (${why})`, rdapUrl);
  };
  let bootstrap: RdapBootstrap;
  try {
    bootstrap = await context.bootstrap.get(fetcher(context, "application/json", MAX_BOOTSTRAP_BYTES), now);
  } catch (error) {
    return unreachable(error, "The list of registries (IANA's RDAP bootstrap) could not be read", null);
  }
  const bases = rdapBaseUrls(bootstrap, domain);
  if (bases.length === 0) {
    return fallBackToTyped(
      domain,
      context.typedExpiry,
      now,
      `The registry of .${suffix} has no RDAP service, so the expiry date cannot be read`,
      null,
    );
  }
  let url = rdapDomainUrl(bases[0]!, domain);
  const get = fetcher(context, "application/rdap+json", MAX_RDAP_BYTES);
  let answer: HttpsAnswer;
  try {
    answer = await get(url);
    for (
      let hop = 0;
      hop < RDAP_REDIRECTS && answer.status >= 300 && answer.status < 400 && answer.headers.location;
      hop++
    ) {
      url = new URL(answer.headers.location, url).toString();
      answer = await get(url);
    }
  } catch (error) {
    return unreachable(error, "The registry's RDAP server could not be asked", url);
  }
  if (answer.status === 404) {
    return {
      verdict: "problem",
      reason: `The registry has no record of ${domain}: check that it is registered.`,
      details: { source: "rdap", expiresOn: null, daysLeft: null, registrar: null, rdapUrl: url },
    };
  }
  let facts: ReturnType<typeof rdapDomainFacts> = null;
  if (answer.status === 200) {
    try {
      facts = rdapDomainFacts(JSON.parse(answer.body));
    } catch {
      facts = null;
    }
  }
  if (!facts) {
    return fallBackToTyped(
      domain,
      context.typedExpiry,
      now,
      `The registry's RDAP server gave no usable answer (HTTP ${answer.status})`,
      url,
    );
  }
  if (!facts.expiresOn) {
    return fallBackToTyped(
      domain,
      context.typedExpiry,
      now,
      "The registry does not publish the expiry date",
      url,
    );
  }
  return evaluateExpiry(domain, facts.expiresOn, now, {
    source: "rdap",
    registrar: facts.registrar,
    rdapUrl: url,
  });
}
