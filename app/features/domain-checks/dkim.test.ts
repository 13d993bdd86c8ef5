import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { dkimSelectorsToTry, evaluateDkim, parseDkimKey } from "./dkim";
import type { DnsAnswer } from "./dns.server";

function rsaKey(bits: number): string {
  const { publicKey } = generateKeyPairSync("rsa", { modulusLength: bits });
  return publicKey.export({ type: "spki", format: "der" }).toString("base64");
}

const KEY_2048 = rsaKey(2048);
const KEY_1024 = rsaKey(1024);
const KEY_512 = rsaKey(512);
const ED25519 = generateKeyPairSync("ed25519")
  .publicKey.export({ type: "spki", format: "der" })
  .subarray(-32)
  .toString("base64");

const found = (record: string): DnsAnswer<string[]> => ({ kind: "found", records: [record] });
const none: DnsAnswer<string[]> = { kind: "none" };

describe("parseDkimKey (RFC 6376, RFC 8463)", () => {
  it("reads RSA and Ed25519 keys and their size", () => {
    expect(parseDkimKey(`v=DKIM1; k=rsa; p=${KEY_2048}`)).toEqual({
      status: "valid",
      keyType: "rsa",
      bits: 2048,
    });
    expect(parseDkimKey(`p=${KEY_1024}`)).toEqual({ status: "valid", keyType: "rsa", bits: 1024 });
    expect(parseDkimKey(`v=DKIM1; k=ed25519; p=${ED25519}`)).toEqual({
      status: "valid",
      keyType: "ed25519",
      bits: 256,
    });
    // Long keys come split into several strings, and a record may fold with spaces.
    expect(parseDkimKey(`v=DKIM1; p=${KEY_2048.slice(0, 100)} ${KEY_2048.slice(100)}`)).toMatchObject({
      bits: 2048,
    });
  });

  it("knows a revoked key and names what is wrong", () => {
    expect(parseDkimKey("v=DKIM1; p=")).toEqual({ status: "revoked" });
    expect(parseDkimKey("v=DKIM1; k=rsa")).toMatchObject({
      status: "invalid",
      error: "it has no public key (p=)",
    });
    expect(parseDkimKey("k=rsa; v=DKIM1; p=abc")).toMatchObject({
      status: "invalid",
      error: "v= must come first and be DKIM1",
    });
    expect(parseDkimKey("v=DKIM1; p=not*base64")).toMatchObject({ error: "the public key is not base64" });
    expect(parseDkimKey("v=DKIM1; p=QUJD")).toMatchObject({ error: "the public key cannot be read" });
    expect(parseDkimKey("v=DKIM1; k=dsa; p=QUJD")).toMatchObject({
      error: "k=dsa is not a key type DKIM knows",
    });
  });
});

describe("evaluateDkim", () => {
  it("tries the given selectors, then Microsoft 365's and Google's", () => {
    expect(dkimSelectorsToTry(["S1", "google", "bad selector!"])).toEqual([
      { selector: "s1", given: true },
      { selector: "google", given: true },
      { selector: "selector1", given: false },
      { selector: "selector2", given: false },
    ]);
  });

  it("is ok with a key found at a common selector, the absent common ones saying nothing", () => {
    const result = evaluateDkim("example.com", [
      { selector: "selector1", given: false, answer: found(`v=DKIM1; k=rsa; p=${KEY_2048}`) },
      { selector: "selector2", given: false, answer: none },
      { selector: "google", given: false, answer: none },
    ]);
    expect(result.verdict).toBe("ok");
    expect(result.reason).toBe("DKIM keys found: “selector1” (2048-bit RSA).");
    expect(result.details.selectors.map((s) => s.status)).toEqual(["valid", "missing", "missing"]);
  });

  it("is a problem when a given selector has no key, a warning for a 1024-bit key", () => {
    const result = evaluateDkim("example.com", [
      { selector: "mail2024", given: true, answer: none },
      { selector: "selector1", given: false, answer: found(`p=${KEY_1024}`) },
    ]);
    expect(result.verdict).toBe("problem");
    expect(result.reason).toMatch(/^No DKIM key at mail2024._domainkey.example.com/);
    expect(result.reason).toMatch(/1024-bit RSA; 2048 bits is the norm now/);
    expect(
      evaluateDkim("example.com", [{ selector: "s", given: true, answer: found(`p=${KEY_512}`) }]).verdict,
    ).toBe("problem");
  });

  it("says not checked when no selector tried has a key (selectors cannot be listed)", () => {
    const result = evaluateDkim("example.com", [
      { selector: "selector1", given: false, answer: none },
      { selector: "selector2", given: false, answer: none },
      { selector: "google", given: false, answer: none },
    ]);
    expect(result.verdict).toBe("not-checked");
    expect(result.reason).toMatch(/No DKIM key at the selectors tried \(selector1, selector2, google\)/);
    const failed = evaluateDkim("example.com", [
      { selector: "google", given: false, answer: { kind: "failed", code: "ETIMEOUT" } },
    ]);
    expect(failed.reason).toMatch(/could not be read/);
  });

  it("is a problem for an invalid record", () => {
    const result = evaluateDkim("example.com", [
      { selector: "google", given: false, answer: found("v=DKIM1; p=QUJD") },
    ]);
    expect(result.verdict).toBe("problem");
    expect(result.reason).toMatch(/google._domainkey.example.com is invalid: the public key cannot be read/);
  });
});
