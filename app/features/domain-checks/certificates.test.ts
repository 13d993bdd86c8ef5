import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createTestCa, selfSigned } from "../../../tests/support/test-pki";
import {
  type CertificateFacts,
  type CertificateRules,
  certificateMatches,
  chainReachesAnchor,
  evaluateCertificate,
  type TlsObservation,
} from "./certificates";
import { foldFindings } from "./report";

const NOW = new Date("2026-11-28T12:00:00Z");
const DAY = 86_400_000;

function facts(overrides: Partial<CertificateFacts> = {}): CertificateFacts {
  return {
    subject: "example.com",
    altNames: ["example.com", "www.example.com"],
    subjectAltName: "DNS:example.com, DNS:www.example.com",
    issuer: "Test CA",
    validFrom: new Date(NOW.getTime() - 30 * DAY).toISOString(),
    validTo: new Date(NOW.getTime() + 60 * DAY + 3_600_000).toISOString(),
    fingerprint256: "AA:BB",
    ...overrides,
  };
}

function seen(overrides: Partial<TlsObservation> = {}): TlsObservation {
  return {
    host: "example.com",
    address: "93.184.215.14",
    protocol: "TLSv1.3",
    chainTrusted: true,
    chainError: null,
    certificate: facts(),
    ...overrides,
  };
}

const RULES: CertificateRules = {
  name: "example.com",
  now: NOW,
  label: "The certificate of example.com",
  identityVerdict: "problem",
};

function judge(observation: TlsObservation, rules = RULES) {
  const { findings, details } = evaluateCertificate(observation, rules);
  return foldFindings(findings, details);
}

const validTo = (days: number) => new Date(NOW.getTime() + days * DAY + 3_600_000).toISOString();

describe("evaluateCertificate", () => {
  it("is ok for a trusted certificate for the name, with time left, on TLS 1.3", () => {
    const result = judge(seen());
    expect(result.verdict).toBe("ok");
    expect(result.reason).toBe(
      "The certificate of example.com is valid until 27 January 2027 (60 days left).",
    );
    expect(result.details).toMatchObject({
      daysLeft: 60,
      nameMatches: true,
      chainTrusted: true,
      protocol: "TLSv1.3",
    });
  });

  it("walks the expiry thresholds with the clock: warning within 14 days, problem within 7, expired", () => {
    const at = (days: number) => judge(seen({ certificate: facts({ validTo: validTo(days) }) }));
    expect(at(15).verdict).toBe("ok");
    expect(at(14)).toMatchObject({ verdict: "warning", details: { daysLeft: 14 } });
    expect(at(8).verdict).toBe("warning");
    expect(at(7).verdict).toBe("problem");
    expect(at(1).reason).toBe("The certificate of example.com expires in 1 day, on 29 November 2026.");
    const expired = judge(
      seen({ certificate: facts({ validTo: new Date(NOW.getTime() - 3_600_000).toISOString() }) }),
    );
    expect(expired).toMatchObject({ verdict: "problem", details: { daysLeft: -1 } });
    expect(expired.reason).toBe("The certificate of example.com expired on 28 November 2026.");
    const early = judge(
      seen({ certificate: facts({ validFrom: new Date(NOW.getTime() + DAY).toISOString() }) }),
    );
    expect(early.reason).toMatch(/is not valid before 29 November 2026/);
  });

  it("is a problem for an untrusted chain, a wrong name, or TLS older than 1.2", () => {
    const untrusted = judge(seen({ chainTrusted: false, chainError: "DEPTH_ZERO_SELF_SIGNED_CERT" }));
    expect(untrusted.verdict).toBe("problem");
    expect(untrusted.reason).toMatch(/is self-signed, so no browser or mail server trusts it/);
    const missingIntermediate = judge(
      seen({ chainTrusted: false, chainError: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" }),
    );
    expect(missingIntermediate.reason).toMatch(/intermediate certificate/);
    const other = judge(
      seen({
        certificate: facts({
          subject: "other.example.org",
          altNames: ["other.example.org"],
          subjectAltName: "DNS:other.example.org",
        }),
      }),
    );
    expect(other).toMatchObject({ verdict: "problem", details: { nameMatches: false } });
    expect(other.reason).toMatch(/is for other.example.org, not example.com/);
    const old = judge(seen({ protocol: "TLSv1.1" }));
    expect(old.reason).toMatch(/The connection to example.com uses TLSv1.1, older than TLS 1.2/);
    expect(judge(seen({ certificate: null })).reason).toMatch(/sent no certificate/);
  });

  it("makes an untrusted or misnamed certificate a warning where the caller says so (port 25)", () => {
    const rules = { ...RULES, identityVerdict: "warning" as const };
    expect(
      judge(seen({ chainTrusted: false, chainError: "DEPTH_ZERO_SELF_SIGNED_CERT" }), rules).verdict,
    ).toBe("warning");
  });

  it("matches names as browsers do: wildcards cover one label", () => {
    const wildcard = facts({
      subject: "*.example.com",
      altNames: ["*.example.com"],
      subjectAltName: "DNS:*.example.com",
    });
    expect(certificateMatches("www.example.com", wildcard)).toBe(true);
    expect(certificateMatches("a.b.example.com", wildcard)).toBe(false);
    expect(certificateMatches("example.com", wildcard)).toBe(false);
  });
});

describe("chainReachesAnchor (the chain without its dates)", () => {
  it("finds the anchor for a certificate the CA issued, even an expired one, and not for a self-signed one", async () => {
    const ca = await createTestCa("Anchor CA", NOW);
    const otherCa = await createTestCa("Other CA", NOW);
    const expired = await ca.issue({ names: ["example.com"], notAfter: new Date(Date.now() - DAY) });
    const own = await selfSigned({ names: ["example.com"], notAfter: new Date(Date.now() - DAY) });
    const anchors = [new X509Certificate(ca.cert)];
    expect(chainReachesAnchor([new X509Certificate(expired.cert)], anchors)).toBe(true);
    expect(chainReachesAnchor([new X509Certificate(own.cert)], anchors)).toBe(false);
    expect(chainReachesAnchor([new X509Certificate(expired.cert)], [new X509Certificate(otherCa.cert)])).toBe(
      false,
    );
  });
});
