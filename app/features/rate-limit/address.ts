/**
 * The one rule for keying a rate limit by the client's address (issue 35, item 5): an IPv4 address
 * counts whole; an IPv6 address counts by its /64 network, because one subscriber (a home line, a
 * cloud server) is usually given a whole /64 and can take a fresh address for every request; an
 * IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a dual-stack socket reports) is its IPv4 address.
 * Every limit keyed by an address builds its key with this.
 */
import ipaddr from "ipaddr.js";

export function rateLimitAddress(ip: string | null | undefined): string {
  if (!ip) return "unknown";
  if (!ipaddr.isValid(ip)) return ip.toLowerCase();
  const address = ipaddr.process(ip);
  if (address.kind() === "ipv4") return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(":")}::/64`;
}
