import { describe, expect, it } from "vitest";
import { domainNameSchema, parseDomainName } from "./names";

function accepted(input: string) {
  const result = parseDomainName(input);
  if (!result.ok) throw new Error(`refused ${input}: ${result.error}`);
  return result.name;
}

function refused(input: string) {
  const result = parseDomainName(input);
  if (result.ok) throw new Error(`accepted ${input}`);
  return result;
}

describe("parseDomainName (issue 39, item 1)", () => {
  it("accepts registrable names and keeps them in lower-case ASCII with a display form", () => {
    expect(accepted("Example.COM")).toEqual({ ascii: "example.com", unicode: "example.com", suffix: "com" });
    expect(accepted("  example.co.uk. ")).toEqual({
      ascii: "example.co.uk",
      unicode: "example.co.uk",
      suffix: "co.uk",
    });
    expect(accepted("my-shop2.io").ascii).toBe("my-shop2.io");
  });

  it("takes an internationalised name in Unicode or in punycode, to the same name", () => {
    const unicode = accepted("Bücher.de");
    const puny = accepted("xn--bcher-kva.de");
    expect(unicode).toEqual({ ascii: "xn--bcher-kva.de", unicode: "bücher.de", suffix: "de" });
    expect(puny).toEqual(unicode);
    expect(accepted("пример.рф")).toMatchObject({ ascii: "xn--e1afmkfd.xn--p1ai", unicode: "пример.рф" });
  });

  it.each([
    ["127.0.0.1", /IP address/],
    ["169.254.169.254", /IP address/],
    ["[::1]", /IP address/],
    ["::1", /IP address/],
    ["127.1", /IP address/],
    ["0x7f.1", /IP address/],
    ["2130706433", /IP address/],
  ])("refuses the IP literal %s", (input, message) => {
    expect(refused(input).error).toMatch(message);
  });

  it("refuses single labels, special-use and unknown endings", () => {
    expect(refused("localhost").error).toMatch(/full domain name with its ending/);
    expect(refused("intranet").error).toMatch(/full domain name/);
    expect(refused("printer.local").error).toMatch(/“\.local” is not a public domain ending/);
    expect(refused("site.test").error).toMatch(/not a public domain ending/);
    expect(refused("x.onion").error).toMatch(/not a public domain ending/);
    expect(refused("1.0.0.127.in-addr.arpa").error).toMatch(/not a public domain ending/);
    expect(refused("example.notarealtld").error).toMatch(/not a public domain ending/);
  });

  it("asks for the registered domain instead of a subdomain or a bare suffix", () => {
    expect(refused("shop.example.com")).toEqual({
      ok: false,
      error: "Enter the registered domain, example.com, not shop.example.com.",
      suggestion: "example.com",
    });
    // A wildcard DNS service's name is a subdomain like any other: its registered domain is offered.
    expect(refused("127.0.0.1.nip.io")).toMatchObject({ suggestion: "nip.io" });
    expect(refused("co.uk").error).toMatch(/is a domain ending, not a domain/);
    expect(refused("com").error).toMatch(/full domain name/);
  });

  it("enforces the lengths: 63 per label, 253 in all", () => {
    expect(accepted(`${"a".repeat(63)}.com`).ascii).toHaveLength(67);
    expect(refused(`${"a".repeat(64)}.com`).error).toMatch(/at most 63 characters/);
    const long = `${Array.from({ length: 5 }, () => "a".repeat(60)).join(".")}.com`;
    expect(long.length).toBeGreaterThan(253);
    expect(refused(long).error).toMatch(/at most 253 characters/);
    expect(refused("a".repeat(300)).error).toMatch(/at most 253|full domain name/);
    expect(refused("x".repeat(5000)).error).toMatch(/at most 253 characters/);
  });

  it.each([
    ["https://example.com", /without https/],
    ["example.com/path", /without https/],
    ["example.com:443", /without https/],
    ["user@example.com", /without https/],
    ["exa mple.com", /without https/],
    ["a..example.com", /two dots/],
    ["-shop.com", /hyphen/],
    ["shop-.com", /hyphen/],
    ["under_score.com", /letters, digits and hyphens/],
    ["*.example.com", /letters, digits and hyphens/],
    ["xn--zz.com", /not a valid/],
    ["", /Enter a domain name/],
  ])("refuses %s with a clear message", (input, message) => {
    expect(refused(input).error).toMatch(message);
  });

  it("is a zod field for the forms", () => {
    expect(domainNameSchema.parse("EXAMPLE.org")).toMatchObject({ ascii: "example.org" });
    const bad = domainNameSchema.safeParse("10.0.0.1");
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/IP address/);
  });
});
