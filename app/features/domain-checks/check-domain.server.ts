/**
 * `checkDomain`: every check of one domain, run together within the domain's time limit (20 s), into
 * one report (issue 39, item 2). Everything it touches comes in `deps` (the resolver, the safe network,
 * the clock, the trust anchors, the RDAP bootstrap cache), so tests run it against servers on this
 * machine, and the jobs, pages and CLI built on it share one set per process (`domainCheckDeps`).
 */

import { setMaxListeners } from "node:events";
import type { DkimDetails } from "./dkim";
import type { DmarcDetails } from "./dmarc";
import { ask, createDnsResolver, type DnsResolver } from "./dns.server";
import { CHECK_KINDS, type DomainChecks, type DomainReport } from "./domain-report";
import { checkHttps, type HttpsDetails } from "./https.server";
import { checkDkim, checkDmarc, checkMtaSts, checkSpf } from "./mail-auth.server";
import { checkMailServers, type MailServersDetails, readMx } from "./mail-servers.server";
import { type MtaStsDetails, policyUrl } from "./mta-sts";
import { type DomainName, normaliseHostName, parseDomainName } from "./names";
import { createSafeNetwork, type Dialer, type SafeNetwork } from "./network.server";
import type { RegistrationDetails } from "./rdap";
import { checkRegistration, createRdapBootstrapCache, type RdapBootstrapCache } from "./registration.server";
import { type CheckResult, worstVerdict } from "./report";
import type { DomainCheckSettings } from "./settings";
import type { SpfDetails } from "./spf";

export interface DomainCheckDeps {
  settings: DomainCheckSettings;
  resolver: DnsResolver;
  network: SafeNetwork;
  now: () => Date;
  /** Trust anchors (PEM) instead of Node's store: tests' own CA. */
  ca?: string[] | undefined;
  rdapBootstrap: RdapBootstrapCache;
}

export interface DomainCheckRequest {
  /** The client's DKIM selectors, tried before the common ones. */
  dkimSelectors?: readonly string[];
  /** An expiry date typed by the client or owner, used when the registry has no RDAP. */
  typedExpiry?: Date | null;
  /** Stops the whole check early (a shutdown); the 20 s limit applies anyway. */
  signal?: AbortSignal;
}

/**
 * The deps of a process: a resolver on the settings' DNS servers, the safe network (which refuses
 * unsafe settings in production), the wall clock, Node's trust store and a fresh bootstrap cache. Build
 * it once per process and pass it to every check, so the bootstrap file is fetched once a day.
 */
export function domainCheckDeps(
  settings: DomainCheckSettings,
  overrides: {
    resolver?: DnsResolver;
    dial?: Dialer;
    now?: () => Date;
    ca?: string[];
    rdapBootstrapUrl?: string;
    nodeEnv?: string;
  } = {},
): DomainCheckDeps {
  const resolver = overrides.resolver ?? createDnsResolver(settings);
  return {
    settings,
    resolver,
    network: createSafeNetwork({ settings, resolver, dial: overrides.dial, nodeEnv: overrides.nodeEnv }),
    now: overrides.now ?? (() => new Date()),
    ca: overrides.ca,
    rdapBootstrap: createRdapBootstrapCache(overrides.rdapBootstrapUrl),
  };
}

/** A name `checkDomain` refuses (the message is `parseDomainName`'s sentence). */
export class InvalidDomainName extends Error {
  override name = "InvalidDomainName";
}

/**
 * A check's result within the domain's limit: its own result, or "not checked" (with empty details)
 * when the limit runs out first or the check throws. A check never outlives the limit.
 */
function guarded<D>(
  work: Promise<CheckResult<D>>,
  signal: AbortSignal,
  empty: D,
  limitMs: number,
): Promise<CheckResult<D>> {
  const late = (): CheckResult<D> => ({
    verdict: "not-checked",
    reason: `The check ran out of time (${Math.round(limitMs / 1000)} s for the whole domain).`,
    details: empty,
  });
  if (signal.aborted) return Promise.resolve(late());
  return new Promise<CheckResult<D>>((resolve) => {
    const onAbort = () => resolve(late());
    signal.addEventListener("abort", onAbort, { once: true });
    work
      .then(resolve, (error: unknown) =>
        resolve({
          verdict: "not-checked",
          reason: `The check failed: ${(error as Error)?.message ?? String(error)}.`,
          details: empty,
        }),
      )
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export async function checkDomain(
  name: string | DomainName,
  deps: DomainCheckDeps,
  request: DomainCheckRequest = {},
): Promise<DomainReport> {
  let domain: DomainName;
  if (typeof name === "string") {
    const parsed = parseDomainName(name);
    if (!parsed.ok) throw new InvalidDomainName(parsed.error);
    domain = parsed.name;
  } else domain = name;
  const startedAt = deps.now();
  const limitMs = deps.settings.limits.domainMs;
  const signal = AbortSignal.any([AbortSignal.timeout(limitMs), ...(request.signal ? [request.signal] : [])]);
  // Every query and connection of the domain listens to it (a few dozen listeners by design).
  setMaxListeners(200, signal);
  const within = <D>(work: Promise<CheckResult<D>>, empty: D) => guarded(work, signal, empty, limitMs);
  const tls = { network: deps.network, now: deps.now, ca: deps.ca, signal };
  const auth = { resolver: deps.resolver, network: deps.network, ca: deps.ca, signal };
  const ascii = domain.ascii;

  const mx = readMx(deps.resolver, ascii, signal);
  const mailServers = within<MailServersDetails>(
    mx.then((records) =>
      checkMailServers(ascii, records, { ...tls, limitMs: deps.settings.limits.connectionMs }),
    ),
    { nullMx: false, hosts: [], skipped: [] },
  );
  const mtaSts = within<MtaStsDetails>(
    Promise.all([mx, mailServers]).then(([records, mail]) =>
      checkMtaSts(
        ascii,
        mail,
        records.kind === "found" ? records.records.map((r) => normaliseHostName(r.exchange)) : [],
        auth,
      ),
    ),
    { id: null, policyUrl: policyUrl(ascii), mode: null, maxAge: null, mxPatterns: [], uncovered: [] },
  );
  const noCertificate = (host: string): HttpsDetails => ({ host, address: null, certificate: null });
  // Whether the name exists at all: a name the DNS does not know has no mail to authenticate.
  const apex = ask(() => deps.resolver.resolveTxt(ascii), signal);
  const [https, httpsWww, mail, spf, dmarc, dkim, sts, registration, apexAnswer] = await Promise.all([
    within(checkHttps(ascii, tls), noCertificate(ascii)),
    within(checkHttps(`www.${ascii}`, tls), noCertificate(`www.${ascii}`)),
    mailServers,
    within<SpfDetails>(checkSpf(ascii, auth), { record: null, lookups: 0, includes: [], all: null }),
    within<DmarcDetails>(checkDmarc(ascii, auth), {
      record: null,
      policy: null,
      subdomainPolicy: null,
      percent: null,
      reportTo: [],
    }),
    within<DkimDetails>(checkDkim(ascii, request.dkimSelectors ?? [], auth), { selectors: [] }),
    mtaSts,
    within<RegistrationDetails>(
      checkRegistration(ascii, domain.suffix, {
        network: deps.network,
        bootstrap: deps.rdapBootstrap,
        now: deps.now,
        ca: deps.ca,
        signal,
        typedExpiry: request.typedExpiry,
      }),
      { source: null, expiresOn: null, daysLeft: null, registrar: null, rdapUrl: null },
    ),
    apex,
  ]);
  const checks: DomainChecks = {
    https,
    httpsWww,
    mailServers: mail,
    spf,
    dmarc,
    dkim,
    mtaSts: sts,
    registration,
  };
  const nameExists = !(apexAnswer.kind === "none" && apexAnswer.nxdomain);
  if (!nameExists) {
    const reason = `${ascii} does not exist in the DNS (no such name), so there is no mail to check: check that it is registered and that its DNS servers answer for it.`;
    const unknown = <D>(check: CheckResult<D>): CheckResult<D> => ({
      ...check,
      verdict: "not-checked",
      reason,
    });
    checks.spf = unknown(checks.spf);
    checks.dmarc = unknown(checks.dmarc);
    checks.dkim = unknown(checks.dkim);
    checks.mtaSts = unknown(checks.mtaSts);
  }
  // The reasons name the domain as its owner typed it (bücher.de, www.bücher.de); the details keep ASCII.
  if (domain.unicode !== ascii) {
    for (const kind of CHECK_KINDS)
      checks[kind].reason = checks[kind].reason.replaceAll(ascii, domain.unicode);
  }
  return {
    domain,
    checkedAt: startedAt.toISOString(),
    verdict: nameExists ? worstVerdict(CHECK_KINDS.map((k) => checks[k].verdict)) : "problem",
    nameExists,
    checks,
  };
}
