/**
 * DKIM (RFC 6376, RFC 8463): the public keys at `{selector}._domainkey.{domain}` for the selectors the
 * client gave and the common ones (Microsoft 365: selector1, selector2; Google Workspace: google). A
 * selector cannot be listed from the DNS, so a common one that is absent says nothing; a given one that
 * is absent is a problem. Pure: the answers are passed in.
 */

import { createPublicKey } from "node:crypto";
import type { DnsAnswer } from "./dns.server";
import { type CheckResult, type Finding, foldFindings } from "./report";
import { parseTagList } from "./tag-list";

export const COMMON_DKIM_SELECTORS = ["selector1", "selector2", "google"] as const;

/** A selector is one or more DNS labels (RFC 6376 §3.1). */
export const DKIM_SELECTOR =
  /^[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?)*$/i;

export type DkimKey =
  | { status: "valid"; keyType: "rsa" | "ed25519"; bits: number }
  | { status: "revoked" }
  | { status: "invalid"; error: string };

/** Parses a DKIM key record (§3.6.1) and the key in it. */
export function parseDkimKey(record: string): DkimKey {
  const list = parseTagList(record);
  if (!list.ok) return { status: "invalid", error: `“${list.part.slice(0, 40)}” is not a tag=value pair` };
  const tags = new Map<string, string>();
  for (const [index, { name, value }] of list.tags.entries()) {
    if (name === "v" && (index !== 0 || value.trim() !== "DKIM1")) {
      return { status: "invalid", error: "v= must come first and be DKIM1" };
    }
    tags.set(name, value.replace(/\s+/g, ""));
  }
  const p = tags.get("p");
  if (p === undefined) return { status: "invalid", error: "it has no public key (p=)" };
  if (p === "") return { status: "revoked" };
  const keyType = (tags.get("k") ?? "rsa").toLowerCase();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(p)) return { status: "invalid", error: "the public key is not base64" };
  const der = Buffer.from(p, "base64");
  if (keyType === "ed25519") {
    return der.length === 32
      ? { status: "valid", keyType: "ed25519", bits: 256 }
      : { status: "invalid", error: "an Ed25519 key has 32 bytes" };
  }
  if (keyType !== "rsa") return { status: "invalid", error: `k=${keyType} is not a key type DKIM knows` };
  try {
    const key = createPublicKey({ key: der, format: "der", type: "spki" });
    const bits = key.asymmetricKeyDetails?.modulusLength;
    if (key.asymmetricKeyType !== "rsa" || !bits)
      return { status: "invalid", error: "p= is not an RSA public key" };
    return { status: "valid", keyType: "rsa", bits };
  } catch {
    return { status: "invalid", error: "the public key cannot be read" };
  }
}

export interface DkimSelectorResult {
  selector: string;
  /** Given by the client (true) or one of the common ones tried (false). */
  given: boolean;
  status: "valid" | "revoked" | "invalid" | "missing" | "not-read";
  keyType: "rsa" | "ed25519" | null;
  bits: number | null;
  error: string | null;
}

export interface DkimDetails {
  selectors: DkimSelectorResult[];
}

/** The selectors to try: the given ones (lower case, de-duplicated), then the common ones not given. */
export function dkimSelectorsToTry(given: readonly string[]): { selector: string; given: boolean }[] {
  const own = [...new Set(given.map((s) => s.trim().toLowerCase()).filter((s) => DKIM_SELECTOR.test(s)))];
  const common = COMMON_DKIM_SELECTORS.filter((s) => !own.includes(s));
  return [
    ...own.map((selector) => ({ selector, given: true })),
    ...common.map((selector) => ({ selector, given: false })),
  ];
}

/** The DKIM check from each selector's TXT answer. */
export function evaluateDkim(
  domain: string,
  answers: { selector: string; given: boolean; answer: DnsAnswer<string[]> }[],
): CheckResult<DkimDetails> {
  const results: DkimSelectorResult[] = answers.map(({ selector, given, answer }) => {
    const base = { selector, given, keyType: null, bits: null, error: null };
    if (answer.kind === "failed") return { ...base, status: "not-read" };
    const records =
      answer.kind === "found"
        ? answer.records.filter((r) => /\bp\s*=/i.test(r) || /^v\s*=\s*DKIM1/i.test(r))
        : [];
    if (records.length === 0) return { ...base, status: "missing" };
    if (records.length > 1) return { ...base, status: "invalid", error: "two key records at one selector" };
    const key = parseDkimKey(records[0]!);
    if (key.status === "valid") return { ...base, status: "valid", keyType: key.keyType, bits: key.bits };
    if (key.status === "revoked") return { ...base, status: "revoked" };
    return { ...base, status: "invalid", error: key.error };
  });
  const details = { selectors: results };
  const findings: Finding[] = [];
  for (const r of results) {
    const where = `${r.selector}._domainkey.${domain}`;
    if (r.status === "valid") {
      const weak = r.keyType === "rsa" && r.bits !== null && r.bits < 2048;
      const kind = r.keyType === "rsa" ? `${r.bits}-bit RSA` : "Ed25519";
      if (weak && r.bits! < 1024) {
        findings.push({
          verdict: "problem",
          reason: `The DKIM key at ${where} is ${kind}, too short to be trusted`,
        });
      } else if (weak) {
        findings.push({
          verdict: "warning",
          reason: `The DKIM key at ${where} is ${kind}; 2048 bits is the norm now`,
        });
      } else findings.push({ verdict: "ok", reason: `DKIM key “${r.selector}” (${kind})` });
    } else if (r.status === "invalid") {
      findings.push({ verdict: "problem", reason: `The DKIM record at ${where} is invalid: ${r.error}` });
    } else if (r.status === "revoked") {
      findings.push({
        verdict: r.given ? "warning" : "ok",
        reason: `The DKIM key at ${where} is revoked (empty p=)`,
      });
    } else if (r.given && r.status === "missing") {
      findings.push({
        verdict: "problem",
        reason: `No DKIM key at ${where}: mail signed with “${r.selector}” fails DKIM`,
      });
    } else if (r.given) {
      findings.push({
        verdict: "not-checked",
        reason: `The DKIM key at ${where} could not be read: the DNS did not answer`,
      });
    }
  }
  const valid = results.filter((r) => r.status === "valid");
  if (findings.length === 0 || (valid.length === 0 && findings.every((f) => f.verdict === "ok"))) {
    const tried = results.map((r) => r.selector).join(", ");
    const failed = results.some((r) => r.status === "not-read");
    return {
      verdict: "not-checked",
      reason: failed
        ? `The DKIM keys could not be read: the DNS did not answer for ${tried}.`
        : `No DKIM key at the selectors tried (${tried}); a selector cannot be looked up otherwise, so add the one your mail provider uses to check it.`,
      details,
    };
  }
  const names = valid
    .map((r) => `“${r.selector}” (${r.keyType === "rsa" ? `${r.bits}-bit RSA` : "Ed25519"})`)
    .join(", ");
  return foldFindings(findings, details, `DKIM keys found: ${names}.`);
}
