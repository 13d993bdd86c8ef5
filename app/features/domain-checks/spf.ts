/**
 * SPF (RFC 7208): exactly one `v=spf1` record, valid syntax, at most 10 terms that cost a DNS lookup
 * (include, a, mx, ptr, exists, redirect: §4.6.4), counted through every include and redirect, and not
 * `+all`. The parser and the rules are pure; the TXT records come from an injected lookup, so the unit
 * tests give a map and the checker gives the DNS.
 */
import type { DnsAnswer } from "./dns.server";
import { normaliseHostName } from "./names";
import { type CheckResult, type Finding, foldFindings } from "./report";

export const SPF_LOOKUP_LIMIT = 10;

export type SpfQualifier = "+" | "-" | "~" | "?";
export type SpfMechanismName = "all" | "include" | "a" | "mx" | "ptr" | "ip4" | "ip6" | "exists";

export type SpfTerm =
  | { kind: "mechanism"; qualifier: SpfQualifier; name: SpfMechanismName; value: string | null }
  | { kind: "modifier"; name: string; value: string };

export type SpfParse = { ok: true; terms: SpfTerm[] } | { ok: false; error: string };

/** A record is an SPF record when it starts with this (§4.5): "v=spf1" then a space or the end. */
export function isSpfRecord(txt: string): boolean {
  return /^v=spf1(?: |$)/i.test(txt);
}

const MACRO = /%\{[slodiphcrtv]\d*r?[.\-+,/_=]*\}|%%|%_|%-/gi;
const TOPLABEL = /^(?=.*[a-z])[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/** RFC 7208 §7.1 macro-string: visible characters, every "%" starting a valid macro. */
function macroStringError(text: string): string | null {
  const literal = text.replace(MACRO, "");
  if (literal.includes("%")) return `a malformed macro in “${text}”`;
  if (!/^[\x21-\x7e]*$/.test(literal)) return `characters a domain cannot have in “${text}”`;
  return null;
}

/** RFC 7208 §7.1 domain-spec: a macro-string ending in a top label or a macro. */
function domainSpecError(spec: string): string | null {
  if (spec === "") return "an empty domain";
  const macroError = macroStringError(spec);
  if (macroError) return macroError;
  if (/%\{[^}]*\}$|%[%_-]$/i.test(spec)) return null;
  const labels = spec.replace(/\.$/, "").split(".");
  const last = labels[labels.length - 1] ?? "";
  if (labels.length < 2 || !TOPLABEL.test(last)) return `“${spec}” is not a domain name`;
  return null;
}

function cidrError(text: string, max: number): string | null {
  if (!/^\d{1,3}$/.test(text) || Number(text) > max || (text.length > 1 && text.startsWith("0"))) {
    return `a bad prefix length /${text}`;
  }
  return null;
}

function ip4Error(value: string): string | null {
  const [net, cidr, extra] = value.split("/");
  if (extra !== undefined || !net) return `“${value}” is not an IPv4 network`;
  const parts = net.split(".");
  const valid = parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
  if (!valid) return `“${net}” is not an IPv4 address`;
  return cidr === undefined ? null : cidrError(cidr, 32);
}

function ip6Error(value: string): string | null {
  const slash = value.indexOf("/");
  const net = slash === -1 ? value : value.slice(0, slash);
  if (!/^[0-9a-f:.]+$/i.test(net) || !net.includes(":")) return `“${net}” is not an IPv6 address`;
  return slash === -1 ? null : cidrError(value.slice(slash + 1), 128);
}

/** a and mx: [":" domain-spec] [ip4-cidr] ["//" ip6-cidr]. */
function dualCidrTargetError(value: string): string | null {
  const match = /^(.*?)(?:\/(\d+))?(?:\/\/(\d+))?$/.exec(value)!;
  const [, spec = "", v4, v6] = match;
  if (v4 !== undefined && cidrError(v4, 32)) return cidrError(v4, 32);
  if (v6 !== undefined && cidrError(v6, 128)) return cidrError(v6, 128);
  if (spec === "") return null;
  if (!spec.startsWith(":")) return `“${value}” is not valid`;
  return domainSpecError(spec.slice(1));
}

const MECHANISMS = new Set<SpfMechanismName>(["all", "include", "a", "mx", "ptr", "ip4", "ip6", "exists"]);

/** Parses a `v=spf1` record (§4.6, §12); the first error is named. */
export function parseSpf(record: string): SpfParse {
  if (!isSpfRecord(record)) return { ok: false, error: "it does not start with v=spf1" };
  const terms: SpfTerm[] = [];
  const seenModifiers = new Set<string>();
  for (const raw of record
    .slice(6)
    .split(" ")
    .filter((t) => t !== "")) {
    const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(raw);
    if (modifier) {
      const name = modifier[1]!.toLowerCase();
      const value = modifier[2]!;
      if ((name === "redirect" || name === "exp") && seenModifiers.has(name)) {
        return { ok: false, error: `${name}= appears twice` };
      }
      seenModifiers.add(name);
      if (name === "redirect" || name === "exp") {
        const error = domainSpecError(value);
        if (error) return { ok: false, error: `${name}= has ${error}` };
      } else if (macroStringError(value)) {
        return { ok: false, error: `the modifier ${name}= has ${macroStringError(value)}` };
      }
      terms.push({ kind: "modifier", name, value });
      continue;
    }
    const directive = /^([+\-~?]?)([a-z][a-z0-9_.-]*)(.*)$/i.exec(raw);
    const name = directive?.[2]?.toLowerCase() as SpfMechanismName | undefined;
    if (!directive || !name || !MECHANISMS.has(name)) {
      return { ok: false, error: `“${raw}” is not an SPF mechanism` };
    }
    const qualifier = (directive[1] || "+") as SpfQualifier;
    const rest = directive[3] ?? "";
    // The text after ":", for the mechanisms that take a target.
    const target = rest.startsWith(":") ? rest.slice(1) : null;
    let error: string | null = null;
    let value: string | null = target;
    switch (name) {
      case "all":
        if (rest !== "") error = `“${raw}” is not valid (all takes no value)`;
        break;
      case "include":
      case "exists":
        error = target === null ? `${name} needs a domain (${name}:example.com)` : domainSpecError(target);
        break;
      case "a":
      case "mx":
        error = dualCidrTargetError(rest);
        value = target === null ? null : target.replace(/\/.*$/, "");
        break;
      case "ptr":
        if (rest !== "") error = target === null ? `“${raw}” is not valid` : domainSpecError(target);
        break;
      case "ip4":
      case "ip6":
        if (target === null) error = `${name} needs an address (${name}:…)`;
        else error = (name === "ip4" ? ip4Error : ip6Error)(target);
        break;
    }
    if (error) return { ok: false, error: error.startsWith("“") ? error : `${raw}: ${error}` };
    terms.push({ kind: "mechanism", qualifier, name, value });
  }
  return { ok: true, terms };
}

/** TXT records of a name (the DNS, or a map in the tests). */
export type TxtLookup = (name: string) => Promise<DnsAnswer<string[]>>;

export interface SpfDetails {
  record: string | null;
  /** DNS-querying terms counted through includes and redirects. */
  lookups: number;
  /** The domains included or redirected to, in the order met. */
  includes: string[];
  /** The qualifier of the `all` that ends the policy (through a redirect), or null. */
  all: SpfQualifier | null;
}

const COSTS_LOOKUP = new Set<SpfMechanismName>(["include", "a", "mx", "ptr", "exists"]);

interface Walk {
  lookups: number;
  includes: string[];
  findings: Finding[];
}

/** The one SPF record at `domain`, or a finding saying why there is none to use. */
async function spfRecordOf(domain: string, lookup: TxtLookup, via: string): Promise<string | Finding> {
  const answer = await lookup(domain);
  if (answer.kind === "failed") {
    return {
      verdict: "not-checked",
      reason: `The SPF record of ${domain} (${via}) could not be read: the DNS did not answer`,
    };
  }
  const records = answer.kind === "found" ? answer.records.filter(isSpfRecord) : [];
  if (records.length === 0) {
    return {
      verdict: "problem",
      reason: `${via} points to ${domain}, which has no SPF record (a permanent error)`,
    };
  }
  if (records.length > 1) {
    return {
      verdict: "problem",
      reason: `${via} points to ${domain}, which has ${records.length} SPF records (a permanent error)`,
    };
  }
  return records[0]!;
}

/** Counts the lookups of `terms`, following include and redirect; returns the policy's final `all`. */
async function walk(
  terms: SpfTerm[],
  lookup: TxtLookup,
  state: Walk,
  path: string[],
): Promise<SpfQualifier | null> {
  const all = terms.find((t) => t.kind === "mechanism" && t.name === "all");
  for (const term of terms) {
    if (term.kind === "mechanism" && COSTS_LOOKUP.has(term.name)) state.lookups++;
    if (term.kind === "modifier" && term.name === "redirect" && !all) state.lookups++;
  }
  if (state.lookups > SPF_LOOKUP_LIMIT) return null;
  const follow = async (target: string, via: string): Promise<SpfQualifier | null | undefined> => {
    if (target.includes("%")) return undefined; // a macro depends on the sender: not followed
    const domain = normaliseHostName(target);
    if (path.includes(domain)) {
      state.findings.push({
        verdict: "problem",
        reason: `${via} loops back to ${domain} (a permanent error)`,
      });
      return undefined;
    }
    state.includes.push(domain);
    const record = await spfRecordOf(domain, lookup, via);
    if (typeof record !== "string") {
      state.findings.push(record);
      return undefined;
    }
    const parsed = parseSpf(record);
    if (!parsed.ok) {
      state.findings.push({
        verdict: "problem",
        reason: `The SPF record of ${domain} (${via}) is invalid: ${parsed.error}`,
      });
      return undefined;
    }
    return walk(parsed.terms, lookup, state, [...path, domain]);
  };
  for (const term of terms) {
    if (state.lookups > SPF_LOOKUP_LIMIT) return null;
    if (term.kind === "mechanism" && term.name === "include" && term.value)
      await follow(term.value, `include:${term.value}`);
  }
  if (all?.kind === "mechanism") return all.qualifier;
  const redirect = terms.find((t) => t.kind === "modifier" && t.name === "redirect");
  if (redirect?.kind === "modifier")
    return (await follow(redirect.value, `redirect=${redirect.value}`)) ?? null;
  return null;
}

/** The SPF check of a domain, records read through `lookup`. */
export async function evaluateSpf(domain: string, lookup: TxtLookup): Promise<CheckResult<SpfDetails>> {
  const details: SpfDetails = { record: null, lookups: 0, includes: [], all: null };
  const answer = await lookup(domain);
  if (answer.kind === "failed") {
    return {
      verdict: "not-checked",
      reason: `The TXT records of ${domain} could not be read: the DNS did not answer.`,
      details,
    };
  }
  const records = answer.kind === "found" ? answer.records.filter(isSpfRecord) : [];
  if (records.length === 0) {
    return {
      verdict: "problem",
      reason: `${domain} has no SPF record: receivers cannot tell which servers may send its mail, and Google and Yahoo reject bulk mail without one.`,
      details,
    };
  }
  if (records.length > 1) {
    return {
      verdict: "problem",
      reason: `${domain} has ${records.length} SPF records; there must be exactly one (RFC 7208), so receivers treat SPF as broken.`,
      details,
    };
  }
  const record = records[0]!;
  details.record = record;
  const parsed = parseSpf(record);
  if (!parsed.ok) {
    return { verdict: "problem", reason: `The SPF record is invalid: ${parsed.error}.`, details };
  }
  const state: Walk = { lookups: 0, includes: [], findings: [] };
  const all = await walk(parsed.terms, lookup, state, [normaliseHostName(domain)]);
  Object.assign(details, { lookups: state.lookups, includes: state.includes, all });
  const findings = [...state.findings];
  if (state.lookups > SPF_LOOKUP_LIMIT) {
    findings.push({
      verdict: "problem",
      reason: `The SPF record needs more than ${SPF_LOOKUP_LIMIT} DNS lookups (${state.lookups} counted so far); receivers stop at ${SPF_LOOKUP_LIMIT} and treat SPF as broken`,
    });
  } else if (all === "+") {
    findings.push({
      verdict: "problem",
      reason: "The SPF record ends with +all: it lets every server in the world send as this domain",
    });
  } else if (all === "?") {
    findings.push({
      verdict: "warning",
      reason: "The SPF record ends with ?all (neutral): it says nothing about servers it does not list",
    });
  } else if (all === null && state.findings.length === 0) {
    findings.push({
      verdict: "warning",
      reason: "The SPF record has no -all or ~all at the end: servers it does not list get a neutral result",
    });
  }
  if (parsed.terms.some((t) => t.kind === "mechanism" && t.name === "ptr")) {
    findings.push({
      verdict: "warning",
      reason: "The SPF record uses ptr, which RFC 7208 says not to use (slow and unreliable)",
    });
  }
  const ending = all === "-" ? "-all" : all === "~" ? "~all" : "its ending";
  return foldFindings(
    findings,
    details,
    `One valid SPF record with ${state.lookups} of ${SPF_LOOKUP_LIMIT} DNS lookups, ending with ${ending}.`,
  );
}
