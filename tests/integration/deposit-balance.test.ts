/**
 * Issue 37, items 2 and 4, through the real HTTP server with the sandbox provider (and the Stripe
 * provider against the fake Stripe API for the checkout's line): a $305 quote with a 50% deposit.
 * After only the deposit the order page says "Deposit paid $152.50 of $305.00" (not "Paid" alone), the
 * invoice page, both lists and the PDF call it a deposit, and the checkout's line says "Deposit". The
 * owner's completion issues the balance and queues exactly one email for it, even asked twice and
 * with the client's email switches off. The thank-you page after a payment names the service, the
 * invoice and its amount ("$152.50", "$10.00") from the database for a deposit, a balance and an
 * ordinary order, whatever the query says, and its Download Invoice is that invoice's PDF (another
 * client: 404).
 */
import { eq, sql } from "drizzle-orm";
import { PDFParse } from "pdf-parse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { orders } from "~/db/schema";
import { balanceOnCompletion } from "~/features/quotes/quote-balance.server";
import type { QuoteDeps } from "~/features/quotes/quote-deps.server";
import { saveDraft } from "~/features/quotes/quote-drafts.server";
import { sendQuote } from "~/features/quotes/quote-sending.server";
import { accountsOn } from "../support/accounts";
import { location, type Session, text } from "../support/browserless";
import { checkoutTokenIn } from "../support/clients";
import { testDatabases } from "../support/databases";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe";
import { freePort, startTestServer, type TestServer } from "../support/server";

const DAY = 24 * 60 * 60 * 1000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const DEPOSIT_THANKS =
  "Deposit received, thank you: the work can start. The balance will be invoiced on completion.";
const BALANCE_THANKS = "Balance received, thank you: your order is now paid in full.";
const FULL_THANKS = "Your payment was successful. Your order is being processed.";

/** The page's own content: what a reader sees of it (not the loader data's script). */
const mainOf = (html: string) => html.slice(html.indexOf("<main"), html.indexOf("</main>"));

async function pdfText(res: Response): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(await res.arrayBuffer()) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** The owner's quote for `to`: one line of $305.00, a 50% deposit, no tax; sent. */
async function sentQuote(deps: QuoteDeps, to: { email: string; name: string }) {
  const draft = await saveDraft(deps, null, {
    name: to.name,
    email: to.email,
    lines: [{ kind: "free", description: "Server move", quantity: 1, unitPrice: "305.00" }],
    depositPercent: 50,
    validUntil: isoDay(new Date(Date.now() + 14 * DAY)),
    terms: "Half now, half on completion.",
  });
  expect(draft.ok).toBe(true);
  const id = (draft as { id: string }).id;
  expect(await sendQuote(deps, id)).toMatchObject({ ok: true });
  return id;
}

describe.each(testDatabases)("deposits, balances and the thank-you page on $name", (database) => {
  let server: TestServer;
  let admin: Session;
  let n = 0;
  const { db, signedIn } = accountsOn(
    () => server,
    (i) => `198.51.112.${i}`,
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
      TAX_RATE_PERCENT: "0",
    });
    ({ session: admin } = await signedIn({
      email: `admin.deposit.${Date.now()}@example.com`,
      name: "Owner",
      role: "admin",
    }));
  });
  afterAll(async () => {
    await server?.close();
  });

  async function client(name = "Dana Deposit") {
    const email = `dana.${++n}.${Date.now()}@example.com`;
    const { id, session } = await signedIn({ email, name });
    return { id, email, name, session };
  }

  /** Pays a sandbox checkout as its Pay button does; answers the thank-you page's path. */
  async function paySandbox(s: Session, checkout: string): Promise<string> {
    const token = new URL(checkout, server.url).searchParams.get("session")!;
    const paid = await s.post("/payments/sandbox/checkout", { session: token, intent: "pay" });
    expect(paid.status).toBe(302);
    const success = await s.get(location(paid));
    return location(success);
  }

  const page = async (s: Session, path: string) => {
    const res = await s.get(path);
    expect(res.status).toBe(200);
    return text(await res.text());
  };

  const invoicesOf = (orderId: string) =>
    rows<{ id: string; invoice_number: string; kind: string; status: string }>(
      sql`select id, invoice_number, kind, status from invoices where order_id = ${orderId}
          order by created_at, invoice_seq`,
    );

  const balanceEmails = (email: string) =>
    rows<{ subject: string; text: string; to_name: string | null }>(
      sql`select subject, text, to_name from outbox_emails where to_address = ${email} and kind = 'invoice-balance'`,
    );

  it("a deposit-only quote: labelled a deposit everywhere, 'Deposit paid $152.50 of $305.00', and its thank-you page", async () => {
    const c = await client();
    const other = await client("Olga Other");
    const quoteId = await sentQuote(owner(), c);
    const accepted = await c.session.post(`/client/quotes/${quoteId}`, {
      intent: "accept",
      terms: "on",
      signature: c.name,
    });
    const checkout = location(accepted);
    // The checkout's line names the part paid.
    const sandbox = await page(c.session, checkout);
    expect(sandbox).toMatch(/Deposit: Custom work \(Q-\d{4}-\d+\)/);
    expect(sandbox).toContain("$152.50");

    const thanksPath = await paySandbox(c.session, checkout);
    expect(thanksPath).toMatch(/^\/thank-you\?type=payment&order_id=/);
    const [{ order_id: orderId }] = (await rows<{ order_id: string }>(
      sql`select order_id from quotes where id = ${quoteId}`,
    )) as [{ order_id: string }];
    const [deposit] = await invoicesOf(orderId);
    expect(deposit).toMatchObject({ kind: "deposit", status: "paid" });

    // The thank-you page: the deposit's sentence, the service, the invoice, "$152.50" (not "152.5").
    const thanks = await page(c.session, thanksPath);
    expect(thanksPath).toContain("amount=152.5");
    expect(thanks).toContain(DEPOSIT_THANKS);
    expect(thanks).toMatch(/Custom work \(Q-\d{4}-\d+\)/);
    expect(thanks).toContain("Deposit invoice");
    expect(thanks).toContain(deposit!.invoice_number);
    expect(thanks).toContain("$152.50");
    expect(thanks).toContain("$152.50, invoiced on completion");
    // The order's id is not shown (it once was, from the query).
    expect(mainOf(thanks)).not.toContain(`>${orderId}<`);
    const pdfHref = `/invoice/${deposit!.id}/pdf`;
    expect(thanks).toMatch(new RegExp(`href="${pdfHref}"[^>]*>Download Invoice`));
    const pdf = await c.session.get(pdfHref);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const pdfBody = await pdfText(pdf);
    expect(pdfBody).toContain("DEPOSIT INVOICE");
    expect(pdfBody).toContain(deposit!.invoice_number);
    expect((await other.session.get(pdfHref)).status).toBe(404);
    // Another client with the same link sees no facts of this order.
    const theirs = await page(other.session, thanksPath);
    expect(theirs).not.toContain(deposit!.invoice_number);
    expect(theirs).not.toContain("$152.50");
    expect(theirs).toContain('href="/client/invoices"');

    // The order page: the deposit paid of the whole, not "Paid" alone; the invoice named a deposit.
    const order = await page(c.session, `/client/orders/${orderId}`);
    expect(order).toContain("Deposit paid $152.50 of $305.00");
    expect(order).toContain("Balance $152.50 invoiced when the work is complete");
    expect(order).toContain(`Deposit invoice ${deposit!.invoice_number}`);

    // The invoice page, the client's list, the owner's list and the owner's invoice page.
    const invoicePage = await page(c.session, `/client/invoice/${deposit!.id}`);
    expect(invoicePage).toContain(`Deposit invoice ${deposit!.invoice_number}`);
    expect(invoicePage).toContain("the balance is invoiced when the work is complete");
    const list = await page(c.session, "/client/invoices");
    expect(list).toMatch(new RegExp(`${deposit!.invoice_number}<span[^>]*data-invoice-part="Deposit"`));
    const ownerList = await page(admin, `/admin/invoices?q=${deposit!.invoice_number}`);
    expect(ownerList).toContain('data-invoice-part="Deposit"');
    expect(await page(admin, `/admin/invoices/${deposit!.id}`)).toContain(
      `Deposit invoice ${deposit!.invoice_number}`,
    );
    expect(await page(admin, `/admin/clients/${c.id}`)).toContain('data-invoice-part="Deposit"');
    // Every list of orders says what the order page says: "Deposit paid", not "Paid".
    const depositBadge = /data-status="paid"[^>]*>Deposit paid</;
    for (const [who, path] of [
      [c.session, "/client/orders"],
      [c.session, "/client/dashboard"],
      [c.session, "/client/search?q=Custom"],
      [admin, `/admin/orders?q=${encodeURIComponent(c.email)}`],
      [admin, `/admin/clients/${c.id}`],
    ] as const) {
      expect(await page(who, path), path).toMatch(depositBadge);
    }
    // No email about the deposit's invoice beyond the receipt; the balance is not issued yet.
    expect(await balanceEmails(c.email)).toHaveLength(0);
  });

  it("completing the order issues the balance and emails it once (asked twice, switches off); paying it says so", async () => {
    const c = await client("Bram Balance");
    // The client turned every email switch off: an invoice is a billing document and still goes.
    await db().execute(
      sql`insert into user_preferences (user_id, email_notifications, order_updates)
          values (${c.id}, false, false)
          on conflict (user_id) do update set email_notifications = false, order_updates = false`,
    );
    const quoteId = await sentQuote(owner(), c);
    const accepted = await c.session.post(`/client/quotes/${quoteId}`, {
      intent: "accept",
      terms: "on",
      signature: c.name,
    });
    await paySandbox(c.session, location(accepted));
    const [{ order_id: orderId }] = (await rows<{ order_id: string }>(
      sql`select order_id from quotes where id = ${quoteId}`,
    )) as [{ order_id: string }];

    const path = `/admin/orders/${orderId}`;
    expect((await admin.post(path, { intent: "transition", to: "in_progress", note: "" })).status).toBe(200);
    const [done, again] = await Promise.all([
      admin.post(path, { intent: "transition", to: "completed", note: "" }),
      admin.post(path, { intent: "transition", to: "completed", note: "" }),
    ]);
    expect([done.status, again.status].sort()).toEqual([200, 409]);
    // The step itself, asked again in its own transaction, issues nothing and sends nothing.
    const repeat = await db().transaction(async (tx) => {
      const [row] = await tx.select().from(orders).where(eq(orders.id, orderId));
      return balanceOnCompletion(server.portico.runtime.config)(tx, row!);
    });
    expect(repeat).toBeNull();

    const [, balance] = await invoicesOf(orderId);
    expect(balance).toMatchObject({ kind: "balance", status: "sent" });
    const mails = await balanceEmails(c.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(new RegExp(`^Balance invoice ${balance!.invoice_number} for quote Q-`));
    expect(mails[0]!.text).toContain("$152.50");
    expect(mails[0]!.text).toContain(`/client/invoice/${balance!.id}`);
    expect(mails[0]!.to_name).toBe(c.name);

    // The order page before and after the balance is paid.
    const before = await page(c.session, `/client/orders/${orderId}`);
    expect(before).toContain("Deposit paid $152.50 of $305.00");
    expect(before).toContain("Balance $152.50 due");
    expect(before).toContain(`Balance invoice ${balance!.invoice_number}`);
    expect(await page(c.session, `/client/invoice/${balance!.id}`)).toContain(
      `Balance invoice ${balance!.invoice_number}`,
    );
    const pdf = await c.session.get(`/invoice/${balance!.id}/pdf`);
    expect(await pdfText(pdf)).toContain("BALANCE INVOICE");

    const pay = await c.session.post(`/client/invoices/${balance!.id}/pay`, {});
    const checkout = location(pay);
    expect(await page(c.session, checkout)).toMatch(/Balance: Custom work \(Q-\d{4}-\d+\)/);
    const thanksPath = await paySandbox(c.session, checkout);
    const thanks = await page(c.session, thanksPath);
    expect(thanks).toContain(BALANCE_THANKS);
    expect(thanks).toContain(`Balance invoice`);
    expect(thanks).toContain(balance!.invoice_number);
    expect(thanks).toContain("$152.50");
    expect(thanks).toMatch(new RegExp(`href="/invoice/${balance!.id}/pdf"[^>]*>Download Invoice`));
    expect(await page(c.session, `/client/orders/${orderId}`)).toContain("Paid in full: $305.00");
    expect(await page(c.session, "/client/orders")).not.toContain(">Deposit paid<");
    expect(await balanceEmails(c.email)).toHaveLength(1);
  });

  it("an ordinary order's thank-you page: its service, invoice and '$10.00', whatever the query's amount", async () => {
    const c = await client("Nora Normal");
    const form = await c.session.get("/client/purchase/ssl-setup");
    const bought = await c.session.post("/client/purchase/ssl-setup", {
      checkoutToken: checkoutTokenIn(await form.text()),
      package: "single",
      currency: "USD",
    });
    const thanksPath = await paySandbox(c.session, location(bought));
    const [order] = await rows<{ id: string; service_name: string }>(
      sql`select id, service_name from orders where client_id = ${c.id}`,
    );
    const [invoice] = await invoicesOf(order!.id);
    expect(invoice).toMatchObject({ kind: "full", status: "paid" });
    // A query that lies about the amount changes nothing shown.
    const lying = thanksPath.replace(/amount=[^&]+/, "amount=99999");
    for (const path of [thanksPath, lying]) {
      const thanks = await page(c.session, path);
      expect(thanks).toContain(FULL_THANKS);
      expect(thanks).toContain(order!.service_name);
      expect(thanks).toContain(invoice!.invoice_number);
      expect(thanks).toContain("$10.00");
      expect(mainOf(thanks)).not.toContain("99999");
      expect(mainOf(thanks)).not.toContain("Deposit");
      expect(thanks).toMatch(new RegExp(`href="/invoice/${invoice!.id}/pdf"[^>]*>Download Invoice`));
    }
    const pdf = await c.session.get(`/invoice/${invoice!.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
  });
});

describe.each(testDatabases)("the Stripe checkout's line for a deposit on $name", (database) => {
  let server: TestServer;
  let fake: FakeStripe;
  const { signedIn, db } = accountsOn(
    () => server,
    (i) => `198.51.113.${i}`,
  );

  beforeAll(async () => {
    fake = await startFakeStripe();
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_portico",
      STRIPE_WEBHOOK_SECRET: "whsec_test_portico_secret",
      STRIPE_API_URL: fake.url,
      TAX_RATE_PERCENT: "0",
    });
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it("names the deposit in the line item's name", async () => {
    const email = `stripe.deposit.${Date.now()}@example.com`;
    const { session } = await signedIn({ email, name: "Sam Stripe" });
    const quoteId = await sentQuote(
      { db: db(), config: server.portico.runtime.config, actor: { id: null, email: "owner@example.com" } },
      { email, name: "Sam Stripe" },
    );
    const accepted = await session.post(`/client/quotes/${quoteId}`, {
      intent: "accept",
      terms: "on",
      signature: "Sam Stripe",
    });
    expect(accepted.status).toBe(302);
    const request = fake.requests.at(-1)!;
    expect(request.fields.get("line_items[0][price_data][product_data][name]")).toMatch(
      /^Deposit: Custom work \(Q-\d{4}-\d+\)/,
    );
    expect(request.fields.get("line_items[0][price_data][unit_amount]")).toBe("15250");
  });
});
