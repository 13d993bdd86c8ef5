/**
 * The client's side of quotes (issue "quotes", items 3-5) through the real HTTP server with the built-in
 * sandbox provider: a sent quote listed and shown with its terms before the accept form; accepting
 * (the terms ticked, the full name typed) stores the signature with the time and the address and goes
 * straight to the sandbox's checkout, whose payment makes the order paid; accepting twice, also at
 * once, makes one order; an expired or superseded quote is refused; a decline tells the owner; a 30%
 * deposit of an odd total and its balance add up to the cent, the balance issued when the owner
 * completes the order and paid through Pay Now and the webhook; the scheduled expiry; another client
 * gets 404 on every quote route; a quote sent before its addressee registered is theirs once they do.
 * The owner's quotes are made with the owner's own functions (saveDraft, sendQuote).
 */
import { sql } from "drizzle-orm";
import { PDFParse } from "pdf-parse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { acquireLease, releaseLease } from "~/features/jobs/leases.server";
import type { QuoteDeps } from "~/features/quotes/quote-deps.server";
import { type DraftInput, reviseQuote, saveDraft } from "~/features/quotes/quote-drafts.server";
import { QUOTE_EXPIRY_LEASE, runQuoteExpiry } from "~/features/quotes/quote-expiry.server";
import { sendQuote } from "~/features/quotes/quote-sending.server";
import { accountsOn } from "../support/accounts";
import { location, type Session, text } from "../support/browserless";
import { signedInClient } from "../support/clients";
import { testDatabases } from "../support/databases";
import { freePort, startTestServer, type TestServer } from "../support/server";

const OWNER = "owner.quotes-client@example.com";
const TERMS =
  "Work starts within five business days of the deposit.\nChanges to the scope are quoted separately.";
const DAY = 24 * 60 * 60 * 1000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

async function pdfText(res: Response): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(await res.arrayBuffer()) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

describe.each(testDatabases)("the client's quotes on $name", (database) => {
  let server: TestServer;
  let admin: Session;
  let adminId: string;
  let serviceId: string;
  let n = 0;
  const { db, signedIn } = accountsOn(
    () => server,
    (i) => `198.51.111.${i}`,
  );
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);
  const owner = (): QuoteDeps => ({
    db: db(),
    config: server.portico.runtime.config,
    actor: { id: null, email: "owner@example.com" },
  });

  beforeAll(async () => {
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PUBLIC_URL: `http://127.0.0.1:${await freePort()}`,
      BUSINESS_EMAIL: OWNER,
      TAX_RATE_PERCENT: "8.25",
    });
    ({ id: adminId, session: admin } = await signedIn({
      email: "admin.quotes-client@example.com",
      name: "Owner",
      role: "admin",
    }));
    const [service] = await rows<{ id: string }>(sql`select id from services where slug = 'email-migration'`);
    serviceId = service!.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A signed-in client, from the next session's address (accountsOn numbers them; the admin's is 1). */
  let sessions = 1;
  async function client(name = "Grace Hopper") {
    const email = `grace.${++n}.${Date.now()}@example.com`;
    const { id, session } = await signedIn({ email, name });
    return { id, email, name, session, ip: `198.51.111.${++sessions}` };
  }

  /** The owner's draft for `to`, sent (the quote's id and number). */
  async function sentQuote(
    to: { email: string; name: string },
    extra: Partial<DraftInput> = {},
    sentAt?: Date,
  ): Promise<{ id: string; number: string }> {
    const draft = await saveDraft(owner(), null, {
      name: to.name,
      email: to.email,
      company: "Hopper Logistics",
      lines: [
        {
          kind: "free",
          description: "Exchange to Microsoft 365 cut-over",
          quantity: 1,
          unitPrice: "1200.00",
        },
        { kind: "catalogue", serviceId, package: "basic", quantity: 20 },
      ],
      depositPercent: 30,
      validUntil: isoDay(new Date(Date.now() + 14 * DAY)),
      terms: TERMS,
      ...extra,
    } satisfies DraftInput);
    expect(draft.ok).toBe(true);
    const id = (draft as { id: string }).id;
    const sent = await sendQuote(owner(), id, sentAt);
    expect(sent).toMatchObject({ ok: true });
    const [row] = await rows<{ quote_number: string }>(sql`select quote_number from quotes where id = ${id}`);
    return { id, number: row!.quote_number };
  }

  const accept = (s: Session, id: string, signature = "Grace Hopper") =>
    s.post(`/client/quotes/${id}`, { intent: "accept", terms: "on", signature });

  /** Pays a sandbox checkout the way its page's Pay button does. */
  async function paySandbox(s: Session, checkout: string) {
    const token = new URL(checkout, server.url).searchParams.get("session")!;
    const paid = await s.post("/payments/sandbox/checkout", { session: token, intent: "pay" });
    expect(paid.status).toBe(302);
  }

  async function quoteRow(id: string) {
    const [row] = await rows<{
      status: string;
      client_id: string | null;
      accepted_name: string | null;
      accepted_ip: string | null;
      accepted_user_agent: string | null;
      accepted_at: Date | null;
      order_id: string | null;
      decline_reason: string | null;
      total_usd: string;
    }>(
      sql`select status, client_id, accepted_name, accepted_ip, accepted_user_agent, accepted_at, order_id,
            decline_reason, total_usd::text from quotes where id = ${id}`,
    );
    return row!;
  }

  async function invoicesOf(orderId: string) {
    return rows<{
      id: string;
      invoice_number: string;
      kind: string;
      status: string;
      subtotal: string;
      tax_amount: string;
      total_amount: string;
    }>(
      sql`select id, invoice_number, kind, status, subtotal::text, tax_amount::text, total_amount::text
          from invoices where order_id = ${orderId} order by created_at, invoice_seq`,
    );
  }

  it("lists a sent quote, shows it with its terms before the accept form, and accepting goes to the checkout; paying makes the order paid", async () => {
    const c = await client();
    const q = await sentQuote(c);
    // The client was told: the bell (linking to the quote), a live event, an email.
    const [told] = await rows<{ bell: number; live: number; mail: number }>(
      sql`select (select count(*)::int from notifications where user_id = ${c.id} and title = 'New Quote'
                    and href = ${`/client/quotes/${q.id}`}) as bell,
                 (select count(*)::int from live_events where user_id = ${c.id} and kind = 'quote'
                    and entity_id = ${q.id}) as live,
                 (select count(*)::int from outbox_emails where to_address = ${c.email} and kind = 'quote'
                    and subject = ${`Your quote ${q.number}`}) as mail`,
    );
    expect(told).toEqual({ bell: 1, live: 1, mail: 1 });

    const list = text(await (await c.session.get("/client/quotes")).text());
    expect(list).toContain(`href="/client/quotes/${q.id}"`);
    expect(list).toContain(q.number);
    // $1,200 + 20 × $4 = $1,280; tax 8.25% = $105.60; total $1,385.60.
    expect(list).toContain("$1,385.60");

    const res = await c.session.get(`/client/quotes/${q.id}`);
    expect(res.status).toBe(200);
    const page = text(await res.text());
    expect(page).toContain(`Quote ${q.number}`);
    expect(page).toContain("Exchange to Microsoft 365 cut-over");
    expect(page).toContain("Email Migration & Setup");
    expect(page).toContain("Per Mailbox");
    for (const amount of ["$1,200.00", "$4.00", "$80.00", "$1,280.00", "$105.60", "$1,385.60"])
      expect(page).toContain(amount);
    // 30% of $1,385.60 = $415.68 now; $969.92 when the work is complete.
    expect(page).toContain("Deposit on acceptance (30%)");
    expect(page).toContain("$415.68");
    expect(page).toContain("$969.92");
    // The terms in full, before the accept form.
    const terms = page.indexOf("Work starts within five business days of the deposit.");
    expect(terms).toBeGreaterThan(0);
    expect(page).toContain("Changes to the scope are quoted separately.");
    expect(terms).toBeLessThan(page.indexOf('name="terms"'));
    expect(page.indexOf('name="terms"')).toBeLessThan(page.indexOf('name="signature"'));
    expect(page).toContain("I accept the terms above");
    expect(page).toContain("Your full name (signature)");
    expect(page).toContain(`href="/client/quotes/${q.id}/pdf"`);

    // Without the box ticked, or without a name: refused, nothing made.
    const unticked = await c.session.post(`/client/quotes/${q.id}`, { intent: "accept", signature: "Grace" });
    expect(unticked.status).toBe(400);
    expect(text(await unticked.text())).toContain("Tick the box to accept the terms.");
    const unsigned = await c.session.post(`/client/quotes/${q.id}`, { intent: "accept", terms: "on" });
    expect(unsigned.status).toBe(400);
    expect(text(await unsigned.text())).toContain("Type your full name as your signature.");
    // A character the database cannot store is the field's error, not a failed insert.
    const nul = await c.session.post(`/client/quotes/${q.id}`, {
      intent: "accept",
      terms: "on",
      signature: "Grace\u0000Hopper",
    });
    expect(nul.status).toBe(400);
    expect(text(await nul.text())).toContain("The name contains a character that is not allowed.");
    expect((await quoteRow(q.id)).status).toBe("sent");

    const before = Date.now();
    const accepted = await accept(c.session, q.id);
    expect(accepted.status).toBe(302);
    const checkout = location(accepted);
    expect(checkout).toMatch(/^\/payments\/sandbox\/checkout\?session=/);
    const row = await quoteRow(q.id);
    expect(row).toMatchObject({
      status: "accepted",
      client_id: c.id,
      accepted_name: "Grace Hopper",
      // X-Forwarded-For, from a trusted proxy (loopback).
      accepted_ip: c.ip,
    });
    expect(row.accepted_user_agent).toBeTruthy();
    expect(new Date(row.accepted_at!).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const [order] = await rows<{ id: string; status: string; quote_id: string; client_id: string }>(
      sql`select id, status, quote_id, client_id from orders where quote_id = ${q.id}`,
    );
    expect(order).toMatchObject({ id: row.order_id, status: "pending", client_id: c.id });
    expect(await invoicesOf(order!.id)).toMatchObject([
      { kind: "deposit", status: "sent", subtotal: "384.00", tax_amount: "31.68", total_amount: "415.68" },
    ]);
    // The owner was told (email, bell), and the audit log has the signature.
    const [ownerTold] = await rows<{ mail: number; bell: number; audit: number }>(
      sql`select (select count(*)::int from outbox_emails where to_address = ${OWNER} and kind = 'quote-owner'
                    and subject = ${`Quote ${q.number} accepted`}) as mail,
                 (select count(*)::int from notifications where user_id = ${adminId}
                    and title = ${`Quote ${q.number} accepted`}) as bell,
                 (select count(*)::int from audit_log where action = 'quote.accept' and entity_id = ${q.id}
                    and after->>'signature' = 'Grace Hopper' and after->>'ip' = ${c.ip}) as audit`,
    );
    expect(ownerTold).toEqual({ mail: 1, bell: 1, audit: 1 });

    // The sandbox's checkout is for the deposit; paying it makes the order and the invoice paid.
    const sandbox = text(await (await c.session.get(checkout)).text());
    expect(sandbox).toContain("$415.68");
    await paySandbox(c.session, checkout);
    const [paid] = await rows<{ status: string }>(sql`select status from orders where id = ${order!.id}`);
    expect(paid!.status).toBe("paid");
    const [deposit] = await invoicesOf(order!.id);
    expect(deposit!.status).toBe("paid");
    const [receipt] = await rows<{ n: number }>(
      sql`select count(*)::int as n from outbox_emails where to_address = ${c.email} and kind = 'payment-receipt'`,
    );
    expect(receipt!.n).toBe(1);

    // The quote now says who accepted it and links to the order and its invoice; no forms.
    const after = text(await (await c.session.get(`/client/quotes/${q.id}`)).text());
    expect(after).toContain("Accepted by <strong>Grace Hopper</strong>");
    expect(after).toContain(`href="/client/orders/${order!.id}"`);
    expect(after).toContain(`href="/client/invoice/${deposit!.id}"`);
    expect(after).toContain(`Deposit invoice ${deposit!.invoice_number}`);
    expect(after).not.toContain('name="signature"');
    // The order's page lists the quote's lines and links to it.
    const orderPage = text(await (await c.session.get(`/client/orders/${order!.id}`)).text());
    expect(orderPage).toContain("The work quoted");
    expect(orderPage).toContain("Exchange to Microsoft 365 cut-over");
    expect(orderPage).toContain("Email Migration & Setup — Per Mailbox");
    expect(orderPage).toContain(`href="/client/quotes/${q.id}"`);

    // The PDF: the quote, its amounts, its terms, the acceptance.
    const pdf = await c.session.get(`/client/quotes/${q.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toBe(`attachment; filename="${q.number}.pdf"`);
    const pdfBody = await pdfText(pdf);
    for (const part of [q.number, "Exchange to Microsoft 365 cut-over", "$1,385.60", "$415.68", "$969.92"])
      expect(pdfBody).toContain(part);
    expect(pdfBody).toContain("Work starts within five business days of the deposit.");
    expect(pdfBody).toContain("Accepted by Grace Hopper");
    // The owner's copy.
    const ownerPdf = await admin.get(`/admin/quotes/${q.id}/pdf`);
    expect(ownerPdf.status).toBe(200);
    expect(await pdfText(ownerPdf)).toContain(q.number);
  });

  it("accepting twice, and twice at once, makes one order and one invoice", async () => {
    const c = await client();
    const q = await sentQuote(c);
    const [first, second] = await Promise.all([accept(c.session, q.id), accept(c.session, q.id)]);
    for (const res of [first, second]) {
      expect(res.status).toBe(302);
      expect(location(res)).toMatch(/^\/payments\/sandbox\/checkout\?session=/);
    }
    const again = await accept(c.session, q.id, "Someone Else");
    expect(again.status).toBe(302);
    const orders = await rows<{ id: string }>(sql`select id from orders where quote_id = ${q.id}`);
    expect(orders).toHaveLength(1);
    expect(await invoicesOf(orders[0]!.id)).toHaveLength(1);
    // The signature is the first acceptance's.
    expect((await quoteRow(q.id)).accepted_name).toBe("Grace Hopper");
    const [audits] = await rows<{ n: number }>(
      sql`select count(*)::int as n from audit_log where action = 'quote.accept' and entity_id = ${q.id}`,
    );
    expect(audits!.n).toBe(1);
    // Once paid, accepting again finds nothing to pay and shows the invoice.
    await paySandbox(c.session, location(first));
    const paidAgain = await accept(c.session, q.id);
    expect(location(paidAgain)).toBe(`/client/invoice/${(await invoicesOf(orders[0]!.id))[0]!.id}`);
  });

  it("refuses an expired quote (409, its message) and a superseded one; neither shows the forms", async () => {
    const c = await client();
    const yesterday = isoDay(new Date(Date.now() - DAY));
    const old = await sentQuote(c, { validUntil: yesterday }, new Date(Date.now() - 3 * DAY));
    const refused = await accept(c.session, old.id);
    expect(refused.status).toBe(409);
    const page = text(await refused.text());
    expect(page).toContain(`Quote ${old.number} cannot be accepted: it expired on ${yesterday}.`);
    expect(await rows(sql`select id from orders where quote_id = ${old.id}`)).toEqual([]);
    const shown = text(await (await c.session.get(`/client/quotes/${old.id}`)).text());
    expect(shown).toContain("This quote expired: it was valid until");
    expect(shown).not.toContain('name="signature"');
    expect(shown).not.toContain('name="reason"');
    // Declining it is refused too.
    expect((await c.session.post(`/client/quotes/${old.id}`, { intent: "decline" })).status).toBe(409);

    const first = await sentQuote(c);
    const revision = await reviseQuote(owner(), first.id);
    expect(revision.ok).toBe(true);
    const second = await sendQuote(owner(), (revision as { id: string }).id);
    expect(second.ok).toBe(true);
    const superseded = await accept(c.session, first.id);
    expect(superseded.status).toBe(409);
    expect(text(await superseded.text())).toContain(
      `Quote ${first.number} cannot be accepted: a revised quote replaces it.`,
    );
    const replaced = text(await (await c.session.get(`/client/quotes/${first.id}`)).text());
    expect(replaced).toContain("A revised quote replaces this one.");
    expect(replaced).not.toContain('name="signature"');
    // The revision is open.
    const revised = text(
      await (await c.session.get(`/client/quotes/${(revision as { id: string }).id}`)).text(),
    );
    expect(revised).toContain('name="signature"');
  });

  it("declines with a reason: the owner is told, the audit log has it, and it cannot be accepted after", async () => {
    const c = await client();
    const q = await sentQuote(c);
    const nul = await c.session.post(`/client/quotes/${q.id}`, { intent: "decline", reason: "No\u0000" });
    expect(nul.status).toBe(400);
    expect(text(await nul.text())).toContain("The reason contains a character that is not allowed.");
    expect((await quoteRow(q.id)).status).toBe("sent");
    const res = await c.session.post(`/client/quotes/${q.id}`, {
      intent: "decline",
      reason: "We found an in-house solution.",
    });
    expect(res.status).toBe(200);
    const page = text(await res.text());
    expect(page).toContain(`Quote ${q.number} is declined.`);
    expect(page).toContain("Reason: We found an in-house solution.");
    expect(page).not.toContain('name="signature"');
    expect(await quoteRow(q.id)).toMatchObject({
      status: "declined",
      decline_reason: "We found an in-house solution.",
    });
    const [mail] = await rows<{ subject: string; text: string }>(
      sql`select subject, text from outbox_emails where to_address = ${OWNER} and kind = 'quote-owner'
          and subject = ${`Quote ${q.number} declined`}`,
    );
    expect(mail!.text).toContain("Reason: We found an in-house solution.");
    const [audit] = await rows<{ actor_email: string; reason: string }>(
      sql`select actor_email, after->>'reason' as reason from audit_log
          where action = 'quote.decline' and entity_id = ${q.id}`,
    );
    expect(audit).toEqual({ actor_email: c.email, reason: "We found an in-house solution." });
    const [bell] = await rows<{ n: number }>(
      sql`select count(*)::int as n from notifications where user_id = ${adminId}
          and title = ${`Quote ${q.number} declined`}`,
    );
    expect(bell!.n).toBe(1);
    const late = await accept(c.session, q.id);
    expect(late.status).toBe(409);
    expect(text(await late.text())).toContain(`Quote ${q.number} cannot be accepted: it is declined.`);
  });

  it("a 30% deposit of an odd total and the balance add up to the cent; completing the order issues the balance, paid through Pay Now and the webhook", async () => {
    const c = await client();
    // 3 × $333.37 = $1,000.11; tax 8.25% = $82.509075 → $82.51; total $1,082.62.
    const q = await sentQuote(c, {
      lines: [{ kind: "free", description: "Rollout over 30 domains", quantity: 3, unitPrice: "333.37" }],
    });
    expect((await quoteRow(q.id)).total_usd).toBe("1082.62");
    const accepted = await accept(c.session, q.id);
    await paySandbox(c.session, location(accepted));
    const orderId = (await quoteRow(q.id)).order_id!;
    // 30% of $1,082.62 = $324.786 → $324.79, of which tax 30% of $82.51 = $24.753 → $24.75.
    expect(await invoicesOf(orderId)).toMatchObject([
      { kind: "deposit", status: "paid", subtotal: "300.04", tax_amount: "24.75", total_amount: "324.79" },
    ]);

    // The owner starts and completes the work: the balance invoice is issued, the client told.
    const path = `/admin/orders/${orderId}`;
    expect((await admin.post(path, { intent: "transition", to: "in_progress", note: "" })).status).toBe(200);
    expect((await admin.post(path, { intent: "transition", to: "completed", note: "" })).status).toBe(200);
    const [deposit, balance] = await invoicesOf(orderId);
    expect(balance).toMatchObject({
      kind: "balance",
      status: "sent",
      subtotal: "700.07",
      tax_amount: "57.76",
      total_amount: "757.83",
    });
    const cents = (v: string) => Math.round(Number(v) * 100);
    for (const part of ["subtotal", "tax_amount", "total_amount"] as const)
      expect(cents(deposit![part]) + cents(balance![part])).toBe(
        { subtotal: 100011, tax_amount: 8251, total_amount: 108262 }[part],
      );
    const [told] = await rows<{ n: number }>(
      sql`select count(*)::int as n from notifications where user_id = ${c.id} and title = 'New Invoice'
          and href = ${`/client/invoice/${balance!.id}`}`,
    );
    expect(told!.n).toBe(1);
    const [completed] = await rows<{ status: string }>(sql`select status from orders where id = ${orderId}`);
    expect(completed!.status).toBe("completed");

    // Pay Now on the balance: the sandbox's checkout for $757.83; its webhook marks it paid.
    const pay = await c.session.post(`/client/invoices/${balance!.id}/pay`, {});
    expect(pay.status).toBe(302);
    const checkout = location(pay);
    expect(checkout).toMatch(/^\/payments\/sandbox\/checkout\?session=/);
    expect(text(await (await c.session.get(checkout)).text())).toContain("$757.83");
    await paySandbox(c.session, checkout);
    const [, paidBalance] = await invoicesOf(orderId);
    expect(paidBalance!.status).toBe("paid");
    const [still] = await rows<{ status: string }>(sql`select status from orders where id = ${orderId}`);
    expect(still!.status).toBe("completed");
    const receipts = await rows<{ text: string }>(
      sql`select text from outbox_emails where to_address = ${c.email} and kind = 'payment-receipt'
          order by created_at`,
    );
    expect(receipts).toHaveLength(2);
    expect(receipts[1]!.text).toContain(balance!.invoice_number);
  });

  it("the scheduled expiry expires a sent quote past its day and tells both sides, once, one process at a time", async () => {
    const c = await client();
    const yesterday = isoDay(new Date(Date.now() - DAY));
    const q = await sentQuote(c, { validUntil: yesterday }, new Date(Date.now() - 3 * DAY));
    const open = await sentQuote(c);
    const deps = { db: db(), config: server.portico.runtime.config };

    // Another process holds the lease: this one does nothing.
    const now = new Date();
    expect(await acquireLease(db(), QUOTE_EXPIRY_LEASE, "another-process", now, 60_000)).toBe(true);
    expect(await runQuoteExpiry(deps, { now })).toEqual({ ran: false, expired: 0 });
    expect((await quoteRow(q.id)).status).toBe("sent");
    await releaseLease(db(), QUOTE_EXPIRY_LEASE, "another-process");

    const run = await runQuoteExpiry(deps);
    expect(run.ran).toBe(true);
    expect(run.expired).toBeGreaterThanOrEqual(1);
    expect((await quoteRow(q.id)).status).toBe("expired");
    expect((await quoteRow(open.id)).status).toBe("sent");
    expect(await runQuoteExpiry(deps)).toEqual({ ran: true, expired: 0 });
    const [told] = await rows<{
      bell: number;
      mail: number;
      owner: number;
      ownerBell: number;
      audit: number;
    }>(
      sql`select (select count(*)::int from notifications where user_id = ${c.id} and title = 'Quote Expired'
                    and href = ${`/client/quotes/${q.id}`}) as bell,
                 (select count(*)::int from outbox_emails where to_address = ${c.email}
                    and subject = ${`Quote ${q.number} has expired`}) as mail,
                 (select count(*)::int from outbox_emails where to_address = ${OWNER}
                    and subject = ${`Quote ${q.number} expired`}) as owner,
                 (select count(*)::int from notifications where user_id = ${adminId}
                    and title = ${`Quote ${q.number} expired`}) as "ownerBell",
                 (select count(*)::int from audit_log where action = 'quote.expire' and entity_id = ${q.id}) as audit`,
    );
    expect(told).toEqual({ bell: 1, mail: 1, owner: 1, ownerBell: 1, audit: 1 });
    const page = text(await (await c.session.get(`/client/quotes/${q.id}`)).text());
    expect(page).toContain("Expired");
    expect(page).not.toContain('name="signature"');
  });

  it("another client gets 404 on every quote route and its PDF; a draft is never shown; the owner's PDF is the owner's only", async () => {
    const a = await client("Ada Owner");
    const b = await client("Bea Other");
    const q = await sentQuote(a);
    const draft = await saveDraft(owner(), null, {
      name: a.name,
      email: a.email,
      lines: [{ kind: "free", description: "Draft work", quantity: 1, unitPrice: "10" }],
      validUntil: isoDay(new Date(Date.now() + 7 * DAY)),
      terms: TERMS,
    });
    const draftId = (draft as { id: string }).id;

    for (const path of [`/client/quotes/${q.id}`, `/client/quotes/${q.id}/pdf`]) {
      const res = await b.session.get(path);
      expect(res.status, path).toBe(404);
      const body = await res.text();
      expect(body).not.toContain(q.number);
      expect(body).not.toContain(a.email);
    }
    for (const fields of [
      { intent: "accept", terms: "on", signature: "Bea Other" } as Record<string, string>,
      { intent: "accept" },
      { intent: "decline", reason: "Not mine" },
      { intent: "other" },
    ]) {
      const res = await b.session.post(`/client/quotes/${q.id}`, fields);
      expect(res.status, JSON.stringify(fields)).toBe(404);
      expect(await res.text()).not.toContain(q.number);
    }
    expect(await quoteRow(q.id)).toMatchObject({ status: "sent", client_id: a.id });
    expect(text(await (await b.session.get("/client/quotes")).text())).not.toContain(q.number);
    // A draft, a malformed and an unknown id: 404 for its own client too.
    for (const id of [draftId, "not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      expect((await a.session.get(`/client/quotes/${id}`)).status, id).toBe(404);
      expect((await a.session.get(`/client/quotes/${id}/pdf`)).status, id).toBe(404);
      expect((await a.session.post(`/client/quotes/${id}`, { intent: "decline" })).status, id).toBe(404);
    }
    expect(text(await (await a.session.get("/client/quotes")).text())).not.toContain(draftId);
    // The owner's PDF route: 404 for clients, the owner's own for the owner (a draft too).
    expect((await a.session.get(`/admin/quotes/${q.id}/pdf`)).status).toBe(404);
    expect((await admin.get(`/admin/quotes/${draftId}/pdf`)).status).toBe(200);
    expect((await admin.get("/admin/quotes/not-a-uuid/pdf")).status).toBe(404);
  });

  it("a quote sent to an address before anyone registered with it is theirs once they do", async () => {
    const email = `newcomer.${Date.now()}@example.com`;
    const q = await sentQuote({ email, name: "Nia Newcomer" });
    // No account yet: the email asks them to create one.
    const [mail] = await rows<{ text: string }>(
      sql`select text from outbox_emails where to_address = ${email} and kind = 'quote'`,
    );
    expect(mail!.text).toContain("/client/register");
    expect((await quoteRow(q.id)).client_id).toBeNull();

    const nia = await signedInClient(server.url, db(), "Nia Newcomer", email);
    const list = text(await (await nia.session.get("/client/quotes")).text());
    expect(list).toContain(q.number);
    expect((await nia.session.get(`/client/quotes/${q.id}`)).status).toBe(200);
    const accepted = await accept(nia.session, q.id, "Nia Newcomer");
    expect(location(accepted)).toMatch(/^\/payments\/sandbox\/checkout\?session=/);
    expect(await quoteRow(q.id)).toMatchObject({ status: "accepted", client_id: nia.id });
  });
});
