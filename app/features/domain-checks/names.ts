/**
 * A domain a client watches is a registrable name (issue 39, item 1): the name a registrar sells,
 * directly under a public suffix of the ICANN section of the Public Suffix List (`tldts`), such as
 * example.com or example.co.uk, never a subdomain, a suffix itself, an IP address or a single label.
 * Internationalised names are accepted in Unicode or punycode; the name is kept in its ASCII (punycode,
 * lower case) form, which every DNS query and connection uses, and shown in its Unicode form.
 *
 * Pure, but it needs node:url (domainToASCII/domainToUnicode, the WHATWG URL host rules): use it in
 * loaders, actions and server modules, not in browser code.
 */
import { domainToASCII, domainToUnicode } from "node:url";
import ipaddr from "ipaddr.js";
import { parse } from "tldts";
import { z } from "zod";

export interface DomainName {
  /** Punycode, lower case, no trailing dot: "xn--bcher-kva.de". */
  ascii: string;
  /** For people: "bücher.de" (the same as `ascii` for a plain ASCII name). */
  unicode: string;
  /** The public suffix it is registered under: "de", "co.uk". */
  suffix: string;
}

export type DomainNameResult =
  | { ok: true; name: DomainName }
  | {
      ok: false;
      /** A sentence for the form: what is wrong and what to type. */
      error: string;
      /** The registrable name to offer instead, when the input was a subdomain of one. */
      suggestion?: string;
    };

/** RFC 1035: a name of at most 253 characters (without the trailing dot), labels of at most 63. */
export const MAX_NAME_LENGTH = 253;
export const MAX_LABEL_LENGTH = 63;

/**
 * Endings the Public Suffix List may know but no client's domain lives under: infrastructure (.arpa) and
 * the special-use names of RFC 6761, 6762, 7686 and 9476, some of which the list carries.
 */
const SPECIAL_USE = new Set([
  "arpa",
  "local",
  "localhost",
  "test",
  "example",
  "invalid",
  "onion",
  "internal",
  "alt",
]);

/** Letters, digits and inner hyphens (RFC 1123 host names), on the ASCII form. */
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

function looksLikeIpAddress(text: string): boolean {
  const bare = text.replace(/^\[|\]$/g, "");
  if (ipaddr.isValid(bare)) return true;
  // The WHATWG host parser reads a name whose last label is a number as IPv4 ("127.1", "0x7f.1").
  const last = bare.replace(/\.$/, "").split(".").pop() ?? "";
  return /^(?:\d+|0x[0-9a-f]*)$/i.test(last);
}

function unicodeOf(ascii: string): string {
  return domainToUnicode(ascii) || ascii;
}

function refuse(error: string, suggestion?: string): DomainNameResult {
  return suggestion ? { ok: false, error, suggestion } : { ok: false, error };
}

/** Validates and normalises a domain a person typed. */
export function parseDomainName(input: string): DomainNameResult {
  const typed = input.trim();
  if (typed === "") return refuse("Enter a domain name, such as example.com.");
  // Longer than any name can be in any form: refused before the IDNA mapping works on it.
  if (typed.length > MAX_NAME_LENGTH * 4) {
    return refuse(`A domain name has at most ${MAX_NAME_LENGTH} characters.`);
  }
  if (looksLikeIpAddress(typed)) {
    return refuse("An IP address is not a domain name: enter the domain, such as example.com.");
  }
  if (/[/:@?#\s]/.test(typed)) {
    return refuse("Enter the domain name only, such as example.com, without https://, a path or a port.");
  }
  const withoutDot = typed.endsWith(".") ? typed.slice(0, -1) : typed;
  const ascii = domainToASCII(withoutDot.toLowerCase());
  if (ascii === "") {
    return refuse(`“${typed}” is not a valid domain name: it has characters a domain name cannot have.`);
  }
  if (looksLikeIpAddress(ascii)) {
    return refuse("An IP address is not a domain name: enter the domain, such as example.com.");
  }
  if (ascii.length > MAX_NAME_LENGTH) {
    return refuse(`A domain name has at most ${MAX_NAME_LENGTH} characters; this one has ${ascii.length}.`);
  }
  const labels = ascii.split(".");
  if (labels.length < 2) {
    return refuse(
      `Enter the full domain name with its ending, such as example.com, not just “${unicodeOf(ascii)}”.`,
    );
  }
  for (const label of labels) {
    if (label === "") return refuse("A domain name cannot have two dots in a row or start with a dot.");
    if (label.length > MAX_LABEL_LENGTH) {
      return refuse(`Each part of a domain name has at most ${MAX_LABEL_LENGTH} characters.`);
    }
    if (!LDH_LABEL.test(label)) {
      return refuse(
        "A domain name has letters, digits and hyphens only, and no part starts or ends with a hyphen.",
      );
    }
  }
  const unicode = domainToUnicode(ascii);
  // A punycode label that does not decode (xn--zz) or decodes to something else is not a real name.
  if (unicode === "" || domainToASCII(unicode) !== ascii) {
    return refuse(`“${typed}” is not a valid internationalised domain name.`);
  }
  const parsed = parse(ascii, { allowPrivateDomains: false, detectIp: true });
  const suffix = parsed.publicSuffix ?? "";
  const tld = labels[labels.length - 1]!;
  if (!parsed.isIcann || SPECIAL_USE.has(tld)) {
    return refuse(
      `“.${domainToUnicode(tld)}” is not a public domain ending, so no one can register ${unicode}.`,
    );
  }
  if (parsed.domain === null) {
    return refuse(
      `${unicode} is a domain ending, not a domain: enter the name registered under it, such as example.${unicode}.`,
    );
  }
  if (parsed.domain !== ascii) {
    const registered = domainToUnicode(parsed.domain);
    return refuse(`Enter the registered domain, ${registered}, not ${unicode}.`, registered);
  }
  return { ok: true, name: { ascii, unicode, suffix } };
}

/**
 * The form field: a domain name in, its normalised form out, the sentence of `parseDomainName` on error.
 * Far over any name's length is refused before the IDNA mapping works on it.
 */
export const domainNameSchema = z
  .string({ message: "Enter a domain name, such as example.com." })
  .max(MAX_NAME_LENGTH * 4, { message: `A domain name has at most ${MAX_NAME_LENGTH} characters.` })
  .transform((value, ctx): DomainName => {
    const result = parseDomainName(value);
    if (!result.ok) {
      ctx.addIssue({ code: "custom", message: result.error });
      return z.NEVER;
    }
    return result.name;
  });

/** A DNS name under the domain or elsewhere (an MX host, an include:): ASCII, lower case, no final dot. */
export function normaliseHostName(name: string): string {
  return name.trim().replace(/\.$/, "").toLowerCase();
}
