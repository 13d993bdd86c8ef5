/**
 * The checker's settings (issue 39, item 7; ADR 0540): where the DNS is asked, the time limits, and the
 * tests' way to reach servers on this machine. The environment variables are parsed in
 * app/config.server.ts (DNS_SERVERS, DOMAIN_CHECK_ALLOW_LOOPBACK, DOMAIN_CHECK_PORTS) with the helpers
 * below; `domainCheckSafetyError` is the one rule that keeps the test setting out of production. It runs
 * in `loadConfig` (so the server, every CLI and every job refuse to start with it) and again in
 * `createSafeNetwork` (so settings built by hand, without the config, are refused too).
 */

/** The only ports the checker connects to: HTTPS and SMTP. */
export const CHECKED_PORTS = [443, 25] as const;
export type CheckedPort = (typeof CHECKED_PORTS)[number];

export interface DomainCheckLimits {
  /** One connection: TCP, TLS, and the exchange on it (SMTP dialogue, HTTP request and answer). */
  connectionMs: number;
  /** A whole domain: every check of it, DNS included. */
  domainMs: number;
  /** One DNS query (per try; the resolver tries twice). */
  dnsMs: number;
}

export const DEFAULT_LIMITS: DomainCheckLimits = { connectionMs: 5_000, domainMs: 20_000, dnsMs: 2_000 };

export interface DomainCheckSettings {
  /** DNS_SERVERS: "1.1.1.1", "[2606:4700::1111]:53", "127.0.0.1:5353"; empty = the system's resolvers. */
  dnsServers: string[];
  /**
   * TESTS ONLY (DOMAIN_CHECK_ALLOW_LOOPBACK): connections to loopback addresses (127.0.0.0/8, ::1) are
   * allowed. Every other non-public range stays refused. Refused in production.
   */
  allowLoopback: boolean;
  /**
   * TESTS ONLY (DOMAIN_CHECK_PORTS "443=8443,25=2525"): the port actually dialled for 443 or 25, for a
   * loopback address only, and only with `allowLoopback`. Refused in production.
   */
  portOverrides: Partial<Record<CheckedPort, number>>;
  /**
   * TESTS ONLY (DOMAIN_CHECK_CA_FILE): certificates (PEM) trusted besides Node's store, a test CA.
   */
  extraCa?: string[];
  /**
   * A test server: TEST_HOOKS on, which loadConfig allows only when PUBLIC_URL is a loopback address.
   * The browser tests run the production build, so the test settings are allowed there, and only there.
   */
  testServer?: boolean;
  limits: DomainCheckLimits;
}

export const DEFAULT_SETTINGS: DomainCheckSettings = {
  dnsServers: [],
  allowLoopback: false,
  portOverrides: {},
  limits: DEFAULT_LIMITS,
};

/**
 * Null when the settings are safe for `nodeEnv`, else the sentence to stop with. Call it where a process
 * starts (loadConfig does, for the server and the CLIs) and where settings are used (createSafeNetwork).
 */
export function domainCheckSafetyError(
  settings: Pick<DomainCheckSettings, "allowLoopback" | "portOverrides" | "extraCa" | "testServer">,
  nodeEnv: string | undefined,
): string | null {
  const overrides = Object.keys(settings.portOverrides).length > 0;
  const testOnly = settings.allowLoopback || overrides || (settings.extraCa?.length ?? 0) > 0;
  if (nodeEnv === "production" && testOnly && !settings.testServer) {
    return "DOMAIN_CHECK_ALLOW_LOOPBACK, DOMAIN_CHECK_PORTS and DOMAIN_CHECK_CA_FILE are for tests only: the domain checker must never reach this machine in production";
  }
  if (overrides && !settings.allowLoopback) {
    return "DOMAIN_CHECK_PORTS needs DOMAIN_CHECK_ALLOW_LOOPBACK=true (it only applies to test servers on this machine)";
  }
  return null;
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** One DNS_SERVERS entry as Node's resolver takes it, or null: an IP address with an optional port. */
function dnsServerEntry(entry: string): string | null {
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(entry);
  const v4 = /^([\d.]+)(?::(\d{1,5}))?$/.exec(entry);
  const port = bracketed?.[2] ?? v4?.[2];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return null;
  if (bracketed) return bracketed[1]!.includes(":") ? entry : null;
  if (v4) return IPV4.test(v4[1]!) && v4[1]!.split(".").every((n) => Number(n) <= 255) ? entry : null;
  // A bare IPv6 address (no port).
  return /^[0-9a-fA-F:]+$/.test(entry) && entry.includes(":") ? entry : null;
}

/** DNS_SERVERS: a comma-separated list; returns the list, or a message prefixed with "!". */
export function parseDnsServers(raw: string): string[] | `!${string}` {
  const entries = raw
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.find((e) => dnsServerEntry(e) === null);
  if (bad !== undefined || entries.length === 0) {
    return `!must be a comma-separated list of IP addresses with optional ports (1.1.1.1, 127.0.0.1:5353, [::1]:53)${bad === undefined ? "" : ` ("${bad}" is not)`}`;
  }
  return entries;
}

/** DOMAIN_CHECK_PORTS: "443=8443,25=2525"; returns the map, or a message prefixed with "!". */
export function parsePortOverrides(raw: string): Partial<Record<CheckedPort, number>> | `!${string}` {
  const map: Partial<Record<CheckedPort, number>> = {};
  for (const pair of raw
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^(443|25)=(\d{1,5})$/.exec(pair);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65535) {
      return `!must be pairs such as 443=8443,25=2525 (only 443 and 25 can be redirected; "${pair}" is not one)`;
    }
    map[Number(match[1]) as CheckedPort] = port;
  }
  return map;
}
