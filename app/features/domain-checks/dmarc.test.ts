import { describe, expect, it } from "vitest";
import { evaluateDmarc, parseDmarc } from "./dmarc";

const found = (...records: string[]) => ({ kind: "found" as const, records });

describe("parseDmarc (RFC 7489)", () => {
  it("reads the policy, subdomain policy, percentage and report addresses", () => {
    expect(
      parseDmarc(
        "v=DMARC1; p=quarantine; sp=reject; pct=50; rua=mailto:d@example.com,mailto:x@rep.example!10m; adkim=s",
      ),
    ).toEqual({
      ok: true,
      record: {
        policy: "quarantine",
        subdomainPolicy: "reject",
        percent: 50,
        reportTo: ["mailto:d@example.com", "mailto:x@rep.example!10m"],
        failureReportTo: [],
      },
    });
  });

  it.each([
    ["v=DMARC1; rua=mailto:d@example.com", /no policy/],
    ["v=DMARC1; p=block", /p=block is not a policy/],
    ["p=reject; v=DMARC1", /must start with v=DMARC1/],
    ["v=DMARC1; p=reject; pct=150", /pct=150/],
    ["v=DMARC1; p=reject; rua=d@example.com", /not a reporting address/],
    ["v=DMARC1; p=reject; rua=mailto:nobody", /not an email address/],
    ["v=DMARC1; p=reject; p=none", /appears twice/],
    ["v=DMARC1; p=reject; aspf=x", /aspf=x must be r or s/],
  ])("names the error in %s", (record, error) => {
    const parsed = parseDmarc(record);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(error);
  });
});

describe("evaluateDmarc", () => {
  it("is ok at p=reject or quarantine with a reporting address", () => {
    const result = evaluateDmarc("example.com", found("v=DMARC1; p=reject; rua=mailto:dmarc@example.com"));
    expect(result).toMatchObject({
      verdict: "ok",
      details: { policy: "reject", percent: 100, reportTo: ["mailto:dmarc@example.com"] },
    });
    expect(result.reason).toBe(
      "p=reject: mail that fails DMARC is refused, reports to mailto:dmarc@example.com.",
    );
  });

  it("warns at p=none, without rua, and with pct under 100", () => {
    expect(evaluateDmarc("example.com", found("v=DMARC1; p=none; rua=mailto:d@example.com"))).toMatchObject({
      verdict: "warning",
      details: { policy: "none" },
    });
    const noReports = evaluateDmarc("example.com", found("v=DMARC1; p=reject"));
    expect(noReports.verdict).toBe("warning");
    expect(noReports.reason).toMatch(/No reporting address \(rua=\)/);
    expect(
      evaluateDmarc("example.com", found("v=DMARC1; p=quarantine; pct=20; rua=mailto:d@example.com")).reason,
    ).toMatch(/only 20% of failing mail/);
  });

  it("is a problem when missing, doubled or invalid; not checked when the DNS fails", () => {
    const missing = evaluateDmarc("example.com", { kind: "none" });
    expect(missing.verdict).toBe("problem");
    expect(missing.reason).toMatch(/^No DMARC record at _dmarc.example.com/);
    expect(evaluateDmarc("example.com", found("v=spf1 -all")).verdict).toBe("problem");
    expect(evaluateDmarc("example.com", found("v=DMARC1; p=none", "v=DMARC1; p=reject")).reason).toMatch(
      /2 DMARC records/,
    );
    expect(evaluateDmarc("example.com", found("v=DMARC1; p=maybe")).reason).toMatch(
      /^The DMARC record is invalid/,
    );
    expect(evaluateDmarc("example.com", { kind: "failed", code: "ETIMEOUT" }).verdict).toBe("not-checked");
  });
});
