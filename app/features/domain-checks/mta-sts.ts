/**
 * MTA-STS (RFC 8461): a `v=STSv1` TXT record with an `id` at `_mta-sts.{domain}`, and the policy at
 * `https://mta-sts.{domain}/.well-known/mta-sts.txt` (fetched through the safe connection, its
 * certificate verified, redirects not followed: §3.3). Its `mx` patterns must cover every MX host, and
 * each MX certificate must be valid for its name: in `enforce` mode a sender refuses to deliver
 * otherwise (a problem), in `testing` mode it only reports (a warning). Pure: the fetch is passed in.
 */
import type { DnsAnswer } from "./dns.server";
import { normaliseHostName } from "./names";
import { type CheckResult, type Finding, foldFindings } from "./report";

export type StsMode = "enforce" | "testing" | "none";

export interface StsPolicy {
  mode: StsMode;
  maxAge: number;
  mx: string[];
}

/** RFC 8461 §3.2: at most a year. */
export const STS_MAX_AGE = 31_557_600;

export function isStsRecord(txt: string): boolean {
  return /^v=STSv1\s*(?:;|$)/.test(txt);
}

/** The id of a `v=STSv1; id=…;` record (§3.1), or the error. */
export function parseStsRecord(record: string): { ok: true; id: string } | { ok: false; error: string } {
  const tags = new Map<string, string>();
  for (const part of record
    .split(";")
    .map((p) => p.trim())
    .filter((p) => p !== "")) {
    const match = /^([a-z0-9_]+)=(.*)$/i.exec(part);
    if (!match) return { ok: false, error: `“${part}” is not a field=value pair` };
    tags.set(match[1]!, match[2]!);
  }
  const id = tags.get("id");
  if (id === undefined) return { ok: false, error: "it has no id=" };
  if (!/^[a-zA-Z0-9]{1,32}$/.test(id))
    return { ok: false, error: `id=${id} must be 1 to 32 letters and digits` };
  return { ok: true, id };
}

/** Parses the policy file (§3.2): "key: value" lines. */
export function parseStsPolicy(text: string): { ok: true; policy: StsPolicy } | { ok: false; error: string } {
  const fields = new Map<string, string[]>();
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    const match = /^([a-zA-Z0-9_]+):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (!match) return { ok: false, error: `the line “${line.slice(0, 60)}” is not “key: value”` };
    fields.set(match[1]!, [...(fields.get(match[1]!) ?? []), match[2]!]);
  }
  const one = (key: string) => fields.get(key)?.[0];
  if (one("version") !== "STSv1") return { ok: false, error: "it has no “version: STSv1” line" };
  const mode = one("mode");
  if (mode !== "enforce" && mode !== "testing" && mode !== "none") {
    return { ok: false, error: `mode must be enforce, testing or none${mode ? ` (not “${mode}”)` : ""}` };
  }
  const maxAge = one("max_age");
  if (maxAge === undefined || !/^\d{1,10}$/.test(maxAge) || Number(maxAge) > STS_MAX_AGE) {
    return { ok: false, error: `max_age must be a number of seconds up to ${STS_MAX_AGE}` };
  }
  const mx = (fields.get("mx") ?? []).map((m) => normaliseHostName(m));
  if (mode !== "none" && mx.length === 0) return { ok: false, error: "it lists no mx host" };
  const badPattern = mx.find((m) => !/^(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)+$/.test(m));
  if (badPattern) return { ok: false, error: `“${badPattern}” is not a host name pattern` };
  return { ok: true, policy: { mode, maxAge: Number(maxAge), mx } };
}

/** §4.1: a pattern is a host name, or "*." and a name that stands for exactly one more label. */
export function mxMatchesPattern(host: string, pattern: string): boolean {
  const name = normaliseHostName(host);
  if (!pattern.startsWith("*.")) return name === pattern;
  const dot = name.indexOf(".");
  return dot > 0 && name.slice(dot + 1) === pattern.slice(2);
}

/** What was fetched from the policy URL. */
export type PolicyFetch =
  | { kind: "answer"; status: number; contentType: string | null; body: string }
  /** The connection failed or its certificate was refused; `refused` when the safety rules said no. */
  | { kind: "failed"; reason: string; refused: boolean };

/** What the MX check learnt of each host's certificate (null: not reached from here). */
/** What the MX check learnt of each host's TLS, as MTA-STS judges it (RFC 8461 §4.2). */
export interface MxCertificateState {
  host: string;
  /**
   * Null when it passes (STARTTLS with a trusted certificate for its name, in date) or when the host
   * was not reached; else what fails, in words: "offers no STARTTLS", "has a certificate for
   * other.example.org"…
   */
  failure: string | null;
}

export interface MtaStsDetails {
  id: string | null;
  policyUrl: string;
  mode: StsMode | null;
  maxAge: number | null;
  mxPatterns: string[];
  /** MX hosts no pattern covers. */
  uncovered: string[];
}

export interface MtaStsInput {
  domain: string;
  txt: DnsAnswer<string[]>;
  /** Null when the TXT record was absent or invalid (nothing fetched). */
  policy: PolicyFetch | null;
  mxHosts: string[];
  mxCertificates: MxCertificateState[];
}

export function policyUrl(domain: string): string {
  return `https://mta-sts.${domain}/.well-known/mta-sts.txt`;
}

export function evaluateMtaSts(input: MtaStsInput): CheckResult<MtaStsDetails> {
  const details: MtaStsDetails = {
    id: null,
    policyUrl: policyUrl(input.domain),
    mode: null,
    maxAge: null,
    mxPatterns: [],
    uncovered: [],
  };
  const at = `_mta-sts.${input.domain}`;
  if (input.txt.kind === "failed") {
    return {
      verdict: "not-checked",
      reason: `The records at ${at} could not be read: the DNS did not answer.`,
      details,
    };
  }
  const records = input.txt.kind === "found" ? input.txt.records.filter(isStsRecord) : [];
  if (records.length === 0) {
    return {
      verdict: "warning",
      reason: `No MTA-STS record at ${at}: senders cannot insist on encrypted, verified delivery to your mail servers.`,
      details,
    };
  }
  if (records.length > 1) {
    return {
      verdict: "problem",
      reason: `${at} has ${records.length} MTA-STS records; there must be one (RFC 8461).`,
      details,
    };
  }
  const record = parseStsRecord(records[0]!);
  if (!record.ok)
    return { verdict: "problem", reason: `The MTA-STS record is invalid: ${record.error}.`, details };
  details.id = record.id;
  const fetched = input.policy;
  if (fetched === null)
    return { verdict: "not-checked", reason: "The MTA-STS policy was not fetched.", details };
  if (fetched.kind === "failed") {
    return {
      verdict: fetched.refused ? "not-checked" : "problem",
      reason: `The MTA-STS policy could not be fetched from ${details.policyUrl}: ${fetched.reason}.`,
      details,
    };
  }
  if (fetched.status >= 300 && fetched.status < 400) {
    return {
      verdict: "problem",
      reason: `${details.policyUrl} answers with a redirect (${fetched.status}); senders do not follow it (RFC 8461), so the policy is not found.`,
      details,
    };
  }
  if (fetched.status !== 200) {
    return {
      verdict: "problem",
      reason: `${details.policyUrl} answers ${fetched.status} instead of the policy.`,
      details,
    };
  }
  const parsed = parseStsPolicy(fetched.body);
  if (!parsed.ok)
    return { verdict: "problem", reason: `The MTA-STS policy is invalid: ${parsed.error}.`, details };
  const { mode, maxAge, mx } = parsed.policy;
  const uncovered = input.mxHosts.filter((host) => !mx.some((pattern) => mxMatchesPattern(host, pattern)));
  Object.assign(details, { mode, maxAge, mxPatterns: mx, uncovered });
  const findings: Finding[] = [];
  if (mode === "none") {
    findings.push({
      verdict: "warning",
      reason: "The MTA-STS policy is in mode none: it asks nothing of senders",
    });
    return foldFindings(findings, details);
  }
  const strict = mode === "enforce" ? "problem" : "warning";
  const consequence =
    mode === "enforce"
      ? "senders enforcing the policy will not deliver to it"
      : "senders will report failures";
  for (const host of uncovered) {
    findings.push({
      verdict: strict,
      reason: `The mail server ${host} is not covered by the policy's mx lines: ${consequence}`,
    });
  }
  for (const mx of input.mxCertificates) {
    if (mx.failure !== null) {
      findings.push({ verdict: strict, reason: `The mail server ${mx.host} ${mx.failure}: ${consequence}` });
    }
  }
  const type = fetched.contentType?.split(";")[0]?.trim().toLowerCase();
  if (type !== "text/plain") {
    findings.push({
      verdict: "warning",
      reason: `The policy is served as ${type ?? "no type"} instead of text/plain`,
    });
  }
  return foldFindings(
    findings,
    details,
    `MTA-STS in ${mode} mode covers every mail server (${mx.join(", ")}), policy id ${record.id}.`,
  );
}
