/**
 * Valid HTML on the signed-in pages (issue 37, item 15; docs/decisions/0107-valid-markup-check.md): the
 * server-rendered HTML of the client's and the owner's pages, each read once from one seeded server,
 * has none of the errors the HTML standard defines (content model, attributes and their values,
 * autocomplete tokens, ids), as checked by html-validate with the rules of tests/support/markup.ts.
 * The W3C Nu validator had found a <details> after the <figcaption> of the owner's revenue chart,
 * autocomplete="street-address" on the profile's one-line input, and maxlength on the quote request's
 * date input, and this check a <ul> inside the purchase page's package <label>: each fails this test.
 * The markup does not depend on the database: PGlite only.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { clients, contactMessages, domainAlerts, quoteRequests, watchedDomains } from "~/db/schema";
import { coveredIncidentOffers, orderCoveredIncident } from "~/features/plans/covered-incidents.server";
import { addDays, calendarDayOf } from "~/features/plans/periods";
import type { QuoteDeps } from "~/features/quotes/quote-deps.server";
import { type DraftInput, saveDraft } from "~/features/quotes/quote-drafts.server";
import { sendQuote } from "~/features/quotes/quote-sending.server";
import { accountsOn } from "../support/accounts";
import { createOrder } from "../support/admin-fixtures";
import type { Session } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { report as domainReport } from "../support/domain-reports";
import { markupErrors } from "../support/markup";
import { declinedPlan } from "../support/plan-declines";
import { subscribedWithPeriod } from "../support/plan-periods";
import { createSubscription } from "../support/plans";
import { startTestServer, type TestServer } from "../support/server";

const pglite = testDatabases.find((d) => d.name === "pglite")!;

describe("valid markup (and named recipients) on the signed-in pages", () => {
  let server: TestServer;
  let client: Session;
  let admin: Session;
  const pages: { who: "client" | "owner"; path: string }[] = [];
  const { db, signedIn } = accountsOn(
    () => server,
    (i) => `198.51.137.${i}`,
  );

  beforeAll(async () => {
    server = await startTestServer(pglite, { TRUST_PROXY: "loopback" });
    ({ session: admin } = await signedIn({
      email: "owner.markup@example.com",
      name: "Owner",
      role: "admin",
    }));
    const { id: clientId, session } = await signedIn({
      email: "ada.markup@example.com",
      name: "Ada Lovelace",
    });
    client = session;
    const order = await createOrder(db(), clientId, { status: "paid" });
    const [service] = await queryRows<{ id: string; slug: string }>(
      db(),
      sql`select id, slug from services where slug = 'email-migration'`,
    );
    const owner: QuoteDeps = {
      db: db(),
      config: server.portico.runtime.config,
      actor: { id: null, email: "owner.markup@example.com" },
    };
    const draft = (name: string): DraftInput => ({
      name,
      email: "ada.markup@example.com",
      company: "Analytical Engines",
      lines: [
        { kind: "free", description: "Mailbox cut-over", quantity: 1, unitPrice: "300.00" },
        { kind: "catalogue", serviceId: service!.id, package: "basic", quantity: 20 },
      ],
      depositPercent: 50,
      validUntil: new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10),
      terms: "Work starts within five business days of the deposit.",
    });
    const sent = await saveDraft(owner, null, draft("Ada Lovelace"));
    const sentId = (sent as { id: string }).id;
    expect(await sendQuote(owner, sentId)).toMatchObject({ ok: true });
    const unsent = await saveDraft(owner, null, draft("Ada Lovelace"));
    const draftId = (unsent as { id: string }).id;
    const [message] = await db()
      .insert(contactMessages)
      .values({
        name: "Vi",
        email: "vi.markup@example.com",
        subject: "Hosting",
        message: "Hello there",
        source: "site",
      })
      .returning({ id: contactMessages.id });
    await db()
      .insert(quoteRequests)
      .values({
        clientId,
        name: "Ada Lovelace",
        email: "ada.markup@example.com",
        services: ["Email Migration"],
        description: "Move twenty mailboxes.",
        deadline: "2027-01-15",
        source: "portal",
      });

    // A care plan with incidents left (issue 38, item 6): the covered offer, and an order it covered.
    await subscribedWithPeriod(db(), server.portico.runtime.config, { clientId, allowance: 3 });
    const [ada] = await db().select().from(clients).where(eq(clients.id, clientId));
    const [offer] = await coveredIncidentOffers(db(), clientId, "per-incident-support");
    const covered = await orderCoveredIncident(
      { db: db(), config: server.portico.runtime.config },
      {
        client: ada!,
        serviceRouteId: "per-incident-support",
        periodId: offer!.periodId,
        checkoutToken: "markupCoveredToken01",
      },
    );
    if (!covered.ok) throw new Error(covered.error);

    for (const path of [
      "/client/purchase/per-incident-support",
      covered.redirectTo,
      "/client/dashboard",
      "/client/orders",
      `/client/orders/${order.orderId}`,
      "/client/invoices",
      `/client/invoice/${order.invoiceId}`,
      "/client/quotes",
      "/client/quotes/new",
      `/client/quotes/${sentId}`,
      "/client/profile",
      `/client/purchase/${service!.slug}`,
      // The free domain check (issue 39, item 6): a public page, seen here by a signed-in client.
      "/check",
    ])
      pages.push({ who: "client", path });
    // Watched domains (issue 39): one with a report and an open alert (its fix), one not yet checked.
    const [checkedDomain] = await db()
      .insert(watchedDomains)
      .values({
        clientId,
        name: "example.com",
        displayName: "example.com",
        lastCheckedAt: new Date(),
        lastVerdict: "warning",
        lastDaysLeft: 10,
        lastReport: domainReport(),
      })
      .returning({ id: watchedDomains.id });
    await db().insert(watchedDomains).values({ clientId, name: "example.org", displayName: "example.org" });
    await db().insert(domainAlerts).values({
      domainId: checkedDomain!.id,
      clientId,
      family: "cert:example.com",
      code: "cert-14",
      thresholdKey: "cert:example.com:2027-03-11:14",
      severity: "warning",
      title: "Certificate of example.com expires in 10 days",
      message: "The certificate of example.com expires on 11 March 2027 (in 10 days).",
      fix: "ssl",
      raisedAt: new Date(),
    });
    for (const path of ["/client/domains", `/client/domains/${checkedDomain!.id}`])
      pages.push({ who: "client", path });
    pages.push({ who: "owner", path: "/admin/domains" });
    // Care plans (issue 38): one renewing within 30 days, one past due (its renewal declined), one
    // cancelled with a reason, for every list of the owner's plans page, and a plan period's order page.
    const renewing = await createSubscription(db(), {
      clientId,
      anchorDay: addDays(calendarDayOf(new Date()), -10),
    });
    await createSubscription(db(), { clientId, anchorDay: "2090-01-01", status: "cancelled" });
    // The client's plan page and a change's preview (the cancel form with its reason).
    for (const path of [
      "/client/plans",
      `/client/plans/${renewing}/cancel`,
      `/client/plans/${renewing}/card`,
    ])
      pages.push({ who: "client", path });
    const declined = await declinedPlan(db(), server.portico.runtime.config, {
      clientId,
      dueDay: "2091-03-05",
      priceUsd: 99,
      decline: { code: "card_declined", declineCode: "stolen_card", message: "Your card was declined." },
    });
    for (const path of [
      "/admin/plans",
      `/admin/orders/${declined.orderId}`,
      `/admin/orders/${covered.orderId}`,
      "/admin/dashboard",
      "/admin/orders",
      `/admin/orders/${order.orderId}`,
      "/admin/invoices",
      `/admin/invoices/${order.invoiceId}`,
      "/admin/quotes",
      "/admin/quotes/new",
      `/admin/quotes/${draftId}`,
      "/admin/clients",
      `/admin/clients/${clientId}`,
      "/admin/messages",
      `/admin/messages/${message!.id}`,
    ])
      pages.push({ who: "owner", path });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it("has none of the HTML standard's errors on the client's and the owner's pages", async () => {
    const found: string[] = [];
    for (const { who, path } of pages) {
      const res = await (who === "client" ? client : admin).get(path);
      expect(res.status, `${who} ${path}`).toBe(200);
      for (const error of await markupErrors(await res.text())) found.push(`${path} ${error}`);
    }
    expect(found).toEqual([]);
  });

  it("queues the emails of those records with their recipient's name, for a To: in brackets", async () => {
    const queued = await queryRows<{ kind: string; to_address: string; to_name: string | null }>(
      db(),
      sql`select kind, to_address, to_name from outbox_emails order by created_at`,
    );
    expect(queued).toContainEqual({
      kind: "quote",
      to_address: "ada.markup@example.com",
      to_name: "Ada Lovelace",
    });
    for (const email of queued) expect(email.to_name, email.kind).toBeTruthy();
  });
});
