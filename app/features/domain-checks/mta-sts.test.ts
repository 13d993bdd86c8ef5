import { describe, expect, it } from "vitest";
import {
  evaluateMtaSts,
  type MtaStsInput,
  mxMatchesPattern,
  parseStsPolicy,
  parseStsRecord,
} from "./mta-sts";

const POLICY =
  "version: STSv1\r\nmode: enforce\r\nmx: mx1.example.com\r\nmx: *.mail.example.net\r\nmax_age: 604800\r\n";

function input(overrides: Partial<MtaStsInput> = {}): MtaStsInput {
  return {
    domain: "example.com",
    txt: { kind: "found", records: ["v=STSv1; id=20260101T000000;"] },
    policy: { kind: "answer", status: 200, contentType: "text/plain; charset=utf-8", body: POLICY },
    mxHosts: ["mx1.example.com", "a.mail.example.net"],
    mxCertificates: [
      { host: "mx1.example.com", failure: null },
      { host: "a.mail.example.net", failure: null },
    ],
    ...overrides,
  };
}

describe("MTA-STS parsing (RFC 8461)", () => {
  it("reads the record's id and the policy's fields", () => {
    expect(parseStsRecord("v=STSv1; id=20160831085700Z;")).toEqual({ ok: true, id: "20160831085700Z" });
    expect(parseStsRecord("v=STSv1;")).toEqual({ ok: false, error: "it has no id=" });
    expect(parseStsRecord("v=STSv1; id=has-dash")).toMatchObject({ ok: false });
    expect(parseStsPolicy(POLICY)).toEqual({
      ok: true,
      policy: { mode: "enforce", maxAge: 604800, mx: ["mx1.example.com", "*.mail.example.net"] },
    });
    expect(parseStsPolicy("version: STSv1\nmode: none\nmax_age: 86400\n")).toMatchObject({ ok: true });
  });

  it.each([
    ["mode: enforce\nmx: a.example\nmax_age: 1", /version: STSv1/],
    ["version: STSv1\nmode: strict\nmx: a.example\nmax_age: 1", /mode must be enforce, testing or none/],
    ["version: STSv1\nmode: enforce\nmax_age: 1", /lists no mx host/],
    ["version: STSv1\nmode: enforce\nmx: a.example\nmax_age: 99999999", /max_age must be/],
    ["version: STSv1\nmode: enforce\nmx: a.example\nmax_age: 1\n<html>", /is not “key: value”/],
  ])("names the error in the policy %#", (text, error) => {
    const parsed = parseStsPolicy(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(error);
  });

  it("matches MX hosts as §4.1 says: a wildcard stands for one label", () => {
    expect(mxMatchesPattern("MX1.example.com.", "mx1.example.com")).toBe(true);
    expect(mxMatchesPattern("a.mail.example.net", "*.mail.example.net")).toBe(true);
    expect(mxMatchesPattern("a.b.mail.example.net", "*.mail.example.net")).toBe(false);
    expect(mxMatchesPattern("mail.example.net", "*.mail.example.net")).toBe(false);
  });
});

describe("evaluateMtaSts", () => {
  it("is ok when the policy covers every MX and their certificates are valid", () => {
    const result = evaluateMtaSts(input());
    expect(result).toMatchObject({
      verdict: "ok",
      details: { id: "20260101T000000", mode: "enforce", uncovered: [] },
    });
  });

  it("in enforce mode, an uncovered MX or a bad MX certificate is a problem", () => {
    const uncovered = evaluateMtaSts(input({ mxHosts: ["mx1.example.com", "backup.example.org"] }));
    expect(uncovered).toMatchObject({ verdict: "problem", details: { uncovered: ["backup.example.org"] } });
    expect(uncovered.reason).toMatch(/backup.example.org is not covered by the policy's mx lines/);
    const mismatch = evaluateMtaSts(
      input({
        mxCertificates: [
          { host: "mx1.example.com", failure: "has a certificate for other.example.org, not for its name" },
        ],
      }),
    );
    expect(mismatch.verdict).toBe("problem");
    expect(mismatch.reason).toBe(
      "The mail server mx1.example.com has a certificate for other.example.org, not for its name: senders enforcing the policy will not deliver to it.",
    );
  });

  it("in testing mode the same findings are warnings; an unreached MX says nothing", () => {
    const testing = POLICY.replace("mode: enforce", "mode: testing");
    const policy = { kind: "answer" as const, status: 200, contentType: "text/plain", body: testing };
    const noTls = [{ host: "mx1.example.com", failure: "offers no STARTTLS" }];
    expect(evaluateMtaSts(input({ policy, mxCertificates: noTls })).verdict).toBe("warning");
    const fine = [{ host: "mx1.example.com", failure: null }];
    expect(evaluateMtaSts(input({ policy, mxCertificates: fine })).verdict).toBe("ok");
  });

  it("refuses a redirect, a failed fetch and a bad answer", () => {
    const redirect = evaluateMtaSts(
      input({ policy: { kind: "answer", status: 301, contentType: null, body: "" } }),
    );
    expect(redirect.verdict).toBe("problem");
    expect(redirect.reason).toMatch(/redirect \(301\); senders do not follow it/);
    expect(
      evaluateMtaSts(input({ policy: { kind: "answer", status: 404, contentType: null, body: "" } })).reason,
    ).toMatch(/answers 404/);
    expect(
      evaluateMtaSts(
        input({ policy: { kind: "failed", reason: "the connection was refused", refused: false } }),
      ).verdict,
    ).toBe("problem");
    expect(
      evaluateMtaSts(input({ policy: { kind: "failed", reason: "resolves to 10.0.0.1", refused: true } }))
        .verdict,
    ).toBe("not-checked");
    const html = evaluateMtaSts(
      input({ policy: { kind: "answer", status: 200, contentType: "text/html", body: POLICY } }),
    );
    expect(html).toMatchObject({ verdict: "warning" });
  });

  it("warns without a record, and is a problem with two or a bad one", () => {
    expect(evaluateMtaSts(input({ txt: { kind: "none" }, policy: null })).verdict).toBe("warning");
    expect(
      evaluateMtaSts(input({ txt: { kind: "found", records: ["v=STSv1; id=1", "v=STSv1; id=2"] } })).verdict,
    ).toBe("problem");
    expect(
      evaluateMtaSts(input({ txt: { kind: "found", records: ["v=STSv1;"] }, policy: null })).reason,
    ).toMatch(/no id=/);
    expect(evaluateMtaSts(input({ txt: { kind: "failed", code: "ETIMEOUT" } })).verdict).toBe("not-checked");
  });
});
