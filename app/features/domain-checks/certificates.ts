/**
 * The certificate rules (issue 39, item 2), the same for a website and a mail server: the dates against
 * the injected clock, the chain against Node's store (or the CA list given), the name with
 * `tls.checkServerIdentity`, and TLS 1.2 or newer. The network code (`https.server.ts`,
 * `mail-servers.server.ts`) only observes a handshake into a `TlsObservation`; everything here is pure.
 */
import { X509Certificate } from "node:crypto";
import tls, { type PeerCertificate } from "node:tls";
import { daysPhrase, daysUntil, type Finding, formatDay, type Verdict } from "./report";

/** Days left at or under which an expiring certificate is a problem, and a warning. */
export const CERTIFICATE_PROBLEM_DAYS = 7;
export const CERTIFICATE_WARNING_DAYS = 14;

export interface CertificateFacts {
  /** The subject's common name (may be empty). */
  subject: string;
  /** The DNS names of the subjectAltName extension. */
  altNames: string[];
  /** The extension as Node writes it ("DNS:example.com, DNS:www.example.com"), for checkServerIdentity. */
  subjectAltName: string;
  /** Who issued it: the issuer's organisation, else its common name. */
  issuer: string;
  validFrom: string;
  validTo: string;
  fingerprint256: string;
}

export interface TlsObservation {
  /** The name connected to (SNI) and checked against the certificate. */
  host: string;
  address: string;
  /** "TLSv1.3", "TLSv1.2"… */
  protocol: string | null;
  /** The chain leads to a trusted root (the dates are judged apart, with the injected clock). */
  chainTrusted: boolean;
  /** OpenSSL's code when the chain is not trusted ("DEPTH_ZERO_SELF_SIGNED_CERT"…). */
  chainError: string | null;
  certificate: CertificateFacts | null;
}

export interface CertificateDetails {
  host: string;
  address: string;
  protocol: string | null;
  issuer: string | null;
  altNames: string[];
  validFrom: string | null;
  validTo: string | null;
  /** Whole days left (negative once expired); null without a certificate. */
  daysLeft: number | null;
  chainTrusted: boolean;
  chainError: string | null;
  nameMatches: boolean;
}

const DATE_ERRORS = new Set(["CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID"]);

/** Reads what the handshake gave. `anchors` are the trust anchors (Node's store when none are given). */
export function observation(
  socket: tls.TLSSocket,
  host: string,
  address: string,
  anchors?: string[],
): TlsObservation {
  const peer = socket.getPeerCertificate(true);
  const present = peer && Object.keys(peer).length > 0 && peer.raw !== undefined;
  // Node gives the OpenSSL code as a string here, though its type says Error.
  const raw = socket.authorizationError as unknown;
  const errorCode =
    raw === null || raw === undefined
      ? null
      : typeof raw === "string"
        ? raw
        : String((raw as NodeJS.ErrnoException).code ?? (raw as Error).message);
  let chainTrusted = socket.authorized;
  // OpenSSL reports the last error it met: a date error can hide an untrusted issuer, so the chain is
  // walked again without the dates.
  if (!chainTrusted && present && errorCode !== null && DATE_ERRORS.has(errorCode)) {
    chainTrusted = chainReachesAnchor(peerChain(peer), trustAnchors(anchors));
  }
  return {
    host,
    address,
    protocol: socket.getProtocol() ?? null,
    chainTrusted,
    chainError: chainTrusted ? null : errorCode,
    certificate: present ? certificateFacts(peer) : null,
  };
}

export function certificateFacts(peer: PeerCertificate): CertificateFacts {
  const san = peer.subjectaltname ?? "";
  const issuer = peer.issuer ?? {};
  return {
    subject: String(peer.subject?.CN ?? ""),
    altNames: san
      .split(/,\s*/)
      .filter((entry) => entry.startsWith("DNS:"))
      .map((entry) => entry.slice(4)),
    subjectAltName: san,
    issuer: String(issuer.O ?? issuer.CN ?? ""),
    validFrom: new Date(peer.valid_from).toISOString(),
    validTo: new Date(peer.valid_to).toISOString(),
    fingerprint256: peer.fingerprint256,
  };
}

function peerChain(peer: tls.DetailedPeerCertificate): X509Certificate[] {
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  let current: tls.DetailedPeerCertificate | undefined = peer;
  while (current?.raw && !seen.has(current.fingerprint256) && chain.length < 10) {
    seen.add(current.fingerprint256);
    chain.push(new X509Certificate(current.raw));
    current = current.issuerCertificate;
  }
  return chain;
}

let nodeStore: X509Certificate[] | null = null;

function trustAnchors(anchors?: string[]): X509Certificate[] {
  if (anchors) return anchors.map((pem) => new X509Certificate(pem));
  nodeStore ??= tls.rootCertificates.map((pem) => new X509Certificate(pem));
  return nodeStore;
}

/** Whether each certificate is signed by the next (from the ones sent) up to one signed by an anchor. */
export function chainReachesAnchor(chain: X509Certificate[], anchors: X509Certificate[]): boolean {
  let current = chain[0];
  const signedBy = (cert: X509Certificate, issuer: X509Certificate) =>
    cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
  for (let depth = 0; current && depth < 10; depth++) {
    const leaf = current;
    if (anchors.some((a) => a.fingerprint256 === leaf.fingerprint256 || signedBy(leaf, a))) return true;
    current = chain.find((c) => c.fingerprint256 !== leaf.fingerprint256 && signedBy(leaf, c));
  }
  return false;
}

/** Whether the certificate is for `name` (wildcards as browsers match them). */
export function certificateMatches(name: string, facts: CertificateFacts): boolean {
  const cert = {
    subject: { CN: facts.subject },
    subjectaltname: facts.subjectAltName,
  } as unknown as PeerCertificate;
  return tls.checkServerIdentity(name, cert) === undefined;
}

const TRUST_WORDS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: "is self-signed, so no browser or mail server trusts it",
  SELF_SIGNED_CERT_IN_CHAIN: "leads to a root certificate no one trusts (self-signed)",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    "is not issued by a trusted authority, or the server does not send its intermediate certificate",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    "cannot be verified: the server does not send its intermediate certificate, or the issuer is not trusted",
  CERT_REVOKED: "has been revoked",
};

export interface CertificateRules {
  /** The name the certificate must cover. */
  name: string;
  now: Date;
  /** "The certificate of example.com", "The certificate of mx.example.com". */
  label: string;
  /** The verdict for an untrusted chain or a wrong name: a problem for a website; a warning on port 25. */
  identityVerdict: Verdict;
}

/** The findings on one observed certificate, and the facts for the report. */
export function evaluateCertificate(
  seen: TlsObservation,
  rules: CertificateRules,
): { findings: Finding[]; details: CertificateDetails } {
  const facts = seen.certificate;
  const base: CertificateDetails = {
    host: seen.host,
    address: seen.address,
    protocol: seen.protocol,
    issuer: facts?.issuer ?? null,
    altNames: facts?.altNames ?? [],
    validFrom: facts?.validFrom ?? null,
    validTo: facts?.validTo ?? null,
    daysLeft: null,
    chainTrusted: seen.chainTrusted,
    chainError: seen.chainError,
    nameMatches: false,
  };
  if (!facts) {
    return {
      findings: [{ verdict: "problem", reason: `${rules.label}: the server sent no certificate` }],
      details: base,
    };
  }
  const findings: Finding[] = [];
  const validTo = new Date(facts.validTo);
  const validFrom = new Date(facts.validFrom);
  const daysLeft = daysUntil(validTo, rules.now);
  const nameMatches = certificateMatches(rules.name, facts);
  const details = { ...base, daysLeft, nameMatches };

  if (validTo.getTime() <= rules.now.getTime()) {
    findings.push({ verdict: "problem", reason: `${rules.label} expired on ${formatDay(validTo)}` });
  } else if (validFrom.getTime() > rules.now.getTime()) {
    findings.push({
      verdict: "problem",
      reason: `${rules.label} is not valid before ${formatDay(validFrom)}`,
    });
  } else {
    const when = `${rules.label} expires ${daysPhrase(daysLeft)}, on ${formatDay(validTo)}`;
    if (daysLeft <= CERTIFICATE_PROBLEM_DAYS) findings.push({ verdict: "problem", reason: when });
    else if (daysLeft <= CERTIFICATE_WARNING_DAYS) findings.push({ verdict: "warning", reason: when });
    else
      findings.push({
        verdict: "ok",
        reason: `${rules.label} is valid until ${formatDay(validTo)} (${daysLeft} days left)`,
      });
  }
  if (!seen.chainTrusted) {
    const words =
      (seen.chainError && TRUST_WORDS[seen.chainError]) ??
      `is not trusted (${seen.chainError ?? "unknown reason"})`;
    findings.push({ verdict: rules.identityVerdict, reason: `${rules.label} ${words}` });
  }
  if (!nameMatches) {
    const names = facts.altNames.length > 0 ? facts.altNames.join(", ") : facts.subject || "no name";
    findings.push({
      verdict: rules.identityVerdict,
      reason: `${rules.label} is for ${names}, not ${rules.name}`,
    });
  }
  if (seen.protocol !== "TLSv1.2" && seen.protocol !== "TLSv1.3") {
    findings.push({
      verdict: "problem",
      reason: `${rules.label.replace(/^The certificate of/, "The connection to")} uses ${seen.protocol ?? "an unknown protocol"}, older than TLS 1.2`,
    });
  }
  return { findings, details };
}
