/**
 * Domain reports written out for tests (issue 39): a healthy example.com at NOW, any check replaced.
 * The alert rules' unit tests and the pages' markup tests use them.
 */
import type { CertificateDetails } from "~/features/domain-checks/certificates";
import type { DomainChecks, DomainReport } from "~/features/domain-checks/domain-report";
import type { MailServerResult } from "~/features/domain-checks/mail-servers.server";
import type { Verdict } from "~/features/domain-checks/report";

export const NOW = new Date("2027-03-01T09:00:00Z");

export function cert(daysLeft: number, extra: Partial<CertificateDetails> = {}): CertificateDetails {
  const validTo = new Date(NOW.getTime() + (daysLeft + 0.5) * 86_400_000).toISOString();
  return {
    host: "example.com",
    address: "192.0.2.1",
    protocol: "TLSv1.3",
    issuer: "Test CA",
    altNames: ["example.com"],
    validFrom: "2027-01-01T00:00:00.000Z",
    validTo,
    daysLeft,
    chainTrusted: true,
    chainError: null,
    nameMatches: true,
    ...extra,
  };
}

export function check<D>(verdict: Verdict, details: D, reason = "A reason.") {
  return { verdict, reason, details };
}

export function mx(host: string, state: MailServerResult["state"]): MailServerResult {
  return {
    host,
    priority: 10,
    address: "192.0.2.25",
    state,
    verdict: state === "secured" ? "ok" : "problem",
    reason: "",
    certificate: null,
  };
}

export function report(overrides: Partial<DomainChecks> = {}): DomainReport {
  const checks: DomainChecks = {
    https: check("ok", { host: "example.com", address: "192.0.2.1", certificate: cert(80) }),
    httpsWww: check("ok", {
      host: "www.example.com",
      address: "192.0.2.1",
      certificate: cert(80, { host: "www.example.com" }),
    }),
    mailServers: check("ok", { nullMx: false, hosts: [mx("mx1.example.com", "secured")], skipped: [] }),
    spf: check("ok", { record: "v=spf1 -all", lookups: 0, includes: [], all: "-" }),
    dmarc: check("ok", {
      record: "v=DMARC1; p=reject",
      policy: "reject",
      subdomainPolicy: null,
      percent: 100,
      reportTo: [],
    }),
    dkim: check("ok", { selectors: [] }),
    mtaSts: check("warning", {
      id: null,
      policyUrl: "https://mta-sts.example.com/.well-known/mta-sts.txt",
      mode: null,
      maxAge: null,
      mxPatterns: [],
      uncovered: [],
    }),
    registration: check("ok", {
      source: "rdap",
      expiresOn: "2028-01-01T00:00:00Z",
      daysLeft: 306,
      registrar: "Registrar",
      rdapUrl: null,
    }),
    ...overrides,
  };
  return {
    domain: { ascii: "example.com", unicode: "example.com", suffix: "com" },
    checkedAt: NOW.toISOString(),
    verdict: "ok",
    checks,
  };
}
