/**
 * Asking for a quote (issue "quotes", item 1) through the real HTTP server: the home page's #quote form
 * without JavaScript (a plain POST answered with the page), stored first with the owner's notification
 * and the requester's confirmation queued; the honeypot, validation (400, the form refilled) and rate
 * limits (429); a signed-in client's request from /client/quotes/new, listed on their /client/quotes
 * and on no one else's; the back office's list.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { accountsOn } from "../support/accounts";
import { text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

const OWNER = "owner.quotes@example.com";

describe.each(testDatabases)("quote requests on $name", (database) => {
  let server: TestServer;
  const { db, newSession, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.103.${n}`,
  );
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);

  beforeAll(async () => {
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      BUSINESS_EMAIL: OWNER,
      CONTACT_RATE_LIMIT_PER_HOUR: "3",
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const request = (who: string, extra: Record<string, string> = {}) => ({
    intent: "quote",
    name: `Grace ${who}`,
    email: `grace.${who}@example.com`,
    company: "Hopper Logistics",
    description: "Migrate 400 mailboxes and our SharePoint from on-premises Exchange.",
    budget: "$9,000",
    deadline: "2027-03-31",
    website: "",
    ...extra,
  });

  /** Posts the home page's form as a browser without JavaScript does (services: several boxes). */
  function postHome(
    session: ReturnType<typeof newSession>,
    fields: Record<string, string>,
    services: string[],
  ) {
    const body = new URLSearchParams(fields);
    for (const s of services) body.append("services", s);
    return session.post("/?index", body);
  }

  it("the home page has a real quote form in #quote, and a post without JavaScript stores it and queues both emails", async () => {
    const s = newSession();
    const home = await (await s.get("/")).text();
    expect(home).toMatch(/id="quote"/);
    expect(home).toContain('name="intent" value="quote"');
    expect(home).toContain('value="Email Migration &amp; Setup"');

    const res = await postHome(s, request("one"), ["Email Migration & Setup", "Cloud Data Migration"]);
    expect(res.status).toBe(200);
    const page = text(await res.text());
    expect(page).toContain("Quote Request Received!");
    expect(page).toContain("A confirmation email has been sent to <strong>grace.one@example.com</strong>.");
    const [stored] = await rows<{
      name: string;
      company: string;
      services: string[];
      deadline: string;
      source: string;
      client_id: string | null;
      status: string;
    }>(
      sql`select name, company, services, deadline::text, source, client_id, status from quote_requests where email = 'grace.one@example.com'`,
    );
    expect(stored).toEqual({
      name: "Grace one",
      company: "Hopper Logistics",
      services: ["Email Migration & Setup", "Cloud Data Migration"],
      deadline: "2027-03-31",
      source: "site",
      client_id: null,
      status: "new",
    });
    const mails = await rows<{ kind: string; to_address: string; subject: string }>(
      sql`select kind, to_address, subject from outbox_emails where kind like 'quote-request-%' and (to_address = 'grace.one@example.com' or subject like '%Grace one%') order by kind`,
    );
    expect(mails).toEqual([
      {
        kind: "quote-request-confirmation",
        to_address: "grace.one@example.com",
        subject: "We received your quote request",
      },
      { kind: "quote-request-notification", to_address: OWNER, subject: "Quote request from Grace one" },
    ]);
  });

  it("refuses what it cannot take with the form refilled, drops bots, and limits floods", async () => {
    const before = (await rows<{ n: number }>(sql`select count(*)::int as n from quote_requests`))[0]!.n;
    const s = newSession();
    for (const [fields, services, message] of [
      [{ description: "" }, [], "Please fill in your name, email and a description of the work."],
      [{ email: "not-an-email" }, [], "Please enter a valid email address."],
      [{ deadline: "2027-02-30" }, [], "Enter the deadline as a date (YYYY-MM-DD)."],
      [{}, ["Rocket Science"], "Choose services from the list."],
    ] as const) {
      const res = await postHome(s, request("bad", fields), [...services]);
      expect(res.status, message).toBe(400);
      const html = await res.text();
      expect(text(html)).toContain(message);
      // The form keeps what was typed.
      expect(html).toContain("Hopper Logistics");
    }
    // A bot filling the honeypot is told all went well; nothing is kept.
    const bot = await postHome(s, request("bot", { website: "https://spam.example" }), []);
    expect(bot.status).toBe(200);
    expect((await rows<{ n: number }>(sql`select count(*)::int as n from quote_requests`))[0]!.n).toBe(
      before,
    );

    // Three an hour per address (this session's address is its own).
    const flood = newSession();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await postHome(flood, request(`flood${i}`), [])).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("a signed-in client asks from /client/quotes/new, prefilled, and sees it on /client/quotes; another client does not", async () => {
    const { id, session } = await signedIn({ email: "ada.quotes@example.com", name: "Ada Quotes" });
    const form = await (await session.get("/client/quotes/new")).text();
    expect(form).toContain('value="Ada Quotes"');
    expect(form).toContain('value="ada.quotes@example.com"');
    const res = await session.post("/client/quotes/new", {
      intent: "quote",
      name: "Ada Quotes",
      email: "ada.quotes@example.com",
      description: "SSL rollout over 30 domains with automatic renewal.",
      services: "SSL & HTTPS Setup",
    });
    expect(res.status).toBe(200);
    expect(text(await res.text())).toContain("Quote Request Received!");
    const [row] = await rows<{ client_id: string; source: string }>(
      sql`select client_id, source from quote_requests where email = 'ada.quotes@example.com'`,
    );
    expect(row).toEqual({ client_id: id, source: "portal" });
    const list = text(await (await session.get("/client/quotes")).text());
    expect(list).toContain("SSL rollout over 30 domains");
    expect(list).toContain("SSL & HTTPS Setup");

    const { session: other } = await signedIn({ email: "bob.quotes@example.com", name: "Bob Quotes" });
    const theirs = text(await (await other.get("/client/quotes")).text());
    expect(theirs).not.toContain("SSL rollout over 30 domains");
    expect(theirs).toContain("You have not asked for a quote yet.");
    // The dashboard's Custom Quote goes to the new request.
    expect(await (await other.get("/client/dashboard")).text()).toContain('href="/client/quotes/new"');
  });

  it("the owner sees every request in the back office; a client gets 404 there", async () => {
    const { session: admin } = await signedIn({ email: OWNER, name: "Owner", role: "admin" });
    const page = text(await (await admin.get("/admin/quotes?q=grace.one")).text());
    expect(page).toContain("grace.one@example.com");
    expect(page).toContain("Migrate 400 mailboxes");
    expect(page).toContain("Email Migration & Setup, Cloud Data Migration");
    const { session: client } = await signedIn({ email: "eve.quotes@example.com", name: "Eve" });
    expect((await client.get("/admin/quotes")).status).toBe(404);
    expect((await newSession().get("/client/quotes")).status).toBe(302);
  });
});
