import { describe, expect, it } from "vitest";
import { cert, check, mx, NOW, report } from "../../../tests/support/domain-reports";
import { readAlerts, thresholdReached } from "./alerts";

describe("thresholdReached", () => {
  it("gives the smallest threshold reached, or null", () => {
    expect(thresholdReached(31, [1, 7, 14, 30])).toBeNull();
    expect(thresholdReached(30, [1, 7, 14, 30])).toBe(30);
    expect(thresholdReached(10, [1, 7, 14, 30])).toBe(14);
    expect(thresholdReached(7, [1, 7, 14, 30])).toBe(7);
    expect(thresholdReached(0, [1, 7, 14, 30])).toBe(1);
  });
});

describe("readAlerts", () => {
  it("finds nothing wrong on a healthy domain, and settles every family it read", () => {
    const reading = readAlerts(report(), NOW);
    expect(reading.candidates).toEqual([]);
    expect(reading.settled("cert:example.com")).toBe("Certificate renewed on 1 January 2027.");
    expect(reading.settled("dmarc")).toBe("DMARC policy set to p=reject.");
    expect(reading.settled("spf")).toBe("SPF record fixed.");
    expect(reading.settled("starttls:mx1.example.com")).toBe("STARTTLS offered on mx1.example.com.");
    expect(reading.settled("registration")).toMatch(/^Domain renewed until 1 January 2028\.$/);
  });

  it("raises a certificate's threshold once per end day and threshold", () => {
    const r = readAlerts(
      report({
        https: check("warning", { host: "example.com", address: "192.0.2.1", certificate: cert(10) }),
      }),
      NOW,
    );
    expect(r.candidates).toHaveLength(1);
    const [c] = r.candidates;
    expect(c).toMatchObject({ family: "cert:example.com", code: "cert-14", severity: "warning", fix: "ssl" });
    expect(c!.thresholdKey).toMatch(/^cert:example\.com:2027-03-11:14$/);
    expect(c!.title).toBe("Certificate of example.com expires in 10 days");
    expect(r.settled("cert:example.com")).toBeNull();
  });

  it("calls an expired, untrusted or misnamed certificate invalid", () => {
    const expired = readAlerts(
      report({ https: check("problem", { host: "example.com", address: "x", certificate: cert(-2) }) }),
      NOW,
    ).candidates[0];
    expect(expired).toMatchObject({ code: "cert-invalid", thresholdKey: null, severity: "problem" });
    expect(expired!.message).toMatch(/expired on 27 February 2027/);
    const selfSigned = readAlerts(
      report({
        httpsWww: check("problem", {
          host: "www.example.com",
          address: "x",
          certificate: cert(300, { chainTrusted: false }),
        }),
      }),
      NOW,
    ).candidates[0];
    expect(selfSigned).toMatchObject({ family: "cert:www.example.com", code: "cert-invalid" });
    expect(selfSigned!.message).toBe(
      "The certificate of www.example.com is not trusted by browsers. Visitors see a security warning.",
    );
  });

  it("neither raises nor clears what could not be checked", () => {
    const r = readAlerts(
      report({
        https: check("not-checked", { host: "example.com", address: null, certificate: null }),
        dmarc: check("not-checked", {
          record: null,
          policy: null,
          subdomainPolicy: null,
          percent: null,
          reportTo: [],
        }),
        mailServers: check("not-checked", {
          nullMx: false,
          hosts: [mx("mx1.example.com", "unreachable")],
          skipped: [],
        }),
      }),
      NOW,
    );
    expect(r.candidates).toEqual([]);
    expect(r.settled("cert:example.com")).toBeNull();
    expect(r.settled("dmarc")).toBeNull();
    expect(r.settled("starttls:mx1.example.com")).toBeNull();
  });

  it("raises DMARC missing or at p=none, SPF broken and no STARTTLS, with their fixes", () => {
    const r = readAlerts(
      report({
        dmarc: check("warning", {
          record: "v=DMARC1; p=none",
          policy: "none",
          subdomainPolicy: null,
          percent: 100,
          reportTo: [],
        }),
        spf: check(
          "problem",
          { record: null, lookups: 0, includes: [], all: null },
          "example.com has no SPF record.",
        ),
        mailServers: check("problem", {
          nullMx: false,
          hosts: [mx("mx1.example.com", "no-starttls"), mx("mx2.example.com", "unreachable")],
          skipped: [],
        }),
      }),
      NOW,
    );
    const byFamily = Object.fromEntries(r.candidates.map((c) => [c.family, c]));
    expect(byFamily.dmarc).toMatchObject({ code: "dmarc-none", fix: "deliverability", severity: "warning" });
    expect(byFamily.spf).toMatchObject({ code: "spf-broken", message: "example.com has no SPF record." });
    expect(byFamily["starttls:mx1.example.com"]).toMatchObject({ code: "starttls-missing", fix: "quote" });
    expect(byFamily["starttls:mx2.example.com"]).toBeUndefined();
    expect(r.settled("starttls:mx2.example.com")).toBeNull();
    const missing = readAlerts(
      report({
        dmarc: check("problem", {
          record: null,
          policy: null,
          subdomainPolicy: null,
          percent: null,
          reportTo: [],
        }),
      }),
      NOW,
    ).candidates[0];
    expect(missing).toMatchObject({ family: "dmarc", code: "dmarc-missing", severity: "problem" });
  });

  it("settles a mail server that is no longer an MX host", () => {
    const r = readAlerts(report(), NOW);
    expect(r.settled("starttls:old-mx.example.com")).toBe(
      "old-mx.example.com is no longer a mail server of example.com.",
    );
  });

  it("raises the registration's 60, 30 and 7 days, and its expiry", () => {
    const at = (daysLeft: number) =>
      readAlerts(
        report({
          registration: check(daysLeft < 0 ? "problem" : "warning", {
            source: "typed",
            expiresOn: new Date(NOW.getTime() + (daysLeft + 0.5) * 86_400_000).toISOString(),
            daysLeft,
            registrar: null,
            rdapUrl: null,
          }),
        }),
        NOW,
      ).candidates[0];
    expect(at(61)).toBeUndefined();
    expect(at(45)).toMatchObject({ code: "registration-60", fix: "quote" });
    expect(at(20)?.code).toBe("registration-30");
    expect(at(3)).toMatchObject({ code: "registration-7", severity: "problem" });
    expect(at(-1)).toMatchObject({ code: "registration-expired", title: "example.com has expired" });
  });

  it("raises one alert for a name the DNS does not know, and clears it once the name is back", () => {
    const gone = readAlerts({ ...report(), nameExists: false }, NOW);
    expect(gone.candidates.find((c) => c.family === "dns")).toMatchObject({
      code: "dns-missing",
      severity: "problem",
      title: "example.com does not exist in the DNS",
      fix: "quote",
    });
    expect(readAlerts({ ...report(), nameExists: true }, NOW).settled("dns")).toBe(
      "example.com is found in the DNS again.",
    );
    // A report from before the name was checked says nothing about it.
    expect(readAlerts(report(), NOW).settled("dns")).toBeNull();
  });
});
