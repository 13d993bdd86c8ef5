/**
 * Notices that lead somewhere (issue 37, item 5; ADR 0515), through the real HTTP server with the sandbox
 * provider: one payment raises one client notice, linked to its order; the owner hears of a new paid
 * order, a new quote request and a quote's acceptance in words, with dates written out (never ISO);
 * every notice the flows raise (payments, status changes, messages, an overdue invoice, quotes and a
 * balance invoice) leads to a page that answers 200 for its recipient and 404 for another client; the
 * notifications page keeps and pages older notices, each user's own; the migration gives old notices
 * without a link one.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { markOverdueInvoices } from "~/features/invoices/overdue.server";
import { SANDBOX_SIGNATURE_HEADER, signSandboxPayload } from "~/features/payments/sandbox.server";
import type { QuoteDeps } from "~/features/quotes/quote-deps.server";
import { saveDraft } from "~/features/quotes/quote-drafts.server";
import { sendQuote } from "~/features/quotes/quote-sending.server";
import { accountsOn } from "../support/accounts";
import { location, type Session, text } from "../support/browserless";
import { checkoutTokenIn } from "../support/clients";
import { testDatabases } from "../support/databases";
import { freePort, startTestServer, type TestServer } from "../support/server";

const SECRET = "sandbox-notice-secret-0123456789";
const DAY = 24 * 60 * 60 * 1000;
const ISO_MOMENT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
/** "Nov 27, 2026, 17:58 UTC": the back office's moments (ADR 0521). */
const WRITTEN_MOMENT = /on [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} UTC\.$/;

interface Notice {
  id: string;
  title: string;
  message: string;
  href: string | null;
}

describe.each(testDatabases)("notices that lead somewhere on $name", (database) => {
  let server: TestServer;
  let admin: Session;
  let adminId: string;
  let n = 0;
  const { db, signedIn } = accountsOn(
    () => server,
    (i) => `198.51.120.${i}`,
  );
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);
  const noticesOf = (userId: string) =>
    rows<Notice>(
      sql`select id, title, message, href from notifications where user_id = ${userId} order by created_at, id`,
    );
  const newestOf = async (userId: string) => (await noticesOf(userId)).at(-1)!;
  const owner = (): QuoteDeps => ({
    db: db(),
    config: server.portico.runtime.config,
    actor: { id: adminId, email: "owner.notices@example.com" },
  });

  beforeAll(async () => {
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PUBLIC_URL: `http://127.0.0.1:${await freePort()}`,
      SANDBOX_WEBHOOK_SECRET: SECRET,
      BUSINESS_EMAIL: "business.notices@example.com",
    });
    ({ id: adminId, session: admin } = await signedIn({
      email: "owner.notices@example.com",
      name: "Owner",
      role: "admin",
    }));
  });
  afterAll(async () => {
    await server?.close();
  });

  async function client(name = "Ada Notice") {
    const email = `notice.${++n}.${Date.now()}@example.com`;
    return { email, name, ...(await signedIn({ email, name })) };
  }

  /** Buys 20 mailboxes of the email migration ($80.00) through the purchase page: the order's id. */
  async function buy(session: Session): Promise<{ orderId: string; invoiceId: string; number: string }> {
    const page = await session.get("/client/purchase/email-migration");
    const res = await session.post("/client/purchase/email-migration", {
      checkoutToken: checkoutTokenIn(await page.text()),
      package: "basic",
      quantity: "20",
      currency: "USD",
    });
    expect(location(res)).toMatch(/^\/payments\/sandbox\/checkout/);
    const [made] = await rows<{ order_id: string; id: string; invoice_number: string }>(
      sql`select order_id, id, invoice_number from invoices order by created_at desc limit 1`,
    );
    return { orderId: made!.order_id, invoiceId: made!.id, number: made!.invoice_number };
  }

  /** The sandbox provider's signed webhook: the checkout of `orderId` was paid. */
  async function pay(orderId: string, amount: number) {
    const body = JSON.stringify({
      id: `evt_${orderId}_${amount}`,
      type: "checkout.completed",
      data: { session_id: `cs_${orderId}`, order_id: orderId, amount, currency: "USD" },
    });
    const res = await fetch(`${server.url}/api/payments/sandbox/webhook`, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(SECRET, body),
      },
    });
    expect(await res.json()).toMatchObject({ outcome: "applied" });
  }

  /** A quote from the owner to `to`, sent: its id. */
  async function sentQuote(to: { email: string; name: string }): Promise<string> {
    const [service] = await rows<{ id: string }>(sql`select id from services where slug = 'email-migration'`);
    const draft = await saveDraft(owner(), null, {
      name: to.name,
      email: to.email,
      company: null,
      lines: [{ kind: "catalogue", serviceId: service!.id, package: "basic", quantity: 50 }],
      depositPercent: 50,
      validUntil: new Date(Date.now() + 14 * DAY).toISOString().slice(0, 10),
      terms: "Work starts within five business days of the deposit.",
    });
    const id = (draft as { id: string }).id;
    expect(await sendQuote(owner(), id)).toMatchObject({ ok: true });
    return id;
  }

  function message(session: Session, path: string, body: string) {
    const form = new FormData();
    form.set("intent", "message");
    form.set("body", body);
    return session.postMultipart(path, form);
  }

  it("a sandbox payment raises one client notice, linked to its order; the owner hears of the paid order in words", async () => {
    const ada = await client("Ada Notice");
    const bought = await buy(ada.session);
    // The checkout's own invoice is not announced: the payment's notice tells it all.
    expect(await noticesOf(ada.id)).toEqual([]);
    await pay(bought.orderId, 80);

    const notices = await noticesOf(ada.id);
    expect(notices.map(({ title, message, href }) => ({ title, message, href }))).toEqual([
      {
        title: "Payment Received",
        message: `Payment Confirmed: Invoice ${bought.number} has been paid. Your order is being processed.`,
        href: `/client/orders/${bought.orderId}`,
      },
    ]);
    const page = await ada.session.get(notices[0]!.href!);
    expect(page.status).toBe(200);
    expect(text(await page.text())).toContain(bought.number);

    const ownerNotice = await newestOf(adminId);
    expect(ownerNotice).toMatchObject({ title: "New Paid Order", href: `/admin/orders/${bought.orderId}` });
    expect(ownerNotice.message).toMatch(/^Ada Notice paid \$80\.00 for Email Migration & Setup \(.+\) on /);
    expect(ownerNotice.message).toMatch(WRITTEN_MOMENT);
    expect(ownerNotice.message).not.toMatch(ISO_MOMENT);
    expect((await admin.get(ownerNotice.href!)).status).toBe(200);
  });

  it("a quote request and a quote's acceptance reach the owner in plain words, with dates written out", async () => {
    const grace = await client("Grace Asker");
    const asked = await grace.session.post("/client/quotes/new", {
      intent: "quote",
      name: "Grace Asker",
      description: "Please quote moving 40 mailboxes.",
      website: "",
    });
    expect(asked.status).toBe(200);
    const [request] = await rows<{ id: string }>(
      sql`select id from quote_requests where client_id = ${grace.id} order by created_at desc limit 1`,
    );
    const asking = await newestOf(adminId);
    expect(asking).toMatchObject({
      title: "New Quote Request",
      href: `/admin/quotes/new?request=${request!.id}`,
    });
    expect(asking.message).toMatch(/^Grace Asker asked for a quote \(something else\) on /);
    expect(asking.message).toMatch(WRITTEN_MOMENT);
    const writeIt = await admin.get(asking.href!);
    expect(writeIt.status).toBe(200);
    expect(text(await writeIt.text())).toContain("Please quote moving 40 mailboxes.");

    const quoteId = await sentQuote(grace);
    const accepted = await grace.session.post(`/client/quotes/${quoteId}`, {
      intent: "accept",
      terms: "on",
      signature: "Grace Asker",
    });
    expect(accepted.status).toBe(302);
    const acceptance = await newestOf(adminId);
    expect(acceptance).toMatchObject({ href: `/admin/quotes/${quoteId}` });
    expect(acceptance.title).toMatch(/^Quote Q-\d{4}-\d{4,} accepted$/);
    expect(acceptance.message).toMatch(WRITTEN_MOMENT);
    // No owner notice anywhere carries an ISO timestamp.
    for (const notice of await noticesOf(adminId)) expect(notice.message).not.toMatch(ISO_MOMENT);
  });

  it("every notice the flows raise leads to a page that answers 200 for its recipient and 404 for another client", async () => {
    const before = new Set([...(await noticesOf(adminId))].map((x) => x.id));
    const bea = await client("Bea Flows");
    const other = await client("Otto Other");

    // A purchase, paid; the owner moves it on and completes it; both sides write on it.
    const first = await buy(bea.session);
    await pay(first.orderId, 80);
    for (const to of ["in_progress", "completed"]) {
      const res = await admin.post(`/admin/orders/${first.orderId}`, { to, note: "" });
      expect(res.status, to).toBe(200);
    }
    expect((await message(admin, `/admin/orders/${first.orderId}`, "We are done.")).status).toBe(200);
    expect((await message(bea.session, `/client/orders/${first.orderId}`, "Thank you!")).status).toBe(200);
    // A second purchase, never paid, goes overdue; a third is cancelled by the owner.
    await buy(bea.session);
    await markOverdueInvoices(db(), new Date(Date.now() + 60 * DAY));
    const third = await buy(bea.session);
    expect((await admin.post(`/admin/orders/${third.orderId}`, { to: "cancelled", note: "" })).status).toBe(
      200,
    );
    // A quote: sent, accepted, its deposit paid, the order completed (the balance invoice), paid.
    const quoteId = await sentQuote(bea);
    await bea.session.post(`/client/quotes/${quoteId}`, {
      intent: "accept",
      terms: "on",
      signature: "Bea Flows",
    });
    const [deposit] = await rows<{ order_id: string; total_amount: string }>(
      sql`select i.order_id, i.total_amount from invoices i join quotes q on q.order_id = i.order_id where q.id = ${quoteId}`,
    );
    await pay(deposit!.order_id, Number(deposit!.total_amount));
    for (const to of ["in_progress", "completed"]) {
      expect((await admin.post(`/admin/orders/${deposit!.order_id}`, { to, note: "" })).status, to).toBe(200);
    }

    const clientNotices = await noticesOf(bea.id);
    expect(new Set(clientNotices.map((x) => x.title))).toEqual(
      new Set([
        "Payment Received",
        "Order Update",
        "New Message",
        "Invoice Overdue",
        "New Quote",
        "New Invoice",
      ]),
    );
    // One payment, one notice: two payments here.
    expect(clientNotices.filter((x) => x.title === "Payment Received")).toHaveLength(2);
    for (const notice of clientNotices) {
      expect(notice.href, notice.title).toMatch(/^\/client\//);
      expect(`${notice.title} → ${(await bea.session.get(notice.href!)).status}`).toBe(
        `${notice.title} → 200`,
      );
      expect((await other.session.get(notice.href!)).status, notice.title).toBe(404);
    }
    const ownerNotices = (await noticesOf(adminId)).filter((x) => !before.has(x.id));
    expect(new Set(ownerNotices.map((x) => x.title.replace(/Q-\S+/, "Q")))).toEqual(
      new Set(["New Paid Order", "New Message", "Quote Q accepted"]),
    );
    for (const notice of ownerNotices) {
      expect(notice.href, notice.title).toMatch(/^\/admin\//);
      expect(`${notice.title} → ${(await admin.get(notice.href!)).status}`).toBe(`${notice.title} → 200`);
      expect((await other.session.get(notice.href!)).status, notice.title).toBe(404);
    }
  });

  it("the bell shows each notice's time and link, and See all leads to the notifications page, paged and the user's own", async () => {
    const cara = await client("Cara Pages");
    const dan = await client("Dan Elsewhere");
    // 55 notices an hour apart (the newest first on the page), and one of Dan's.
    await db().execute(sql`insert into notifications (user_id, title, message, href, created_at)
      select ${cara.id}, 'Notice ' || g, 'Message number ' || g || '.', '/client/orders',
        timestamptz '2026-03-01 12:00:00+00' + make_interval(hours => g)
      from generate_series(1, 55) g`);
    await db().execute(
      sql`insert into notifications (user_id, title, message, href) values (${dan.id}, 'Dan only', 'Not for Cara.', null)`,
    );

    const dashboard = text(await (await cara.session.get("/client/dashboard")).text());
    expect(dashboard).toContain('href="/client/notifications"');
    expect(dashboard).toContain("See all notifications");
    // The newest, as a link, with its time in the account's zone (New York by default).
    const links = [...dashboard.matchAll(/<a ([^>]*data-notice[^>]*)>((?:(?!<\/a>).)*)<\/a>/gs)];
    expect(links).toHaveLength(10);
    const newest = links.find((m) => m[2]!.includes(">Notice 55<"));
    expect(newest?.[1]).toContain('href="/client/orders"');
    expect(newest?.[2]).toMatch(
      /<time datetime="2026-03-03T19:00:00.000Z"[^>]*>Mar 3, 2026, 14:00 EST<\/time>/i,
    );

    const first = await cara.session.get("/client/notifications");
    expect(first.status).toBe(200);
    const one = text(await first.text());
    expect(one).toContain("Showing 1–50 of 55 notifications (page 1 of 2)");
    expect(one).toContain(">Notice 55<");
    expect(one).toContain(">Notice 6<");
    expect(one).not.toContain(">Notice 5<");
    expect(one).toContain('href="/client/notifications?page=2"');
    expect(one).not.toContain("Dan only");
    const two = text(await (await cara.session.get("/client/notifications?page=2")).text());
    expect(two).toContain("Showing 51–55 of 55 notifications (page 2 of 2)");
    expect(two).toContain(">Notice 1<");
    expect(two.indexOf(">Notice 5<")).toBeLessThan(two.indexOf(">Notice 1<"));
    expect(two).not.toContain(">Notice 6<");

    // Dan's own page: his notice, with no link stored, leads to the notifications page itself.
    const dans = text(await (await dan.session.get("/client/notifications")).text());
    expect(dans).toContain("Dan only");
    expect(dans).not.toContain("Notice 55");
    // Marking read and removing are the user's own: Dan cannot touch Cara's.
    const [caras] = await rows<{ id: string }>(
      sql`select id from notifications where user_id = ${cara.id} limit 1`,
    );
    expect(
      (await dan.session.post("/client/notifications", { intent: "remove", id: caras!.id })).status,
    ).toBe(404);
    expect((await cara.session.post("/client/notifications", { intent: "read-all" })).status).toBe(200);
    const [unread] = await rows<{ n: number }>(
      sql`select count(*)::int as n from notifications where user_id = ${cara.id} and not read`,
    );
    expect(unread!.n).toBe(0);
    // The owner's page is the back office's; a client gets 404 there.
    expect((await cara.session.get("/admin/notifications")).status).toBe(404);
    const ownerPage = await admin.get("/admin/notifications");
    expect(ownerPage.status).toBe(200);
    const ownerHtml = text(await ownerPage.text());
    expect(ownerHtml).not.toContain("Notice 55");
    expect(ownerHtml).toContain("New Paid Order");
  });

  it("the migration gives old notices without a link the page of the object they name, or a list", async () => {
    const eve = await client("Eve Old");
    const bought = await buy(eve.session);
    await db().execute(sql`insert into notifications (user_id, title, message, href) values
      (${eve.id}, 'New Invoice', ${`Invoice ${bought.number} has been created.`}, null),
      (${eve.id}, 'Order Update', 'Payment confirmed! Your order is being processed.', null),
      (${eve.id}, 'Something', 'Something else.', null),
      (${adminId}, 'Old owner notice', 'Something happened.', null)`);
    const migration = readFileSync(
      path.join(import.meta.dirname, "../../drizzle/0021_notification_links.sql"),
      "utf8",
    );
    for (const statement of migration.split("--> statement-breakpoint"))
      await db().execute(sql.raw(statement));
    const hrefs = await rows<{ title: string; href: string }>(
      sql`select title, href from notifications where user_id in (${eve.id}, ${adminId}) and title in ('New Invoice', 'Order Update', 'Something', 'Old owner notice') order by title`,
    );
    expect(hrefs).toEqual([
      { title: "New Invoice", href: `/client/invoice/${bought.invoiceId}` },
      { title: "Old owner notice", href: "/admin/notifications" },
      { title: "Order Update", href: "/client/orders" },
      { title: "Something", href: "/client/notifications" },
    ]);
    for (const { title, href } of hrefs.filter((h) => h.href.startsWith("/client/")))
      expect((await eve.session.get(href)).status, title).toBe(200);
  });
});
