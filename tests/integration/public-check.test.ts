/**
 * The free domain check on the public site (issue 39, item 6) through the real HTTP handler, on the
 * small internet of tests/support/domain-world.ts (a DNS server, TLS and SMTP servers and an RDAP
 * registry on loopback; the server trusts the world's test CA through DOMAIN_CHECK_CA_FILE). A plain
 * form post, as a browser without JavaScript sends it: the page, a check whose certificate expires in
 * 10 days (the report, its worst verdict, the SSL fix as a purchase, the way to have it watched),
 * refused names (400 with the sentence, never a DNS question), the per-address and site-wide limits
 * (429 with Retry-After), and nothing stored but the limits' counters.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import {
  PUBLIC_CHECK_ADDRESS_LIMITED,
  PUBLIC_CHECK_SITE_LIMITED,
  PUBLIC_CHECKS_PER_ADDRESS_PER_HOUR,
  PUBLIC_CHECKS_PER_SITE_PER_HOUR,
} from "~/features/domain-checks/public-check.server";
import { Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { type DomainWorld, startDomainWorld } from "../support/domain-world";
import { markupErrors } from "../support/markup";
import { startTestServer, type TestServer } from "../support/server";

const DOMAIN = "soon.com";

let world: DomainWorld;
let caDir: string;
let caFile: string;

beforeAll(async () => {
  world = await startDomainWorld();
  await world.serveRdapBootstrap();
  // soon.com: mail well secured, the website's certificate (domain and www.) expiring in 10 days.
  await world.healthyDomain(DOMAIN, { certificateDays: 10 });
  // A name that points at the cloud's metadata service: looked up, never connected to.
  world.zone.set("trap.com", { a: ["169.254.169.254"] });
  caDir = await mkdtemp(path.join(tmpdir(), "portico-check-ca-"));
  caFile = path.join(caDir, "ca.pem");
  await writeFile(caFile, world.ca.cert);
}, 60_000);

afterAll(async () => {
  await world?.close();
  if (caDir) await rm(caDir, { recursive: true, force: true });
});

describe.each(testDatabases)("the free domain check on $name", (database) => {
  let server: TestServer;
  let checksRun = 0;
  let address = 0;
  /** A visitor from an address of their own (the server trusts X-Forwarded-For from loopback). */
  const visitor = () => new Session(server.url, `198.51.100.${++address}`);
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(server.portico.runtime.database.db, query);
  const check = async (who: Session, domain: string) => {
    const res = await who.post("/check", { domain });
    if (res.status === 200) checksRun++;
    return { res, html: await res.text() };
  };

  beforeAll(async () => {
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      DNS_SERVERS: world.dnsServer,
      DOMAIN_CHECK_ALLOW_LOOPBACK: "true",
      DOMAIN_CHECK_PORTS: `443=${world.httpsPort},25=${world.smtpPort}`,
      DOMAIN_CHECK_CA_FILE: caFile,
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it("explains the checks and offers a plain form that works without JavaScript", async () => {
    const res = await visitor().get("/check");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<form[^>]*action="\/check" method="post"/);
    expect(html).toMatch(/<input[^>]*name="domain"/);
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Check this domain<\/button>/);
    const page = text(html);
    expect(page).toContain(">Domain name</label>");
    for (const words of [
      "Website certificate (your domain)",
      "Website certificate (www.your domain)",
      "Mail servers and STARTTLS",
      "not checked from this network",
      "SPF",
      "DMARC",
      "selector1, selector2",
      "MTA-STS",
      "RDAP",
      "We keep nothing: no history, no alerts",
    ])
      expect(page).toContain(words);
    expect(await markupErrors(html)).toEqual([]);
    // Linked from every public page's footer, and listed in the sitemap.
    expect(await (await server.get("/plans")).text()).toContain('href="/check"');
    expect(await (await server.get("/sitemap.xml")).text()).toContain("http://127.0.0.1/check</loc>");
  });

  it("checks a domain whose certificate expires in 10 days: the report, the SSL fix to buy, the watch", async () => {
    const { res, html } = await check(visitor(), DOMAIN);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const page = text(html);
    expect(page).toContain(`Result for ${DOMAIN}`);
    expect(page).toContain(`${DOMAIN} works, but some checks gave warnings`);
    // The eight checks of the report, each with its verdict.
    for (const kind of ["https", "httpsWww", "mailServers", "spf", "dmarc", "dkim", "mtaSts", "registration"])
      expect(html).toContain(`data-check="${kind}"`);
    expect(page).toContain(`Certificate of ${DOMAIN} expires in 10 days`);
    expect(page).toContain(`Certificate of www.${DOMAIN} expires in 10 days`);
    expect(html).toMatch(/href="\/client\/purchase\/ssl-setup"[^>]*>Renew and install the certificate</);
    expect(html).toContain('href="/client/domains"');
    expect(html).toContain('href="/plans"');
    // The domain is refilled in the form, and the page is valid HTML.
    expect(html).toMatch(new RegExp(`<input[^>]*name="domain"[^>]*value="${DOMAIN}"`));
    expect(await markupErrors(html)).toEqual([]);
  });

  it("refuses names that are not registrable public domains with 400 and the sentence, asking nothing of the DNS", async () => {
    const who = visitor();
    const asked = world.questions.length;
    for (const [name, sentence] of [
      ["localhost", "Enter the full domain name with its ending"],
      ["127.0.0.1.nip.io", "Enter the registered domain, nip.io, not 127.0.0.1.nip.io."],
      ["169.254.169.254", "An IP address is not a domain name"],
      // 300 characters: four labels of 59, one of 56, and .com.
      [
        `${`${"a".repeat(59)}.`.repeat(4)}${"a".repeat(56)}.com`,
        "A domain name has at most 253 characters; this one has 300.",
      ],
      ["%", "is not a valid domain name"],
      ["", "Enter a domain name, such as example.com."],
    ] as const) {
      const { res, html } = await check(who, name);
      expect(res.status, name).toBe(400);
      expect(text(html), name).toContain(sentence);
      expect(html, name).toContain('aria-invalid="true"');
      expect(html, name).not.toContain("Result for");
    }
    expect(world.questions.slice(asked)).toEqual([]);
  });

  it("checks a name that resolves to the metadata address without connecting to it, and says why", async () => {
    const { res, html } = await check(visitor(), "trap.com");
    expect(res.status).toBe(200);
    expect(html).toMatch(
      /data-check="https">.*?Not checked.*?resolves to 169\.254\.169\.254, a cloud metadata service address/,
    );
  });

  it("allows a few checks per address an hour, then answers 429 with Retry-After; refused names are not counted", async () => {
    const who = visitor();
    // A refused name first: it costs the visitor nothing.
    expect((await check(who, "localhost")).res.status).toBe(400);
    for (let i = 0; i < PUBLIC_CHECKS_PER_ADDRESS_PER_HOUR; i++)
      expect((await check(who, DOMAIN)).res.status).toBe(200);
    const { res, html } = await check(who, DOMAIN);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(text(html)).toContain(PUBLIC_CHECK_ADDRESS_LIMITED);
    expect(text(html)).not.toContain("Result for");
    // Reading the page is never limited, and another address still checks.
    expect((await who.get("/check")).status).toBe(200);
    expect((await check(visitor(), DOMAIN)).res.status).toBe(200);
  });

  it("answers 429 to everyone once the site's hour is used up", async () => {
    await rows(
      sql`update rate_limits set hits = ${PUBLIC_CHECKS_PER_SITE_PER_HOUR} where key = 'domain-check:site'`,
    );
    const { res, html } = await check(visitor(), DOMAIN);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(text(html)).toContain(PUBLIC_CHECK_SITE_LIMITED);
    await rows(sql`delete from rate_limits where key = 'domain-check:site'`);
    expect((await check(visitor(), DOMAIN)).res.status).toBe(200);
  });

  it("stores nothing of the checks (only the limits' counters, by address) and counts them in the metrics", async () => {
    for (const table of [
      "watched_domains",
      "domain_checks",
      "domain_alerts",
      "notifications",
      "outbox_emails",
    ]) {
      const [row] = await rows<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`);
      expect(row!.n, table).toBe(0);
    }
    const keys = await rows<{ key: string }>(sql`select key from rate_limits order by key`);
    expect(keys.length).toBeGreaterThan(0);
    for (const { key } of keys) {
      expect(key).toMatch(/^domain-check:(ip:198\.51\.100\.\d+|site)$/);
      expect(key).not.toContain(DOMAIN);
    }
    const metrics = await (await server.get("/metrics")).text();
    const done = /^portico_domain_checks_total\{outcome="done"[^}]*\} (\d+)$/m.exec(metrics);
    expect(Number(done?.[1])).toBe(checksRun);
    expect(checksRun).toBeGreaterThanOrEqual(PUBLIC_CHECKS_PER_ADDRESS_PER_HOUR + 3);
  });
});
