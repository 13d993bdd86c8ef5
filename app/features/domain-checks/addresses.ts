/**
 * Which addresses the checker may connect to (issue 39, item 7): public unicast only. The ranges come
 * from ipaddr.js (its IANA special-purpose registries, kept up to date upstream), not from a list of our
 * own; on top of them, IPv6 must be global unicast (2000::/3), an IPv4-mapped address is judged as the
 * IPv4 address it carries, and the cloud metadata addresses are named so a refusal says what it was.
 * Pure: no DNS, no sockets.
 */
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

export type AddressVerdict =
  | { allowed: true; address: string; family: 4 | 6 }
  | {
      allowed: false;
      address: string;
      /** ipaddr.js's name for the range ("private", "loopback", "linkLocal"…), or "invalid". */
      range: string;
      /** Plain words: "a private network address". */
      reason: string;
    };

/** The instance metadata services of the clouds (AWS, GCP, Azure, OpenStack; AWS's IPv6 one). */
const METADATA = new Set(["169.254.169.254", "fd00:ec2::254"]);

const RANGE_WORDS: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "the broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address (this machine)",
  carrierGradeNat: "a carrier-grade NAT address (100.64.0.0/10)",
  private: "a private network address",
  reserved: "a reserved or documentation address",
  as112: "an AS112 address",
  amt: "an AMT relay address",
  uniqueLocal: "a unique-local (private) IPv6 address",
  deprecatedSiteLocal: "a site-local IPv6 address",
  discard: "an IPv6 discard address",
  rfc6145: "an IPv4-translated IPv6 address",
  rfc6052: "a NAT64 address (it can reach private IPv4 networks)",
  "6to4": "a 6to4 address",
  teredo: "a Teredo address",
  benchmarking: "a benchmarking address",
  as112v6: "an AS112 address",
  deprecatedOrchid: "an ORCHID address",
  orchid2: "an ORCHIDv2 address",
  droneRemoteIdProtocolEntityTags: "a drone remote ID address",
  segmentRouting: "a segment-routing address",
  notGlobal: "an IPv6 address outside the global unicast range",
};

/**
 * Whether the checker may connect to `address`. `allowLoopback` is the tests' setting
 * (DOMAIN_CHECK_ALLOW_LOOPBACK, refused in production): it opens the loopback ranges and nothing else.
 */
export function classifyAddress(address: string, options: { allowLoopback?: boolean } = {}): AddressVerdict {
  // Canonical forms only (what a resolver returns), not "2130706433" or "0x7f.1".
  if (isIP(address) === 0) {
    return { allowed: false, address, range: "invalid", reason: "not an IP address" };
  }
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const canonical = parsed.toString();
  if (METADATA.has(canonical) || METADATA.has(address.toLowerCase())) {
    return { allowed: false, address, range: "metadata", reason: "a cloud metadata service address" };
  }
  let range: string = parsed.range();
  if (range === "unicast" && parsed.kind() === "ipv6" && !parsed.match(ipaddr.parseCIDR("2000::/3"))) {
    range = "notGlobal";
  }
  if (range === "loopback" && options.allowLoopback) {
    return { allowed: true, address: canonical, family: parsed.kind() === "ipv4" ? 4 : 6 };
  }
  if (range !== "unicast") {
    return {
      allowed: false,
      address,
      range,
      reason: RANGE_WORDS[range] ?? `a special-purpose address (${range})`,
    };
  }
  return { allowed: true, address: canonical, family: parsed.kind() === "ipv4" ? 4 : 6 };
}
