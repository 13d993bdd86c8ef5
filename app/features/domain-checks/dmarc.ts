/**
 * DMARC (RFC 7489): one `v=DMARC1` record at `_dmarc.{domain}` with a valid policy (p=), and a
 * reporting address (rua=). `p=none` only watches: a warning, and one of the alerts. Pure.
 */

import type { DnsAnswer } from "./dns.server";
import { type CheckResult, type Finding, foldFindings } from "./report";
import { parseTagList } from "./tag-list";

export type DmarcPolicy = "none" | "quarantine" | "reject";

export interface DmarcRecord {
  policy: DmarcPolicy;
  subdomainPolicy: DmarcPolicy | null;
  /** Percent of failing mail the policy applies to (pct=, default 100). */
  percent: number;
  /** The aggregate report addresses (rua=), as written. */
  reportTo: string[];
  /** The failure report addresses (ruf=). */
  failureReportTo: string[];
}

export function isDmarcRecord(txt: string): boolean {
  return /^v\s*=\s*DMARC1\s*(?:;|$)/.test(txt);
}

const POLICIES = new Set<DmarcPolicy>(["none", "quarantine", "reject"]);

/** "mailto:reports@example.com!10m": a DMARC URI (§6.2) with an optional size limit. */
function dmarcUriError(uri: string): string | null {
  const match = /^([a-z][a-z0-9+.-]*):([^!\s]+)(?:!\d+[kmgt]?)?$/i.exec(uri.trim());
  if (!match) return `“${uri.trim()}” is not a reporting address`;
  if (
    match[1]!.toLowerCase() === "mailto" &&
    !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(decodeURIComponent(match[2]!))
  ) {
    return `“${uri.trim()}” is not an email address`;
  }
  return null;
}

/** Parses a DMARC record; the first error is named. */
export function parseDmarc(record: string): { ok: true; record: DmarcRecord } | { ok: false; error: string } {
  const list = parseTagList(record);
  if (!list.ok) return { ok: false, error: `“${list.part}” is not a tag=value pair` };
  const tags = new Map<string, string>();
  for (const [index, { name, value }] of list.tags.entries()) {
    if (index === 0 && (name !== "v" || value !== "DMARC1"))
      return { ok: false, error: "it must start with v=DMARC1" };
    if (tags.has(name)) return { ok: false, error: `the tag ${name}= appears twice` };
    tags.set(name, value.trim());
  }
  const p = tags.get("p")?.toLowerCase();
  if (p === undefined) return { ok: false, error: "it has no policy (p=none, quarantine or reject)" };
  if (!POLICIES.has(p as DmarcPolicy))
    return { ok: false, error: `p=${p} is not a policy (none, quarantine or reject)` };
  const sp = tags.get("sp")?.toLowerCase();
  if (sp !== undefined && !POLICIES.has(sp as DmarcPolicy))
    return { ok: false, error: `sp=${sp} is not a policy` };
  const pct = tags.get("pct");
  if (pct !== undefined && (!/^\d{1,3}$/.test(pct) || Number(pct) > 100)) {
    return { ok: false, error: `pct=${pct} is not a percentage from 0 to 100` };
  }
  for (const tag of ["adkim", "aspf"]) {
    const value = tags.get(tag)?.toLowerCase();
    if (value !== undefined && value !== "r" && value !== "s")
      return { ok: false, error: `${tag}=${value} must be r or s` };
  }
  const uris = (tag: string) =>
    (tags.get(tag) ?? "")
      .split(",")
      .map((u) => u.trim())
      .filter((u) => u !== "");
  for (const tag of ["rua", "ruf"]) {
    for (const uri of uris(tag)) {
      const error = dmarcUriError(uri);
      if (error) return { ok: false, error: `${tag}=: ${error}` };
    }
  }
  return {
    ok: true,
    record: {
      policy: p as DmarcPolicy,
      subdomainPolicy: (sp as DmarcPolicy | undefined) ?? null,
      percent: pct === undefined ? 100 : Number(pct),
      reportTo: uris("rua"),
      failureReportTo: uris("ruf"),
    },
  };
}

export interface DmarcDetails {
  record: string | null;
  policy: DmarcPolicy | null;
  subdomainPolicy: DmarcPolicy | null;
  percent: number | null;
  reportTo: string[];
}

const POLICY_WORDS: Record<DmarcPolicy, string> = {
  none: "p=none only watches: mail that fails DMARC is still delivered",
  quarantine: "p=quarantine: mail that fails DMARC goes to spam",
  reject: "p=reject: mail that fails DMARC is refused",
};

/** The DMARC check from the TXT records at `_dmarc.{domain}`. */
export function evaluateDmarc(domain: string, answer: DnsAnswer<string[]>): CheckResult<DmarcDetails> {
  const details: DmarcDetails = {
    record: null,
    policy: null,
    subdomainPolicy: null,
    percent: null,
    reportTo: [],
  };
  const at = `_dmarc.${domain}`;
  if (answer.kind === "failed") {
    return {
      verdict: "not-checked",
      reason: `The records at ${at} could not be read: the DNS did not answer.`,
      details,
    };
  }
  const records = answer.kind === "found" ? answer.records.filter(isDmarcRecord) : [];
  if (records.length === 0) {
    return {
      verdict: "problem",
      reason: `No DMARC record at ${at}: anyone can send mail as ${domain}, and Google and Yahoo reject bulk mail without DMARC.`,
      details,
    };
  }
  if (records.length > 1) {
    return {
      verdict: "problem",
      reason: `${at} has ${records.length} DMARC records; there must be one (RFC 7489), so receivers ignore them all.`,
      details,
    };
  }
  details.record = records[0]!;
  const parsed = parseDmarc(records[0]!);
  if (!parsed.ok)
    return { verdict: "problem", reason: `The DMARC record is invalid: ${parsed.error}.`, details };
  const { policy, subdomainPolicy, percent, reportTo } = parsed.record;
  Object.assign(details, { policy, subdomainPolicy, percent, reportTo });
  const findings: Finding[] = [
    { verdict: policy === "none" ? "warning" : "ok", reason: POLICY_WORDS[policy] },
  ];
  if (policy !== "none" && percent < 100) {
    findings.push({
      verdict: "warning",
      reason: `pct=${percent}: the policy applies to only ${percent}% of failing mail`,
    });
  }
  if (reportTo.length === 0) {
    findings.push({
      verdict: "warning",
      reason: "No reporting address (rua=): no one receives the DMARC reports",
    });
  }
  const reports = reportTo.length > 0 ? `, reports to ${reportTo.join(", ")}` : "";
  return foldFindings(findings, details, `${POLICY_WORDS[policy]}${reports}.`);
}
