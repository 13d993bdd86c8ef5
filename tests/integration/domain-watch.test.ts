/**
 * The domain watch (issue 39, items 1, 3, 4, 5 and 7; ADR 0541), through the real HTTP handler on both
 * databases, against the loopback internet of tests/support/domain-world.ts and an injected clock: a
 * client adds domains (refused names in words, their plan's schedule, the rest paused), the watch walks
 * a certificate through its 30, 14, 7 and 1 days and its expiry (each alert once, in the bell and by
 * email) to its renewal (cleared, said), DMARC missing then fixed, port 25 unreachable (no alert), the
 * notification switch obeyed, the fix bought from an alert (the owner sees it), the owner's watch and
 * its check now, other clients kept out, the metrics, the export and the deletion.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clients,
  domainAlerts,
  domainChecks,
  notifications,
  orders,
  outboxEmails,
  userPreferences,
  watchedDomains,
} from "~/db/schema";
import { domainsForExport } from "~/features/domain-checks/domain-privacy.server";
import {
  DOMAIN_WATCH_JOB,
  type DomainWatchDeps,
  runDueDomainChecks,
} from "~/features/domain-checks/watch.server";
import { acquireLease } from "~/features/jobs/leases.server";
import { accountsOn } from "../support/accounts";
import { location, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { type DomainWorld, startDomainWorld } from "../support/domain-world";
import { createSubscription } from "../support/plans";
import { freePort, startTestServer, type TestServer } from "../support/server";

const DAY = 86_400_000;
const words = (html: string) =>
  text(html.replace(/<script\b[\s\S]*?<\/script>/g, " ").replace(/<[^>]*>/g, " "))
    .replace(/\s+/g, " ")
    .trim();

let world: DomainWorld;
let caFile: string;

beforeAll(async () => {
  world = await startDomainWorld();
  caFile = path.join(mkdtempSync(path.join(tmpdir(), "portico-watch-")), "ca.pem");
  writeFileSync(caFile, world.ca.cert);
  await world.serveRdapBootstrap();
}, 60_000);
afterAll(async () => {
  await world?.close();
});

const healthy = (domain: string, certificateDays = 200) => world.healthyDomain(domain, { certificateDays });

describe.each(testDatabases)("the domain watch on $name", (database) => {
  let server: TestServer;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.109.${n}`,
  );
  const someone = (name: string) => ({
    email: `watch.${Math.random().toString(36).slice(2, 10)}@example.com`,
    name,
  });
  const deps = (): DomainWatchDeps => {
    const { runtime } = server.portico;
    return {
      db: db(),
      checker: runtime.domainChecker,
      business: runtime.config.business,
      publicUrl: runtime.config.publicUrl,
      wakeOutbox: () => {},
      count: runtime.metrics.countDomainWatch,
      random: () => 0,
    };
  };
  // Day 0 of the walks: ten minutes on, so the domains added during a test are due on it; the world's
  // certificates end an hour past their day, so their days left count from it the same.
  let base: Date;
  const at = (days: number) => new Date(base.getTime() + days * DAY);
  const run = (clientId: string, days: number) => runDueDomainChecks(deps(), at(days), { clientId });
  const domainOf = async (clientId: string, name: string) =>
    (
      await db()
        .select()
        .from(watchedDomains)
        .where(and(eq(watchedDomains.clientId, clientId), eq(watchedDomains.name, name)))
    )[0]!;
  const alertsOf = (domainId: string) =>
    db()
      .select()
      .from(domainAlerts)
      .where(eq(domainAlerts.domainId, domainId))
      .orderBy(asc(domainAlerts.raisedAt));
  const bellOf = (clientId: string) =>
    db()
      .select()
      .from(notifications)
      .where(eq(notifications.userId, clientId))
      .orderBy(asc(notifications.createdAt));
  const mailsTo = async (address: string) =>
    (await db().select().from(outboxEmails).where(eq(outboxEmails.kind, "domain-alert"))).filter(
      (m) => m.toAddress === address,
    );

  beforeAll(async () => {
    base = new Date(Date.now() + 10 * 60_000);
    const port = await freePort();
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DNS_SERVERS: world.dnsServer,
      DOMAIN_CHECK_ALLOW_LOOPBACK: "true",
      DOMAIN_CHECK_PORTS: `443=${world.httpsPort},25=${world.smtpPort}`,
      DOMAIN_CHECK_CA_FILE: caFile,
    });
    // The server's own watch (every minute, on the real clock) stands aside: the test runs it itself.
    expect(
      await acquireLease(
        server.portico.runtime.database.db,
        DOMAIN_WATCH_JOB,
        "watch-test",
        new Date(),
        3_600_000,
      ),
    ).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it("adds domains by their registered name, refuses others in words, and pauses those past the plan", async () => {
    const { id: clientId, session } = await signedIn(someone("Ada Adder"));
    const refused: Array<[string, RegExp]> = [
      ["localhost", /Enter the full domain name with its ending/],
      ["127.0.0.1.nip.io", /Enter the registered domain, nip\.io, not 127\.0\.0\.1\.nip\.io\./],
      ["169.254.169.254", /An IP address is not a domain name/],
      [`${"a".repeat(300)}.com`, /at most 63 characters|at most 253 characters/],
      ["https://example.com/path", /without https:\/\//],
      ["50%.com", /letters, digits and hyphens only|not a valid domain name/],
    ];
    for (const [name, message] of refused) {
      const res = await session.post("/client/domains", { intent: "add", name });
      expect(res.status, name).toBe(400);
      expect(words(await res.text())).toMatch(message);
    }
    expect(await db().select().from(watchedDomains).where(eq(watchedDomains.clientId, clientId))).toEqual([]);

    await healthy("first-watch.com");
    const added = await session.post("/client/domains", {
      intent: "add",
      name: "First-Watch.com",
      selectors: "s1, S1 mail",
    });
    expect(added.status).toBe(302);
    const first = await domainOf(clientId, "first-watch.com");
    expect(location(added)).toBe(`/client/domains?added=${first.id}`);
    expect(first).toMatchObject({ displayName: "first-watch.com", dkimSelectors: ["s1", "mail"] });
    const twice = await session.post("/client/domains", { intent: "add", name: "first-watch.com" });
    expect(twice.status).toBe(409);
    expect(words(await twice.text())).toContain("You already watch first-watch.com.");
    // IDN: typed in Unicode, kept in punycode, shown in Unicode.
    expect((await session.post("/client/domains", { name: "bücher-watch.com" })).status).toBe(302);
    const idn = await domainOf(clientId, "xn--bcher-watch-thb.com");
    expect(idn.displayName).toBe("bücher-watch.com");

    const list = words(await (await session.get("/client/domains")).text());
    expect(list).toContain("Without a care plan we check your first domain once a week.");
    expect(list).toContain("Checked once a week");
    expect(list).toContain("Paused: without a care plan, we watch your first domain once a week.");

    // Without a plan: the first domain weekly, the second paused (looked at again in an hour).
    const r = await run(clientId, 0);
    expect(r).toMatchObject({ checked: 1, paused: 1, failed: 0 });
    const checked = await domainOf(clientId, "first-watch.com");
    expect(checked.lastVerdict).not.toBeNull();
    expect(checked.nextCheckAt.getTime()).toBe(at(7).getTime());
    expect((await domainOf(clientId, idn.name)).nextCheckAt.getTime()).toBe(at(0).getTime() + 3_600_000);

    // A care plan watches its count daily: Care Essentials, one domain.
    await createSubscription(db(), { clientId, anchorDay: at(0).toISOString().slice(0, 10) });
    const planned = words(await (await session.get("/client/domains")).text());
    expect(planned).toContain("Your Care Essentials plan checks 1 domain every day.");
    expect(planned).toContain("Paused: your Care Essentials plan watches 1 domain.");
  });

  it("walks a certificate through 30, 14, 7 and 1 days and its expiry, once each, then its renewal", async () => {
    const { id: clientId, session } = await signedIn(someone("Cert Walker"));
    await createSubscription(db(), { clientId, anchorDay: at(0).toISOString().slice(0, 10) });
    await healthy("cert-walk.com", 35);
    expect((await session.post("/client/domains", { name: "cert-walk.com" })).status).toBe(302);
    const domain = await domainOf(clientId, "cert-walk.com");

    const raisedOn: Record<number, string[]> = {};
    for (const day of [0, 1, 6, 7, 8, 22, 23, 28, 29, 34, 36, 37]) {
      await db()
        .update(watchedDomains)
        .set({ nextCheckAt: at(day) })
        .where(eq(watchedDomains.id, domain.id));
      const r = await run(clientId, day);
      expect(r.checked, `day ${day}`).toBe(1);
      raisedOn[day] = (await alertsOf(domain.id))
        .filter((a) => a.raisedAt.getTime() === at(day).getTime())
        .map((a) => a.code);
    }
    const raised = Object.entries(raisedOn).filter(([, codes]) => codes.length > 0);
    // Both website certificates share the end day: each threshold raises one alert per host, once.
    expect(raised).toEqual([
      ["6", ["cert-30", "cert-30"]],
      ["22", ["cert-14", "cert-14"]],
      ["28", ["cert-7", "cert-7"]],
      ["34", ["cert-1", "cert-1"]],
      ["36", ["cert-invalid", "cert-invalid"]],
    ]);
    const open = (await alertsOf(domain.id)).filter((a) => !a.clearedAt);
    expect(open.map((a) => a.family).sort()).toEqual(["cert:cert-walk.com", "cert:www.cert-walk.com"]);
    expect(open[0]!.message).toMatch(/expired on/);
    const bell = await bellOf(clientId);
    expect(
      bell.filter((n) => /Certificate of cert-walk\.com expires in/.test(n.title)).map((n) => n.title),
    ).toEqual([
      "Certificate of cert-walk.com expires in 29 days",
      "Certificate of cert-walk.com expires in 13 days",
      "Certificate of cert-walk.com expires in 7 days",
      "Certificate of cert-walk.com expires in 1 day",
    ]);
    expect(bell.every((n) => n.href === `/client/domains/${domain.id}`)).toBe(true);
    // One email per check that raised something (both hosts in one email).
    expect(await mailsTo((await signedInEmail(clientId))!)).toHaveLength(5);

    // Renewed: both alerts clear, the client is told when.
    await world.certify(["cert-walk.com", "www.cert-walk.com"], 90, at(37));
    await db()
      .update(watchedDomains)
      .set({ nextCheckAt: at(38) })
      .where(eq(watchedDomains.id, domain.id));
    await run(clientId, 38);
    const after = await alertsOf(domain.id);
    expect(after.filter((a) => !a.clearedAt)).toEqual([]);
    const renewedOn = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }).format(new Date(at(37).getTime() - DAY));
    expect(after.filter((a) => a.clearedNote === `Certificate renewed on ${renewedOn}.`)).toHaveLength(2);
    const resolved = (await bellOf(clientId)).filter((n) => n.title.startsWith("Resolved:"));
    expect(resolved.map((n) => n.message)).toEqual([
      `Certificate renewed on ${renewedOn}.`,
      `Certificate renewed on ${renewedOn}.`,
    ]);
    const page = words(await (await session.get(`/client/domains/${domain.id}`)).text());
    expect(page).toContain("No open alerts.");
    expect(page).toContain(`Certificate renewed on ${renewedOn}.`);
    expect(page).toContain("History of cert-walk.com");
  });

  async function signedInEmail(clientId: string): Promise<string | undefined> {
    const [row] = await db().select({ email: clients.email }).from(clients).where(eq(clients.id, clientId));
    return row?.email;
  }

  it("raises DMARC missing, clears it when fixed, says nothing when port 25 is blocked, and obeys the switch", async () => {
    const who = someone("Dee Mark");
    const { id: clientId, session } = await signedIn(who);
    await createSubscription(db(), { clientId, anchorDay: at(0).toISOString().slice(0, 10) });
    await healthy("dmarc-watch.com");
    world.zone.delete("_dmarc.dmarc-watch.com");
    // Its mail server is on an address nothing listens on: port 25 "blocked" from here.
    world.zone.set("mx.dmarc-watch.com", { a: ["127.0.0.3"] });
    // Emails about orders and domains off: the bell still says it.
    await db().insert(userPreferences).values({ userId: clientId, emailNotifications: false });
    expect((await session.post("/client/domains", { name: "dmarc-watch.com" })).status).toBe(302);
    const domain = await domainOf(clientId, "dmarc-watch.com");

    await run(clientId, 0);
    const alerts = await alertsOf(domain.id);
    expect(alerts.map((a) => a.code)).toEqual(["dmarc-missing"]);
    expect(alerts[0]).toMatchObject({ fix: "deliverability", severity: "problem" });
    expect((await bellOf(clientId)).map((n) => n.title)).toContain("dmarc-watch.com has no DMARC record");
    expect(await mailsTo(who.email)).toEqual([]);
    const report = (await domainOf(clientId, "dmarc-watch.com")).lastReport as {
      checks: { mailServers: { verdict: string } };
    };
    expect(report.checks.mailServers.verdict).toBe("not-checked");

    // The page offers the fix; its purchase names the alert and makes the order from it.
    const page = await (await session.get(`/client/domains/${domain.id}`)).text();
    expect(page).toContain(`/client/purchase/email-deliverability?alert=${alerts[0]!.id}`);
    // A quote request from the alert starts with what was found.
    const quote = words(await (await session.get(`/client/quotes/new?alert=${alerts[0]!.id}`)).text());
    expect(quote).toContain(
      "Please fix this on dmarc-watch.com: dmarc-watch.com has no DMARC record. dmarc-watch.com publishes no DMARC policy",
    );
    const purchase = await session.get(`/client/purchase/email-deliverability?alert=${alerts[0]!.id}`);
    const purchaseHtml = await purchase.text();
    expect(words(purchaseHtml)).toContain("For dmarc-watch.com: dmarc-watch.com has no DMARC record");
    const token = purchaseHtml.match(/name="checkoutToken" value="([^"]+)"/)![1]!;
    expect(purchaseHtml).toContain(`name="fromAlert" value="${alerts[0]!.id}"`);
    const bought = await session.post("/client/purchase/email-deliverability", {
      checkoutToken: token,
      package: "basic",
      fromAlert: alerts[0]!.id,
    });
    expect(bought.status).toBe(302);
    const [order] = await db().select().from(orders).where(eq(orders.fromDomainAlertId, alerts[0]!.id));
    expect(order).toMatchObject({ clientId, serviceName: "Domain & Email Security" });
    // The same alert for another service, or another client's alert, is refused.
    const wrong = await session.post("/client/purchase/ssl-setup", {
      checkoutToken: "x".repeat(24),
      fromAlert: alerts[0]!.id,
    });
    expect(wrong.status).toBe(400);
    const other = await signedIn(someone("Other Client"));
    const stolen = await other.session.post("/client/purchase/email-deliverability", {
      checkoutToken: "y".repeat(24),
      fromAlert: alerts[0]!.id,
    });
    expect(stolen.status).toBe(404);
    expect((await other.session.get(`/client/domains/${domain.id}`)).status).toBe(404);
    expect((await other.session.post(`/client/domains/${domain.id}`, { intent: "remove" })).status).toBe(404);
    // The owner sees where the order came from.
    const owner = await signedIn({ ...someone("Owner Watch"), role: "admin" });
    const ownerOrder = words(await (await owner.session.get(`/admin/orders/${order!.id}`)).text());
    expect(ownerOrder).toContain("From an alert dmarc-watch.com has no DMARC record");

    // Fixed: cleared, said in the bell.
    world.zone.set("_dmarc.dmarc-watch.com", { txt: ["v=DMARC1; p=quarantine"] });
    await db()
      .update(watchedDomains)
      .set({ nextCheckAt: at(1) })
      .where(eq(watchedDomains.id, domain.id));
    await run(clientId, 1);
    const [cleared] = await alertsOf(domain.id);
    expect(cleared).toMatchObject({ clearedNote: "DMARC policy set to p=quarantine." });
    expect((await bellOf(clientId)).at(-1)).toMatchObject({
      title: "Resolved: dmarc-watch.com has no DMARC record",
      type: "success",
    });
  });

  it("raises one alert for a name the DNS does not know (no mail alerts), and clears it when it is back", async () => {
    const { id: clientId, session } = await signedIn(someone("Gone Domain"));
    await createSubscription(db(), { clientId, anchorDay: at(0).toISOString().slice(0, 10) });
    // A name of this database's run: the world (shared by both runs) learns it at the end.
    const name = `vanished-${database.name.replace(/[^a-z0-9]/g, "")}.com`;
    expect((await session.post("/client/domains", { name })).status).toBe(302);
    const domain = await domainOf(clientId, name);
    await run(clientId, 0);
    expect((await alertsOf(domain.id)).map((a) => a.code)).toEqual(["dns-missing"]);
    const page = words(await (await session.get(`/client/domains/${domain.id}`)).text());
    expect(page).toContain(`${name} does not exist in the DNS`);
    expect(page).toContain("does not exist in the DNS (no such name), so there is no mail to check");

    await healthy(name);
    await db()
      .update(watchedDomains)
      .set({ nextCheckAt: at(1) })
      .where(eq(watchedDomains.id, domain.id));
    await run(clientId, 1);
    const [cleared] = await alertsOf(domain.id);
    expect(cleared).toMatchObject({ clearedNote: `${name} is found in the DNS again.` });
  });

  it("gives the owner every domain by urgency, a filter, and check now; clients get 404 there", async () => {
    const a = await signedIn(someone("Urgent Client"));
    await createSubscription(db(), { clientId: a.id, anchorDay: at(0).toISOString().slice(0, 10) });
    await healthy("urgent-watch.com", 5);
    expect((await a.session.post("/client/domains", { name: "urgent-watch.com" })).status).toBe(302);
    await run(a.id, 0);
    const owner = await signedIn({ ...someone("Owner Domains"), role: "admin" });
    const list = words(await (await owner.session.get("/admin/domains?problem=cert")).text());
    expect(list).toContain("urgent-watch.com");
    expect(list).toContain("5 days");
    expect(list).not.toContain("first-watch.com");
    const domain = await domainOf(a.id, "urgent-watch.com");
    const checkNow = await owner.session.post("/admin/domains", { domainId: domain.id });
    expect(checkNow.status).toBe(200);
    expect(words(await checkNow.text())).toContain("urgent-watch.com checked.");
    const history = await db().select().from(domainChecks).where(eq(domainChecks.domainId, domain.id));
    expect(history.map((h) => h.trigger).sort()).toEqual(["owner", "schedule"]);
    // The schedule is kept by the owner's check.
    expect((await domainOf(a.id, "urgent-watch.com")).nextCheckAt.getTime()).toBe(at(1).getTime());
    expect((await owner.session.post("/admin/domains", { domainId: "not-a-uuid" })).status).toBe(400);
    expect((await a.session.get("/admin/domains")).status).toBe(404);

    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/portico_domain_checks_total\{[^}]*outcome="done"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/portico_domain_alerts_raised_total\{[^}]*\} [1-9]/);

    // The export names the domain and its alerts; the deletion removes them.
    const exported = await domainsForExport(db(), a.id);
    expect(exported).toEqual([
      expect.objectContaining({
        name: "urgent-watch.com",
        alerts: expect.arrayContaining([
          expect.objectContaining({ title: expect.stringMatching(/expires in 5 days/) }),
        ]),
      }),
    ]);
    const removed = await a.session.post(`/client/domains/${domain.id}`, { intent: "remove" });
    expect(location(removed)).toBe("/client/domains");
    expect(
      await db()
        .select()
        .from(domainAlerts)
        .where(and(eq(domainAlerts.clientId, a.id), isNull(domainAlerts.clearedAt))),
    ).toEqual([]);
  });
});
