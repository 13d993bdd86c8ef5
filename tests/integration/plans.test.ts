/**
 * Care plans through the real HTTP handler (issue 38, item 1; ADR 0530): the seeded plans on /plans,
 * the home page and the four service pages, in the visitor's currency; the owner creates, edits and
 * deactivates a plan (each with its audit row, the public pages following at once); visitors and
 * clients get the back office's 404; hostile input gets a 4xx with its message and changes nothing.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { SERVICES_WITH_PLANS } from "~/features/plans/plans";
import { accountsOn } from "../support/accounts";
import { location, type Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { markupErrors } from "../support/markup";
import { startTestServer, type TestServer } from "../support/server";

const EUROPE = { headers: { "accept-language": "de-DE,de;q=0.9" } };

const form = (over: Record<string, string> = {}) => ({
  intent: "save",
  name: "Care Test",
  slug: "",
  description: "A plan made by the integration test.",
  included: "Monthly check\nSSL watch",
  monthlyPrice: "25",
  yearlyPrice: "250",
  incidentAllowance: "2",
  watchedDomains: "3",
  sortOrder: "5",
  active: "on",
  ...over,
});

describe.each(testDatabases)("care plans on $name", (database) => {
  let server: TestServer;
  const { db, newSession, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.100.${60 + n}`,
  );
  let admin: Session;
  let client: Session;
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);
  const planBySlug = async (slug: string) =>
    (
      await rows<{ id: string; name: string; monthly_price_usd: string | null; active: boolean }>(
        sql`select id, name, monthly_price_usd, active from care_plans where slug = ${slug}`,
      )
    )[0];

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
    admin = (await signedIn({ email: "plans.owner@example.com", name: "Owner", role: "admin" })).session;
    client = (await signedIn({ email: "plans.client@example.com", name: "Ada Client" })).session;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it("shows the seeded plans on /plans in the visitor's currency, with the USD beneath", async () => {
    const res = await server.get("/plans", EUROPE);
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const [name, monthly, yearly] of [
      ["Care Essentials", 49, 490],
      ["Care Plus", 129, 1290],
    ] as const) {
      expect(text(html)).toContain(name);
      expect(html).toMatch(new RegExp(`data-price-usd="${monthly}" data-currency="EUR">[^<]*€`));
      expect(html).toMatch(new RegExp(`data-price-usd="${yearly}" data-currency="EUR">[^<]*€`));
    }
    expect(text(html)).toContain("Yearly: 2 months free");
    expect(text(html)).toContain("3 support incidents per period");
    expect(text(html)).toContain("5 domains watched");
    expect(html).toContain('href="/client/plans/subscribe/care-essentials?cycle=monthly"');
    expect(html).toContain('href="/client/plans/subscribe/care-plus?cycle=yearly"');
    expect(html).toMatch(/data-price-usd-beneath="true">\$49\.00(<!-- -->)? USD/);
    expect(text(html)).toContain('<link rel="canonical" href="http://127.0.0.1/plans"/>');
    expect(await markupErrors(html)).toEqual([]);
    expect(await (await server.get("/sitemap.xml")).text()).toContain("http://127.0.0.1/plans</loc>");
  });

  it("shows the plans on the home page and on the service pages where a plan fits, and links Care Plans", async () => {
    const home = await (await server.get("/", EUROPE)).text();
    expect(home).toContain('id="plans"');
    expect(home).toMatch(/data-price-usd="129" data-currency="EUR"/);
    expect(home).toContain('href="/plans"');
    expect(text(home)).toContain("Care Plans");
    for (const slug of ["email-migration", ...SERVICES_WITH_PLANS]) {
      const html = await (await server.get(`/services/${slug}`)).text();
      expect(html.includes("Covered by a care plan"), slug).toBe(SERVICES_WITH_PLANS.includes(slug as never));
    }
  });

  it("lets the owner create, edit and deactivate a plan, with an audit row each, and the site follows", async () => {
    const list = await admin.get("/admin/plans");
    expect(list.status).toBe(200);
    const listed = text(await list.text());
    expect(listed).toContain("Care Essentials");
    expect(listed).toContain("$1,290.00");
    expect(await markupErrors(await (await admin.get("/admin/plans/new")).text())).toEqual([]);

    const created = await admin.post("/admin/plans/new", form());
    expect(created.status).toBe(302);
    const plan = await planBySlug("care-test");
    expect(plan).toMatchObject({ name: "Care Test", active: true });
    expect(location(created)).toBe(`/admin/plans/${plan!.id}?created`);
    const editor = await (await admin.get(location(created)!)).text();
    expect(text(editor)).toContain("The plan is created.");
    expect(await markupErrors(editor)).toEqual([]);
    expect(text(await (await server.get("/plans")).text())).toContain("Care Test");

    const edited = await admin.post(
      `/admin/plans/${plan!.id}`,
      form({ slug: "care-test", monthlyPrice: "27.50" }),
    );
    expect(edited.status).toBe(200);
    expect(Number((await planBySlug("care-test"))!.monthly_price_usd)).toBe(27.5);
    expect(await (await server.get("/plans")).text()).toContain('data-price-usd="27.5"');

    const off = await admin.post(`/admin/plans/${plan!.id}`, { intent: "deactivate" });
    expect(off.status).toBe(200);
    expect((await planBySlug("care-test"))!.active).toBe(false);
    expect(text(await (await server.get("/plans")).text())).not.toContain("Care Test");
    expect(text(await (await admin.get("/admin/plans")).text())).toContain("Inactive");

    const audit = await rows<{ action: string; actor_email: string; before: unknown; after: unknown }>(
      sql`select action, actor_email, before, after from audit_log where entity_id = ${plan!.id} order by at, id`,
    );
    expect(audit.map((a) => a.action)).toEqual(["plan.create", "plan.update", "plan.deactivate"]);
    expect(audit.every((a) => a.actor_email === "plans.owner@example.com")).toBe(true);
    expect(audit[1]!.before).toMatchObject({ monthlyPriceUsd: 25 });
    expect(audit[1]!.after).toMatchObject({ monthlyPriceUsd: 27.5 });
    expect(text(await (await admin.get("/admin/audit")).text())).toContain("Care plan Care Test edited");
  });

  it("gives visitors and clients the back office's 404 on every plan page and action, changing nothing", async () => {
    const plan = await planBySlug("care-plus");
    for (const [who, session] of [
      ["visitor", newSession()],
      ["client", client],
    ] as const) {
      for (const path of ["/admin/plans", "/admin/plans/new", `/admin/plans/${plan!.id}`]) {
        expect((await session.get(path)).status, `${who} GET ${path}`).toBe(404);
      }
      expect((await session.post("/admin/plans/new", form({ name: "Hacked" }))).status).toBe(404);
      expect((await session.post(`/admin/plans/${plan!.id}`, { intent: "deactivate" })).status).toBe(404);
    }
    expect((await planBySlug("care-plus"))!.active).toBe(true);
    expect(await planBySlug("hacked")).toBeUndefined();
  });

  it("answers hostile input with a 4xx and a clear message, and keeps what was typed", async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ name: "", description: "", included: "" }, "name", "Enter the plan&#x27;s name"],
      [{ incidentAllowance: "-1" }, "incidentAllowance", "The incident allowance cannot be negative"],
      [{ monthlyPrice: "1e9" }, "monthlyPrice", "Enter a price in US dollars, e.g. 49 or 49.50"],
      [
        { monthlyPrice: "", yearlyPrice: "" },
        "monthlyPrice",
        "Enter a monthly price, a yearly price, or both",
      ],
      [{ yearlyPrice: "999999999" }, "yearlyPrice", "The price must be at most 100000 USD"],
      [{ slug: "../etc" }, "slug", "Use lowercase letters, digits and hyphens, e.g. care-plus"],
    ];
    for (const [over, field, message] of cases) {
      const res = await admin.post("/admin/plans/new", form({ name: "Hostile Plan", ...over }));
      expect(res.status, field).toBe(400);
      const html = await res.text();
      expect(html, field).toContain(message);
      // Nothing typed is lost: the description comes back in its field.
      if (over.description === undefined) expect(html).toContain("A plan made by the integration test.");
    }
    // An address another plan has: 409, on that field.
    const taken = await admin.post("/admin/plans/new", form({ slug: "care-plus" }));
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("Another plan already uses this address");
    expect((await admin.post("/admin/plans/new", { intent: "nonsense" })).status).toBe(400);
    expect((await admin.get("/admin/plans/not-a-uuid")).status).toBe(404);
    expect((await admin.get("/admin/plans/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect(await planBySlug("hostile-plan")).toBeUndefined();

    // A 10 MB body is refused before it is read.
    const huge = await fetch(new URL("/admin/plans/new", server.url), {
      method: "POST",
      redirect: "manual",
      body: `name=${"x".repeat(10 * 1024 * 1024)}`,
      headers: {
        cookie: admin.cookieHeader,
        origin: server.url,
        "content-type": "application/x-www-form-urlencoded",
      },
    });
    expect(huge.status).toBe(413);
    const [{ count }] = (await rows<{ count: string }>(sql`select count(*) as count from care_plans`)) as [
      { count: string },
    ];
    expect(Number(count)).toBe(3);
  });

  it("keeps the database's own rules: a price is needed and allowances are not negative", async () => {
    await expect(
      db().execute(
        sql`insert into care_plans (slug, name, description) values ('no-price', 'No price', 'No price at all')`,
      ),
    ).rejects.toThrow();
    await expect(
      db().execute(
        sql`insert into care_plans (slug, name, description, monthly_price_usd, incident_allowance) values ('neg', 'Neg', 'Negative', 10, -1)`,
      ),
    ).rejects.toThrow();
  });
});
