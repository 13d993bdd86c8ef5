/**
 * Asking for a quote (issue "quotes", item 1) through the real HTTP server: the home page's #quote form
 * without JavaScript (a plain POST answered with the page), stored first with the owner's notification
 * and the requester's confirmation queued; the honeypot, validation (400, the form refilled) and rate
 * limits (429); a signed-in client's request from /client/quotes/new, listed on their /client/quotes
 * and on no one else's; the back office's list. Issue 35, item 5: the confirmation repeats nothing
 * typed, addresses of one IPv6 /64 count as one, an hourly cap for the whole site, and a signed-in
 * client's request always uses the account's email.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { accountsOn } from "../support/accounts";
import { Session, text } from "../support/browserless";
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
      QUOTE_REQUESTS_PER_HOUR: "20",
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

  it("the confirmation repeats nothing typed (no name, text, company or budget), the owner's notice has it all", async () => {
    const spam = {
      name: "Cheap Pills Online",
      email: "victim.inbox@example.com",
      company: "Visit spam.example now",
      description: "BUY CHEAP PILLS at https://spam.example/buy",
      budget: "FREE MONEY",
    };
    const res = await postHome(newSession(), request("spam", spam), ["Email Migration & Setup"]);
    expect(res.status).toBe(200);
    const [confirmation] = await rows<{ subject: string; text: string; html: string }>(
      sql`select subject, text, html from outbox_emails where kind = 'quote-request-confirmation' and to_address = ${spam.email}`,
    );
    expect(confirmation!.subject).toBe("We received your quote request");
    expect(confirmation!.text).toContain("Thank you for your quote request.");
    for (const typed of ["Cheap Pills", "CHEAP PILLS", "spam.example", "FREE MONEY"]) {
      expect(confirmation!.text, typed).not.toContain(typed);
      expect(confirmation!.html, typed).not.toContain(typed);
    }
    const [notice] = await rows<{ text: string }>(
      sql`select text from outbox_emails where kind = 'quote-request-notification' and reply_to like ${`%${spam.email}%`}`,
    );
    for (const typed of ["Cheap Pills Online", "BUY CHEAP PILLS", "Visit spam.example now", "FREE MONEY"])
      expect(notice!.text, typed).toContain(typed);
  });

  it("counts every address of one IPv6 /64 as one address, and another /64 apart", async () => {
    const statuses: number[] = [];
    const addresses = [
      "2001:db8:35:1::1",
      "2001:db8:35:1::2",
      "2001:db8:35:1:ffff:1:2:3",
      "2001:DB8:35:1::9",
    ];
    for (const [i, address] of addresses.entries()) {
      const res = await postHome(new Session(server.url, address), request(`six${i}`), []);
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another /64 is counted apart.
    expect(
      (await postHome(new Session(server.url, "2001:db8:35:2::1"), request("six-other"), [])).status,
    ).toBe(200);
  });

  it("caps the requests of the whole site per hour with a clear 429, storing and sending nothing", async () => {
    // The hour's cap (QUOTE_REQUESTS_PER_HOUR = 20 here) already used by others.
    await db().execute(
      sql`insert into rate_limits (key, window_started_at, hits) values ('quote:site', now(), 20)
          on conflict (key) do update set window_started_at = now(), hits = 20`,
    );
    try {
      const res = await postHome(newSession(), request("busy"), []);
      expect(res.status).toBe(429);
      const html = await res.text();
      expect(text(html)).toContain(
        `We are receiving an unusual number of quote requests. Please try again in an hour, or write to us at ${OWNER}.`,
      );
      // Nothing typed is lost.
      expect(html).toContain("Hopper Logistics");
      const stored = await rows<{ n: number }>(
        sql`select count(*)::int as n from quote_requests where email = 'grace.busy@example.com'`,
      );
      expect(stored[0]!.n).toBe(0);
      const mails = await rows<{ n: number }>(
        sql`select count(*)::int as n from outbox_emails where to_address = 'grace.busy@example.com'`,
      );
      expect(mails[0]!.n).toBe(0);
    } finally {
      await db().execute(sql`delete from rate_limits where key = 'quote:site'`);
    }
    expect((await postHome(newSession(), request("after-busy"), [])).status).toBe(200);
  });

  it("a signed-in client's request uses the account's email: shown read-only, another posted address not believed", async () => {
    const { id, session } = await signedIn({ email: "own.address@example.com", name: "Owen Address" });
    const form = await (await session.get("/client/quotes/new")).text();
    expect(form).toMatch(/<input[^>]*name="email"[^>]*readOnly=""|<input[^>]*readOnly=""[^>]*name="email"/i);
    expect(form).toContain('value="own.address@example.com"');
    const res = await session.post("/client/quotes/new", {
      intent: "quote",
      name: "Owen Address",
      email: "someone.else@example.com",
      description: "Please quote a move to a new host.",
    });
    expect(res.status).toBe(200);
    expect(text(await res.text())).toContain(
      "A confirmation email has been sent to <strong>own.address@example.com</strong>.",
    );
    const stored = await rows<{ email: string; client_id: string }>(
      sql`select email, client_id from quote_requests where description = 'Please quote a move to a new host.'`,
    );
    expect(stored).toEqual([{ email: "own.address@example.com", client_id: id }]);
    const toOther = await rows<{ n: number }>(
      sql`select count(*)::int as n from outbox_emails where to_address = 'someone.else@example.com'`,
    );
    expect(toOther[0]!.n).toBe(0);
    const toOwn = await rows<{ n: number }>(
      sql`select count(*)::int as n from outbox_emails where kind = 'quote-request-confirmation' and to_address = 'own.address@example.com'`,
    );
    expect(toOwn[0]!.n).toBe(1);
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
