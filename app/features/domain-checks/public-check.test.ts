import { describe, expect, it } from "vitest";
import { report as baseReport, cert, check, NOW } from "../../../tests/support/domain-reports";
import type { DomainReport } from "./domain-report";
import { checkGate, publicCheckForm, publicFindings, verdictSentence } from "./public-check.server";

const DAY = 86_400_000;

/** A certificate expiring in 10 days, DMARC missing, mail not checked, the registration in 20 days. */
function report(): DomainReport {
  return {
    ...baseReport({
      https: check("warning", { host: "example.com", address: "192.0.2.1", certificate: cert(10) }),
      mailServers: check("not-checked", { nullMx: false, hosts: [], skipped: [] }),
      dmarc: check("problem", {
        record: null,
        policy: null,
        subdomainPolicy: null,
        percent: null,
        reportTo: [],
      }),
      registration: check("warning", {
        source: "rdap",
        expiresOn: new Date(NOW.getTime() + 20.5 * DAY).toISOString(),
        daysLeft: 20,
        registrar: "Registrar",
        rdapUrl: null,
      }),
    }),
    verdict: "problem",
  };
}

describe("the free check's findings", () => {
  it("lists the problems first, each with the fix a visitor can buy or ask a quote for", () => {
    expect(publicFindings(report(), NOW)).toEqual([
      expect.objectContaining({
        severity: "problem",
        title: "example.com has no DMARC record",
        fixLabel: "Fix email authentication",
        fixHref: "/client/purchase/email-deliverability",
      }),
      expect.objectContaining({
        severity: "warning",
        title: "Certificate of example.com expires in 10 days",
        fixLabel: "Renew and install the certificate",
        fixHref: "/client/purchase/ssl-setup",
      }),
      expect.objectContaining({
        severity: "warning",
        title: "example.com expires in 20 days",
        fixLabel: "Ask us to fix it (quote request)",
        fixHref: "/#quote",
      }),
    ]);
  });

  it("says the worst verdict in a sentence", () => {
    expect(verdictSentence("example.com", "ok")).toBe("Everything we checked on example.com is in order.");
    expect(verdictSentence("example.com", "problem")).toMatch(/^example\.com has problems/);
    expect(verdictSentence("example.com", "warning")).toMatch(/^example\.com works, but/);
    expect(verdictSentence("example.com", "not-checked")).toMatch(/could not be made from here/);
  });
});

describe("the free check's form", () => {
  it("takes a registrable name and refuses the rest with parseDomainName's sentence", () => {
    expect(publicCheckForm.safeParse({ domain: " Bücher.DE " }).data?.domain).toEqual({
      ascii: "xn--bcher-kva.de",
      unicode: "bücher.de",
      suffix: "de",
    });
    const refused = (domain: unknown) => publicCheckForm.safeParse({ domain }).error?.issues[0]?.message;
    expect(refused("127.0.0.1.nip.io")).toBe("Enter the registered domain, nip.io, not 127.0.0.1.nip.io.");
    expect(refused("169.254.169.254")).toMatch(/An IP address is not a domain name/);
    expect(refused(`${"a".repeat(60)}.`.repeat(6))).toMatch(/at most 253 characters/);
    expect(refused("x".repeat(5000))).toBe("A domain name has at most 253 characters.");
    expect(refused(undefined)).toBe("Enter a domain name, such as example.com.");
    expect(refused(["example.com"])).toBe("Enter a domain name, such as example.com.");
  });
});

describe("checkGate", () => {
  it("lets a few checks run at once and the next one in when one leaves", () => {
    const gate = checkGate(2);
    expect([gate.enter(), gate.enter(), gate.enter()]).toEqual([true, true, false]);
    gate.leave();
    expect(gate.enter()).toBe(true);
    expect(gate.running).toBe(2);
  });
});
