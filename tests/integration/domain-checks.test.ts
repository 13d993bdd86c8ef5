/**
 * The domain checker end to end (issue 39, items 2 and 7; ADR 0540), on a small internet of its own on
 * this machine (tests/support/domain-world.ts): Node's resolver asks a DNS server on loopback, the TLS
 * servers present certificates the test made (valid, expiring tomorrow, expired, for another name,
 * self-signed, TLS 1.1 only), SMTP servers offer STARTTLS or not, an HTTPS server answers the MTA-STS
 * policies, IANA's RDAP bootstrap file and the registry's RDAP answers. The clock is injected. Every
 * dial is recorded and only loopback is ever dialled; with the tests' setting off, nothing is.
 * No database and no HTTP server of Portico: the engine is below them.
 */
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkDomain,
  type DomainCheckDeps,
  domainCheckDeps,
} from "~/features/domain-checks/check-domain.server";
import { runDomainsCheck } from "~/features/domain-checks/cli.server";
import { createDnsResolver } from "~/features/domain-checks/dns.server";
import { checkHttps } from "~/features/domain-checks/https.server";
import { type DomainWorld, startDomainWorld } from "../support/domain-world";
import { selfSigned } from "../support/test-pki";

const DAY = 86_400_000;
const DKIM_KEY = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .publicKey.export({ type: "spki", format: "der" })
  .toString("base64");

let world: DomainWorld;
let deps: DomainCheckDeps;
let dials: { address: string; port: number }[];

const json =
  (body: unknown, status = 200) =>
  (_req: unknown, res: import("node:http").ServerResponse) =>
    res.writeHead(status, { "content-type": "application/rdap+json" }).end(JSON.stringify(body));
const text =
  (body: string, type = "text/plain") =>
  (_req: unknown, res: import("node:http").ServerResponse) =>
    res.writeHead(200, { "content-type": type }).end(body);
const rdapExpiring = (days: number) =>
  json({
    objectClassName: "domain",
    events: [
      {
        eventAction: "expiration",
        eventDate: new Date(world.now.getTime() + days * DAY + 3_600_000).toISOString(),
      },
    ],
    entities: [{ roles: ["registrar"], vcardArray: ["vcard", [["fn", {}, "text", "Test Registrar"]]] }],
  });

async function certify(names: string[], days = 90): Promise<void> {
  const issued = await world.ca.issue({ names, notAfter: new Date(world.now.getTime() + days * DAY) });
  for (const name of names) world.certificates.set(name, issued);
}

beforeAll(async () => {
  world = await startDomainWorld();
  const { zone, routes, now } = world;
  // Shared: IANA's bootstrap file and a registry, on names this world's DNS answers.
  zone.set("data.iana.org", { a: ["127.0.0.1"] });
  zone.set("rdap.verisign.com", { a: ["127.0.0.1"] });
  await certify(["data.iana.org"]);
  await certify(["rdap.verisign.com"]);
  routes.set(
    "data.iana.org/rdap/dns.json",
    json({
      services: [
        [["com"], ["https://rdap.verisign.com/com/v1/"]],
        [["net"], ["https://rdap.verisign.com/net/v1/"]],
        [["io"], ["https://rdap.nic.io:8443/"]],
      ],
    }),
  );

  // example.com: everything right.
  zone.set("example.com", {
    a: ["127.0.0.1"],
    mx: [[10, "mx1.example.com"]],
    txt: ["v=spf1 mx -all", "site-verification=abc"],
  });
  zone.set("www.example.com", { a: ["127.0.0.1"] });
  zone.set("mx1.example.com", { a: ["127.0.0.1"] });
  zone.set("_dmarc.example.com", { txt: ["v=DMARC1; p=reject; rua=mailto:dmarc@example.com"] });
  zone.set("selector1._domainkey.example.com", { txt: [`v=DKIM1; k=rsa; p=${DKIM_KEY}`] });
  zone.set("_mta-sts.example.com", { txt: ["v=STSv1; id=2026112801"] });
  zone.set("mta-sts.example.com", { a: ["127.0.0.1"] });
  await certify(["example.com", "www.example.com"]);
  await certify(["mx1.example.com"]);
  await certify(["mta-sts.example.com"]);
  routes.set(
    "mta-sts.example.com/.well-known/mta-sts.txt",
    text("version: STSv1\r\nmode: enforce\r\nmx: mx1.example.com\r\nmax_age: 86400\r\n"),
  );
  routes.set("rdap.verisign.com/com/v1/domain/example.com", rdapExpiring(400));

  // example.net: something wrong everywhere.
  zone.set("example.net", {
    a: ["127.0.0.1"],
    mx: [
      [10, "mx1.example.net"],
      [20, "mx2.example.net"],
      [30, "mx3.example.net"],
    ],
    txt: ["v=spf1 include:spf-a.example.net include:spf-b.example.net -all"],
  });
  zone.set("spf-a.example.net", {
    txt: ["v=spf1 a mx a:x.example.net a:y.example.net exists:z.example.net ~all"],
  });
  zone.set("spf-b.example.net", { txt: ["v=spf1 include:spf-c.example.net a mx ~all"] });
  zone.set("spf-c.example.net", { txt: ["v=spf1 a mx ~all"] });
  zone.set("www.example.net", { a: ["127.0.0.1"] });
  zone.set("mx1.example.net", { a: ["127.0.0.1"] });
  zone.set("mx2.example.net", { a: ["127.0.0.2"] });
  zone.set("mx3.example.net", { a: ["127.0.0.3"] });
  zone.set("_dmarc.example.net", { txt: ["v=DMARC1; p=none"] });
  zone.set("_mta-sts.example.net", { txt: ["v=STSv1; id=1"] });
  zone.set("mta-sts.example.net", { a: ["127.0.0.1"] });
  world.certificates.set(
    "example.net",
    await world.ca.issue({ names: ["example.net"], notAfter: new Date(now.getTime() + 36 * 3_600_000) }),
  );
  world.certificates.set(
    "www.example.net",
    await world.ca.issue({ names: ["other.example.org"], notAfter: new Date(now.getTime() + 90 * DAY) }),
  );
  world.certificates.set(
    "mx1.example.net",
    await selfSigned({ names: ["mx1.example.net"], notAfter: new Date(now.getTime() + 90 * DAY) }),
  );
  await certify(["mta-sts.example.net"]);
  routes.set("mta-sts.example.net/.well-known/mta-sts.txt", (_req, res) =>
    res.writeHead(301, { location: "https://policies.example.org/mta-sts.txt" }).end(),
  );
  // The registry redirects (RFC 7480 allows it): followed, through the same rules.
  routes.set("rdap.verisign.com/net/v1/domain/example.net", (_req, res) =>
    res.writeHead(302, { location: "/net/v1/moved/domain/example.net" }).end(),
  );
  routes.set("rdap.verisign.com/net/v1/moved/domain/example.net", rdapExpiring(5));

  // example.org: an expired certificate, a self-signed one, an MX certificate for another name under an
  // enforced MTA-STS policy, and a registry without RDAP.
  zone.set("example.org", {
    a: ["127.0.0.1"],
    mx: [[10, "mail.example.org"]],
    txt: ["v=spf1 ip4:192.0.2.1 -all"],
  });
  zone.set("www.example.org", { a: ["127.0.0.1"] });
  zone.set("mail.example.org", { a: ["127.0.0.1"] });
  zone.set("_dmarc.example.org", { txt: ["v=DMARC1; p=quarantine; rua=mailto:d@example.org"] });
  zone.set("google._domainkey.example.org", { txt: [`v=DKIM1; k=rsa; p=${DKIM_KEY}`] });
  zone.set("_mta-sts.example.org", { txt: ["v=STSv1; id=abc"] });
  zone.set("mta-sts.example.org", { a: ["127.0.0.1"] });
  world.certificates.set(
    "example.org",
    await world.ca.issue({
      names: ["example.org"],
      notBefore: new Date(now.getTime() - 90 * DAY),
      notAfter: new Date(now.getTime() - DAY),
    }),
  );
  world.certificates.set(
    "www.example.org",
    await selfSigned({ names: ["www.example.org"], notAfter: new Date(now.getTime() + 90 * DAY) }),
  );
  world.certificates.set(
    "mail.example.org",
    await world.ca.issue({ names: ["other.example.org"], notAfter: new Date(now.getTime() + 90 * DAY) }),
  );
  await certify(["mta-sts.example.org"]);
  routes.set(
    "mta-sts.example.org/.well-known/mta-sts.txt",
    text("version: STSv1\nmode: enforce\nmx: mail.example.org\nmax_age: 604800\n"),
  );

  // Servers that misbehave, and names the safety rules refuse.
  zone.set("old-tls.com", { a: ["127.0.0.2"] });
  zone.set("slow.com", { a: ["127.0.0.4"] });
  zone.set("gone.com", { a: ["127.0.0.3"] });
  zone.set("example.io", { a: ["127.0.0.1"] });
  zone.set("loop.com", { a: ["127.0.0.1"] });
  zone.set("private.com", { a: ["10.0.0.1"], mx: [[10, "mx.private.com"]] });
  zone.set("mx.private.com", { a: ["10.0.0.2"] });
  zone.set("_mta-sts.private.com", { txt: ["v=STSv1; id=1"] });
  zone.set("mta-sts.private.com", { a: ["192.168.1.1"] });
  zone.set("www.private.com", { a: ["100.64.0.1"] });
  zone.set("metadata.com", { a: ["169.254.169.254"] });
  zone.set("v6.com", { aaaa: ["::1"] });
  zone.set("cgnat.com", { a: ["100.64.0.1"] });
  zone.set("mixed.com", { a: ["127.0.0.1", "10.0.0.1"] });

  const dialer = world.dialer();
  dials = dialer.dials;
  deps = domainCheckDeps(world.settings(), { dial: dialer.dial, now: () => world.now, ca: [world.ca.cert] });
});

afterAll(async () => {
  await world?.close();
});

describe("checkDomain against servers on this machine", () => {
  it("finds nothing wrong with a domain that has everything right", async () => {
    const report = await checkDomain("Example.COM", deps);
    const verdicts = Object.fromEntries(
      Object.entries(report.checks).map(([k, c]) => [k, `${c.verdict}: ${c.reason}`]),
    );
    expect(verdicts).toEqual({
      https: expect.stringMatching(
        /^ok: The certificate of example.com is valid until .* \((89|90) days left\)\.$/,
      ),
      httpsWww: expect.stringMatching(/^ok: The certificate of www.example.com is valid until/),
      mailServers: "ok: Every mail server (mx1.example.com) offers STARTTLS with a valid certificate.",
      spf: "ok: One valid SPF record with 1 of 10 DNS lookups, ending with -all.",
      dmarc: "ok: p=reject: mail that fails DMARC is refused, reports to mailto:dmarc@example.com.",
      dkim: "ok: DKIM keys found: “selector1” (2048-bit RSA).",
      mtaSts: "ok: MTA-STS in enforce mode covers every mail server (mx1.example.com), policy id 2026112801.",
      registration: expect.stringMatching(/^ok: example.com is registered until .* \(400 days left\)\.$/),
    });
    expect(report.verdict).toBe("ok");
    expect(report.domain).toEqual({ ascii: "example.com", unicode: "example.com", suffix: "com" });
    expect(report.checkedAt).toBe(world.now.toISOString());
    expect(report.checks.mailServers.details.hosts[0]).toMatchObject({
      state: "secured",
      certificate: { protocol: "TLSv1.3" },
    });
    expect(report.checks.registration.details).toMatchObject({
      source: "rdap",
      registrar: "Test Registrar",
      daysLeft: 400,
    });
    // Each name was resolved once, and every connection went to this machine.
    expect(world.questions.filter((q) => q === "A example.com")).toHaveLength(1);
    expect(dials.every((d) => d.address.startsWith("127."))).toBe(true);
  });

  it("says what is wrong, in words, check by check", async () => {
    const report = await checkDomain("example.net", deps, { dkimSelectors: ["s2026"] });
    const { https, httpsWww, mailServers, spf, dmarc, dkim, mtaSts, registration } = report.checks;
    expect(report.verdict).toBe("problem");
    expect(https).toMatchObject({ verdict: "problem", details: { certificate: { daysLeft: 1 } } });
    expect(https.reason).toMatch(/^The certificate of example.net expires in 1 day, on /);
    expect(httpsWww.verdict).toBe("problem");
    expect(httpsWww.reason).toMatch(/is for other.example.org, not www.example.net/);
    expect(mailServers.verdict).toBe("problem");
    expect(mailServers.details.hosts.map((h) => [h.host, h.state, h.verdict])).toEqual([
      ["mx1.example.net", "secured", "warning"],
      ["mx2.example.net", "no-starttls", "problem"],
      ["mx3.example.net", "unreachable", "not-checked"],
    ]);
    expect(mailServers.reason).toMatch(/mx2.example.net does not offer STARTTLS/);
    expect(mailServers.reason).toMatch(/mx1.example.net is self-signed/);
    expect(mailServers.reason).toMatch(/mx3.example.net was not checked from this network/);
    expect(spf).toMatchObject({ verdict: "problem" });
    expect(spf.reason).toMatch(/more than 10 DNS lookups/);
    expect(spf.details.includes).toEqual(["spf-a.example.net", "spf-b.example.net", "spf-c.example.net"]);
    expect(dmarc).toMatchObject({ verdict: "warning", details: { policy: "none" } });
    expect(dkim.verdict).toBe("problem");
    expect(dkim.reason).toMatch(/No DKIM key at s2026._domainkey.example.net/);
    expect(mtaSts.verdict).toBe("problem");
    expect(mtaSts.reason).toMatch(/answers with a redirect \(301\)/);
    expect(registration).toMatchObject({
      verdict: "problem",
      details: {
        daysLeft: 5,
        source: "rdap",
        rdapUrl: "https://rdap.verisign.com/net/v1/moved/domain/example.net",
      },
    });
    // The redirect was not followed.
    expect(world.questions).not.toContain("A policies.example.org");
  });

  it("tells an expired certificate from an untrusted one, and enforces MTA-STS on the MX certificates", async () => {
    const typedExpiry = new Date(world.now.getTime() + 200 * DAY);
    const report = await checkDomain("example.org", deps, { typedExpiry });
    const { https, httpsWww, mailServers, mtaSts, registration, dkim } = report.checks;
    expect(https.reason).toMatch(/^The certificate of example.org expired on /);
    expect(https.reason).not.toMatch(/self-signed|trusted/);
    expect(https.details.certificate).toMatchObject({ chainTrusted: true, nameMatches: true });
    expect(httpsWww).toMatchObject({ verdict: "problem", details: { certificate: { chainTrusted: false } } });
    expect(httpsWww.reason).toMatch(/is self-signed/);
    expect(mailServers.verdict).toBe("warning");
    expect(mailServers.reason).toMatch(/mail.example.org is for other.example.org, not mail.example.org/);
    expect(mtaSts).toMatchObject({ verdict: "problem", details: { mode: "enforce", uncovered: [] } });
    expect(mtaSts.reason).toBe(
      "The mail server mail.example.org has a certificate for other.example.org, not for its name: senders enforcing the policy will not deliver to it.",
    );
    expect(registration).toMatchObject({ verdict: "ok", details: { source: "typed", daysLeft: 200 } });
    expect(registration.reason).toMatch(/the date typed in/);
    expect(dkim.reason).toBe("DKIM keys found: “google” (2048-bit RSA).");
    const untyped = await checkDomain("example.org", deps);
    expect(untyped.checks.registration).toMatchObject({ verdict: "not-checked" });
    expect(untyped.checks.registration.reason).toMatch(/The registry of .org has no RDAP service/);
  });

  it("says a domain the registry does not know is not registered", async () => {
    const report = await checkDomain("gone.com", deps);
    expect(report.checks.registration).toMatchObject({
      verdict: "problem",
      details: { source: "rdap", expiresOn: null },
    });
    expect(report.checks.registration.reason).toBe(
      "The registry has no record of gone.com: check that it is registered.",
    );
    // Nothing listens on gone.com's address: the site is a problem after one retry, both to that address.
    expect(report.checks.https.reason).toMatch(
      /does not answer over HTTPS \(tried twice\): the connection was refused/,
    );
    expect(dials.filter((d) => d.address === "127.0.0.3" && d.port === world.httpsPort)).toHaveLength(2);
    // An internationalised name is asked in punycode and named as typed.
    const idn = await checkDomain("Bücher.com", deps);
    expect(idn.domain).toEqual({ ascii: "xn--bcher-kva.com", unicode: "bücher.com", suffix: "com" });
    expect(world.questions).toContain("A xn--bcher-kva.com");
    expect(idn.checks.registration.reason).toBe(
      "The registry has no record of bücher.com: check that it is registered.",
    );
    expect(idn.checks.registration.details.rdapUrl).toBe(
      "https://rdap.verisign.com/com/v1/domain/xn--bcher-kva.com",
    );
  });

  it("is a problem when a site offers no TLS 1.2, or does not answer in time (after one retry)", async () => {
    const context = {
      network: deps.network,
      now: deps.now,
      ca: deps.ca,
      signal: AbortSignal.timeout(10_000),
    };
    const old = await checkHttps("old-tls.com", context);
    expect(old.verdict).toBe("problem");
    expect(old.reason).toMatch(
      /old-tls.com does not answer over HTTPS \(tried twice\): it offers no TLS 1.2 or newer/,
    );
    const fast = domainCheckDeps(
      world.settings({ limits: { connectionMs: 300, domainMs: 5_000, dnsMs: 1_000 } }),
      {
        dial: world.dialer().dial,
        now: () => world.now,
        ca: [world.ca.cert],
      },
    );
    const started = Date.now();
    const slow = await checkHttps("slow.com", { ...context, network: fast.network });
    expect(slow.reason).toMatch(/does not answer over HTTPS \(tried twice\): it did not answer in time/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("stops a whole domain at its time limit", async () => {
    const limited = domainCheckDeps(
      world.settings({ limits: { connectionMs: 5_000, domainMs: 700, dnsMs: 1_000 } }),
      {
        dial: world.dialer().dial,
        now: () => world.now,
        ca: [world.ca.cert],
      },
    );
    const started = Date.now();
    const report = await checkDomain("slow.com", limited);
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(report.checks.https).toMatchObject({ verdict: "not-checked" });
    expect(report.checks.https.reason).toMatch(/ran out of time/);
  });
});

describe("the safety rules with servers on this machine (issue 39, item 7)", () => {
  it("with the tests' setting off, refuses loopback, private, metadata, CGNAT and IPv6 loopback names and dials nothing", async () => {
    const guard = world.dialer();
    const strict = domainCheckDeps(world.settings({ allowLoopback: false, portOverrides: {} }), {
      dial: guard.dial,
      now: () => world.now,
      ca: [world.ca.cert],
    });
    const context = {
      network: strict.network,
      now: strict.now,
      ca: strict.ca,
      signal: AbortSignal.timeout(10_000),
    };
    const expectations: [string, RegExp][] = [
      ["loop.com", /resolves to 127.0.0.1, a loopback address/],
      ["private.com", /resolves to 10.0.0.1, a private network address/],
      ["metadata.com", /resolves to 169.254.169.254, a cloud metadata service address/],
      ["v6.com", /resolves to ::1, a loopback address/],
      ["cgnat.com", /resolves to 100.64.0.1, a carrier-grade NAT address/],
      ["mixed.com", /resolves to 127.0.0.1/],
    ];
    for (const [name, reason] of expectations) {
      const result = await checkHttps(name, context);
      expect(result.verdict, name).toBe("not-checked");
      expect(result.reason, name).toMatch(reason);
    }
    const whole = await checkDomain("private.com", strict);
    expect(whole.checks.https.verdict).toBe("not-checked");
    expect(whole.checks.httpsWww.reason).toMatch(/100.64.0.1/);
    expect(whole.checks.mailServers.details.hosts[0]).toMatchObject({
      state: "refused",
      verdict: "not-checked",
    });
    expect(whole.checks.mtaSts).toMatchObject({ verdict: "not-checked" });
    expect(whole.checks.mtaSts.reason).toMatch(/192.168.1.1, a private network address/);
    // IANA's file sits on 127.0.0.1 in this world: refused too.
    expect(whole.checks.registration.reason).toMatch(/127.0.0.1, a loopback address/);
    expect(guard.dials).toEqual([]);
  });

  it("with the tests' setting on, still refuses the other ranges, and a registry on a port other than 443", async () => {
    const guard = world.dialer();
    const loose = domainCheckDeps(world.settings(), {
      dial: guard.dial,
      now: () => world.now,
      ca: [world.ca.cert],
    });
    const context = {
      network: loose.network,
      now: loose.now,
      ca: loose.ca,
      signal: AbortSignal.timeout(10_000),
    };
    for (const name of ["private.com", "metadata.com", "cgnat.com", "mixed.com"]) {
      expect((await checkHttps(name, context)).verdict, name).toBe("not-checked");
    }
    expect(guard.dials).toEqual([]);
    const io = await checkDomain("example.io", loose);
    expect(io.checks.registration.verdict).toBe("not-checked");
    expect(io.checks.registration.reason).toMatch(
      /port 8443 is not one the checker uses \(only 443 and 25\)/,
    );
    expect(
      guard.dials.every(
        (d) => d.address.startsWith("127.") && [world.httpsPort, world.smtpPort].includes(d.port),
      ),
    ).toBe(true);
  });

  it("reads the DNS through the configured servers with Node's resolver", async () => {
    const resolver = createDnsResolver(world.settings());
    expect(await resolver.resolve4("example.com")).toEqual(["127.0.0.1"]);
    const txt = await resolver.resolveTxt("selector1._domainkey.example.com");
    expect(txt[0]!.join("")).toBe(`v=DKIM1; k=rsa; p=${DKIM_KEY}`);
    expect(txt[0]!.length).toBeGreaterThan(1);
  });
});

describe("npm run domains:check", () => {
  const env = () => ({
    DNS_SERVERS: world.dnsServer,
    DOMAIN_CHECK_ALLOW_LOOPBACK: "true",
    DOMAIN_CHECK_PORTS: `443=${world.httpsPort},25=${world.smtpPort}`,
  });
  const run = async (argv: string[], environment: Record<string, string> = env()) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runDomainsCheck(
      argv,
      environment,
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      (settings) =>
        domainCheckDeps(settings, { dial: world.dialer().dial, now: () => world.now, ca: [world.ca.cert] }),
    );
    return { code, out, err };
  };

  it("prints the report in plain lines, from the environment's settings", async () => {
    const good = await run(["example.com"]);
    expect(good.code).toBe(0);
    expect(good.out[0]).toMatch(/^example.com: ok, checked /);
    expect(good.out).toContainEqual(expect.stringMatching(/^ {2}ok {11}SPF: One valid SPF record/));
    expect(good.out).toHaveLength(9);
    const bad = await run(["example.net", "--selector", "s2026"]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContainEqual(expect.stringMatching(/^ {2}PROBLEM {6}DKIM: No DKIM key at s2026/));
    const asJson = await run(["example.com", "--json"]);
    expect(JSON.parse(asJson.out.join("\n"))).toMatchObject({
      verdict: "ok",
      domain: { ascii: "example.com" },
    });
  });

  it("refuses bad names, options and the tests' settings in production", async () => {
    expect(await run(["169.254.169.254"])).toMatchObject({
      code: 2,
      err: [expect.stringMatching(/IP address/)],
    });
    expect(await run([`${"a".repeat(300)}.com`])).toMatchObject({ code: 2 });
    expect(await run(["localhost"])).toMatchObject({ code: 2 });
    expect(await run([])).toMatchObject({ code: 2 });
    expect(await run(["example.com", "--expires", "soon"])).toMatchObject({ code: 2 });
    expect(await run(["example.com", "--selector", "bad selector"])).toMatchObject({ code: 2 });
    const production = await run(["example.com"], { ...env(), NODE_ENV: "production" });
    expect(production).toMatchObject({ code: 2, err: [expect.stringMatching(/for tests only/)] });
  });
});
