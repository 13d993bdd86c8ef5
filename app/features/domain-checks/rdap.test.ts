import { describe, expect, it } from "vitest";
import {
  evaluateExpiry,
  fallBackToTyped,
  parseBootstrap,
  rdapBaseUrls,
  rdapDomainFacts,
  rdapDomainUrl,
} from "./rdap";
import { createRdapBootstrapCache } from "./registration.server";

const BOOTSTRAP = {
  version: "1.0",
  publication: "2026-11-01T00:00:00Z",
  services: [
    [["com", "net"], ["https://rdap.verisign.com/com/v1/"]],
    [["uk"], ["http://rdap.nominet.uk/uk/", "https://rdap.nominet.uk/uk/"]],
    [["co.uk"], ["https://rdap.example/co-uk"]],
  ],
};

const NOW = new Date("2026-11-28T12:00:00Z");

describe("RDAP bootstrap (RFC 7484)", () => {
  it("finds the https server of the longest matching ending", () => {
    const bootstrap = parseBootstrap(BOOTSTRAP)!;
    expect(rdapBaseUrls(bootstrap, "example.com")).toEqual(["https://rdap.verisign.com/com/v1/"]);
    expect(rdapBaseUrls(bootstrap, "example.org.uk")).toEqual(["https://rdap.nominet.uk/uk/"]);
    expect(rdapBaseUrls(bootstrap, "example.co.uk")).toEqual(["https://rdap.example/co-uk"]);
    expect(rdapBaseUrls(bootstrap, "example.de")).toEqual([]);
    expect(rdapBaseUrls(bootstrap, "examplecom.io")).toEqual([]);
    expect(parseBootstrap({ services: "no" })).toBeNull();
    expect(rdapDomainUrl("https://rdap.example/co-uk", "a.co.uk")).toBe(
      "https://rdap.example/co-uk/domain/a.co.uk",
    );
  });

  it("keeps the bootstrap file for a day, and does not keep a failure", async () => {
    const cache = createRdapBootstrapCache("https://iana.example/dns.json", 86_400_000);
    let calls = 0;
    let fail = true;
    const fetch = async (url: string) => {
      calls++;
      expect(url).toBe("https://iana.example/dns.json");
      if (fail) throw new Error("down");
      return { status: 200, headers: {}, body: JSON.stringify(BOOTSTRAP) };
    };
    await expect(cache.get(fetch, NOW)).rejects.toThrow("down");
    fail = false;
    await cache.get(fetch, NOW);
    await cache.get(fetch, new Date(NOW.getTime() + 86_399_000));
    expect(calls).toBe(2);
    await cache.get(fetch, new Date(NOW.getTime() + 86_400_000));
    expect(calls).toBe(3);
  });
});

describe("RDAP answers (RFC 9083) and the expiry rules", () => {
  it("reads the expiration event and the registrar", () => {
    const facts = rdapDomainFacts({
      objectClassName: "domain",
      events: [
        { eventAction: "registration", eventDate: "2001-03-04T05:06:07Z" },
        { eventAction: "expiration", eventDate: "2027-03-04T05:06:07Z" },
      ],
      entities: [
        {
          roles: ["registrar"],
          vcardArray: [
            "vcard",
            [
              ["version", {}, "text", "4.0"],
              ["fn", {}, "text", "Example Registrar, Inc."],
            ],
          ],
        },
      ],
    });
    expect(facts).toEqual({
      expiresOn: new Date("2027-03-04T05:06:07Z"),
      registrar: "Example Registrar, Inc.",
    });
    expect(rdapDomainFacts({ events: [] })).toEqual({ expiresOn: null, registrar: null });
    expect(rdapDomainFacts("nonsense")).toBeNull();
  });

  it("walks the thresholds with the clock: ok, warning at 30 days, problem at 7, expired", () => {
    const base = { source: "rdap" as const, registrar: null, rdapUrl: null };
    const at = (days: number) => new Date(NOW.getTime() + days * 86_400_000 + 3_600_000);
    expect(evaluateExpiry("example.com", at(61), NOW, base)).toMatchObject({
      verdict: "ok",
      details: { daysLeft: 61 },
    });
    expect(evaluateExpiry("example.com", at(31), NOW, base).verdict).toBe("ok");
    expect(evaluateExpiry("example.com", at(30), NOW, base)).toMatchObject({
      verdict: "warning",
      details: { daysLeft: 30 },
    });
    expect(evaluateExpiry("example.com", at(8), NOW, base).verdict).toBe("warning");
    const week = evaluateExpiry("example.com", at(7), NOW, base);
    expect(week).toMatchObject({ verdict: "problem" });
    expect(week.reason).toBe("The registration of example.com expires in 7 days, on 5 December 2026.");
    const gone = evaluateExpiry("example.com", new Date("2026-11-01T00:00:00Z"), NOW, base);
    expect(gone).toMatchObject({ verdict: "problem", details: { daysLeft: -28 } });
    expect(gone.reason).toBe("The registration of example.com expired on 1 November 2026.");
  });

  it("falls back to a typed date, saying so, or says not checked", () => {
    const typed = fallBackToTyped("example.ch", new Date("2027-06-01T00:00:00Z"), NOW, "no RDAP", null);
    expect(typed).toMatchObject({ verdict: "ok", details: { source: "typed" } });
    expect(typed.reason).toMatch(/the date typed in, not read from the registry/);
    const none = fallBackToTyped("example.ch", null, NOW, "The registry of .ch has no RDAP service", null);
    expect(none).toMatchObject({ verdict: "not-checked", details: { source: null } });
    expect(none.reason).toBe(
      "The registry of .ch has no RDAP service: enter the expiry date by hand to have it watched.",
    );
  });
});
