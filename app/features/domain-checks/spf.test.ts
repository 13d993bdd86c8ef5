import { describe, expect, it } from "vitest";
import type { DnsAnswer } from "./dns.server";
import { evaluateSpf, parseSpf, type TxtLookup } from "./spf";

/** TXT records by name; a name missing is "none", a name mapped to null "failed". */
function zone(records: Record<string, string[] | null>): TxtLookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (name: string): Promise<DnsAnswer<string[]>> => {
    asked.push(name);
    const found = records[name];
    if (found === null) return { kind: "failed", code: "ETIMEOUT" };
    return found === undefined || found.length === 0 ? { kind: "none" } : { kind: "found", records: found };
  };
  return Object.assign(lookup, { asked });
}

describe("parseSpf (RFC 7208)", () => {
  it("reads mechanisms, qualifiers and modifiers", () => {
    const parsed = parseSpf(
      "v=spf1 ip4:192.0.2.0/24 ip6:2001:db8::/32 a mx:mail.example.com/24//64 include:_spf.google.com ~all exp=explain.%{d}",
    );
    expect(parsed).toEqual({
      ok: true,
      terms: [
        { kind: "mechanism", qualifier: "+", name: "ip4", value: "192.0.2.0/24" },
        { kind: "mechanism", qualifier: "+", name: "ip6", value: "2001:db8::/32" },
        { kind: "mechanism", qualifier: "+", name: "a", value: null },
        { kind: "mechanism", qualifier: "+", name: "mx", value: "mail.example.com" },
        { kind: "mechanism", qualifier: "+", name: "include", value: "_spf.google.com" },
        { kind: "mechanism", qualifier: "~", name: "all", value: null },
        { kind: "modifier", name: "exp", value: "explain.%{d}" },
      ],
    });
    expect(parseSpf("V=SPF1 -ALL").ok).toBe(true);
    expect(parseSpf("v=spf1").ok).toBe(true);
    expect(parseSpf("v=spf1 exists:%{ir}.%{l1r+-}._spf.%{d} -all").ok).toBe(true);
  });

  it.each([
    ["v=spf1 ipv4:192.0.2.1 -all", /“ipv4:192.0.2.1” is not an SPF mechanism/],
    ["v=spf1 ip4:192.0.2.300 -all", /not an IPv4 address/],
    ["v=spf1 ip4:192.0.2.0/33", /bad prefix length/],
    ["v=spf1 include -all", /include needs a domain/],
    ["v=spf1 include:example -all", /not a domain name/],
    ["v=spf1 include:%{z}.example.com", /malformed macro/],
    ["v=spf1 all:foo", /all takes no value/],
    ["v=spf1 redirect=a.example redirect=b.example", /redirect= appears twice/],
    ["v=spf1 a:example.com/99", /bad prefix length/],
    ["v=spf10 -all", /does not start with v=spf1/],
  ])("names the error in %s", (record, error) => {
    const parsed = parseSpf(record);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(error);
  });
});

describe("evaluateSpf", () => {
  it("passes one valid record ending in -all and counts its lookups through includes", async () => {
    const dns = zone({
      "example.com": ["google-site-verification=abc", "v=spf1 include:_spf.provider.example mx -all"],
      "_spf.provider.example": ["v=spf1 include:_spf2.provider.example ip4:198.51.100.0/24 ~all"],
      "_spf2.provider.example": ["v=spf1 a:out.provider.example ~all"],
    });
    const result = await evaluateSpf("example.com", dns);
    expect(result.verdict).toBe("ok");
    expect(result.details).toMatchObject({
      lookups: 4,
      includes: ["_spf.provider.example", "_spf2.provider.example"],
      all: "-",
    });
    expect(result.reason).toBe("One valid SPF record with 4 of 10 DNS lookups, ending with -all.");
  });

  it("is a problem without a record, with two records, or with a syntax error", async () => {
    expect((await evaluateSpf("example.com", zone({}))).verdict).toBe("problem");
    const two = await evaluateSpf("example.com", zone({ "example.com": ["v=spf1 -all", "v=spf1 mx -all"] }));
    expect(two).toMatchObject({ verdict: "problem" });
    expect(two.reason).toMatch(/2 SPF records; there must be exactly one/);
    const bad = await evaluateSpf("example.com", zone({ "example.com": ["v=spf1 ip4:1.2.3 -all"] }));
    expect(bad.reason).toMatch(/^The SPF record is invalid: “1.2.3” is not an IPv4 address/);
  });

  it("is a problem past 10 lookups, counted recursively, and stops asking once over", async () => {
    const records: Record<string, string[]> = {
      "example.com": ["v=spf1 include:a.example include:b.example -all"],
      "a.example": ["v=spf1 a mx ptr exists:x.example include:c.example ~all"],
      "b.example": ["v=spf1 a mx a:one.example a:two.example ~all"],
      "c.example": ["v=spf1 a mx -all"],
    };
    const dns = zone(records);
    const result = await evaluateSpf("example.com", dns);
    expect(result.verdict).toBe("problem");
    expect(result.reason).toMatch(/more than 10 DNS lookups \(\d+ counted so far\); receivers stop at 10/);
    expect(result.details.lookups).toBeGreaterThan(10);

    records["b.example"] = ["v=spf1 a ~all"];
    const under = await evaluateSpf("example.com", zone(records));
    // 2 + (5 + 2) + 1 = 10: the limit itself is allowed.
    expect(under.details.lookups).toBe(10);
    expect(under.verdict).not.toBe("problem");
  });

  it("counts a redirect, and takes the policy's all from its target", async () => {
    const dns = zone({
      "example.com": ["v=spf1 redirect=_spf.example.net"],
      "_spf.example.net": ["v=spf1 ip4:192.0.2.1 +all"],
    });
    const result = await evaluateSpf("example.com", dns);
    expect(result.details).toMatchObject({ lookups: 1, all: "+" });
    expect(result.verdict).toBe("problem");
    expect(result.reason).toMatch(/\+all: it lets every server in the world send as this domain/);
  });

  it("is a problem with +all or a bare all, a warning with ?all or no all", async () => {
    expect((await evaluateSpf("example.com", zone({ "example.com": ["v=spf1 mx all"] }))).verdict).toBe(
      "problem",
    );
    const neutral = await evaluateSpf("example.com", zone({ "example.com": ["v=spf1 mx ?all"] }));
    expect(neutral).toMatchObject({ verdict: "warning" });
    const open = await evaluateSpf("example.com", zone({ "example.com": ["v=spf1 mx"] }));
    expect(open.reason).toMatch(/no -all or ~all/);
    expect((await evaluateSpf("example.com", zone({ "example.com": ["v=spf1 mx ~all"] }))).verdict).toBe(
      "ok",
    );
  });

  it("reports an include that has no SPF record, loops, or could not be read", async () => {
    const missing = await evaluateSpf(
      "example.com",
      zone({ "example.com": ["v=spf1 include:gone.example -all"] }),
    );
    expect(missing.verdict).toBe("problem");
    expect(missing.reason).toMatch(/include:gone.example points to gone.example, which has no SPF record/);

    const loop = await evaluateSpf(
      "example.com",
      zone({
        "example.com": ["v=spf1 include:a.example -all"],
        "a.example": ["v=spf1 include:example.com -all"],
      }),
    );
    expect(loop.reason).toMatch(/loops back to example.com/);

    const failed = await evaluateSpf(
      "example.com",
      zone({ "example.com": ["v=spf1 include:slow.example -all"], "slow.example": null }),
    );
    expect(failed.verdict).toBe("not-checked");

    expect((await evaluateSpf("example.com", zone({ "example.com": null }))).verdict).toBe("not-checked");
  });

  it("warns about ptr", async () => {
    const result = await evaluateSpf("example.com", zone({ "example.com": ["v=spf1 ptr -all"] }));
    expect(result).toMatchObject({ verdict: "warning" });
    expect(result.reason).toMatch(/ptr, which RFC 7208 says not to use/);
  });
});
