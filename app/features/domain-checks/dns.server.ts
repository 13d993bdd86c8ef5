/**
 * The DNS as the checker reads it: Node's resolver (c-ares, not the system's getaddrinfo, so a hosts
 * file never answers), on DNS_SERVERS when set. Queries go to the configured resolvers only; the
 * safety rules cover where the checker connects afterwards, not where it asks (ADR 0540).
 */
import { Resolver } from "node:dns/promises";
import type { DomainCheckSettings } from "./settings";

/** What the checks ask of a resolver: Node's `dns.promises.Resolver` has it, a test may give its own. */
export interface DnsResolver {
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
  resolveMx(name: string): Promise<{ exchange: string; priority: number }[]>;
  resolveTxt(name: string): Promise<string[][]>;
}

/** A resolver on the settings' servers (or the system's), each query tried twice within `dnsMs`. */
export function createDnsResolver(settings: Pick<DomainCheckSettings, "dnsServers" | "limits">): DnsResolver {
  const resolver = new Resolver({ timeout: settings.limits.dnsMs, tries: 2 });
  if (settings.dnsServers.length > 0) resolver.setServers(settings.dnsServers);
  return resolver;
}

export type DnsAnswer<T> =
  /** Records of the asked type. */
  | { kind: "found"; records: T }
  /**
   * The name or the type does not exist (NODATA; NXDOMAIN with `nxdomain`, the name itself does not):
   * a fact about the domain.
   */
  | { kind: "none"; nxdomain?: true }
  /** No answer (timeout, SERVFAIL, refused): nothing is known, the check says not checked. */
  | { kind: "failed"; code: string };

const ABSENT = new Set(["ENODATA", "ENOTFOUND"]);

/** Runs one query; an abort of `signal` (the domain's time limit) answers "failed" at once. */
export async function ask<T>(query: () => Promise<T>, signal?: AbortSignal): Promise<DnsAnswer<T>> {
  if (signal?.aborted) return { kind: "failed", code: "ETIMEOUT" };
  let onAbort = () => {};
  const aborted = new Promise<DnsAnswer<T>>((resolve) => {
    onAbort = () => resolve({ kind: "failed", code: "ETIMEOUT" });
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  const answered = query().then(
    (records): DnsAnswer<T> =>
      Array.isArray(records) && records.length === 0 ? { kind: "none" } : { kind: "found", records },
    (error: NodeJS.ErrnoException): DnsAnswer<T> => {
      const code = String(error?.code ?? "EFAIL");
      if (code === "ENOTFOUND") return { kind: "none", nxdomain: true };
      return ABSENT.has(code) ? { kind: "none" } : { kind: "failed", code };
    },
  );
  try {
    return await Promise.race([answered, aborted]);
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

/** The TXT records at `name`, each one's strings joined without spaces (RFC 7208 §3.3, RFC 6376 §3.6.2.2). */
export async function askTxt(
  resolver: DnsResolver,
  name: string,
  signal?: AbortSignal,
): Promise<DnsAnswer<string[]>> {
  const answer = await ask(() => resolver.resolveTxt(name), signal);
  return answer.kind === "found"
    ? { kind: "found", records: answer.records.map((parts) => parts.join("")) }
    : answer;
}

/** "the DNS did not answer (ETIMEOUT)", for reasons. */
export function dnsFailureWords(code: string): string {
  if (code === "ETIMEOUT") return "the DNS did not answer in time";
  if (code === "ESERVFAIL") return "the DNS servers of the domain failed to answer (SERVFAIL)";
  if (code === "ECONNREFUSED" || code === "EREFUSED") return "the DNS resolver refused the query";
  return `the DNS query failed (${code})`;
}
