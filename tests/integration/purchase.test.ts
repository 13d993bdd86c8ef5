/**
 * Buying through the real HTTP server with the sandbox provider: pricing and tampering, one order per
 * form, gap-free invoice numbers under concurrent checkouts, the signed sandbox webhook (bad signatures,
 * repeats, out-of-order and unknown events), Pay and Cancel on the hosted page, the invoice view and
 * its PDF.
 */
import { sql } from "drizzle-orm";
import { PDFParse } from "pdf-parse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { formatMoney } from "~/features/money/format";
import { CHECKOUTS_PER_HOUR } from "~/features/orders/checkout-limit.server";
import { TOO_MANY_ORDERS, TOO_MANY_PAYMENTS } from "~/features/orders/messages";
import { SANDBOX_SIGNATURE_HEADER, signSandboxPayload } from "~/features/payments/sandbox.server";
import { location, Session, text } from "../support/browserless";
import { checkoutTokenIn, signedInClient } from "../support/clients";
import { testDatabases } from "../support/databases";
import { freePort, startTestServer, type TestServer } from "../support/server";

const SECRET = "sandbox-test-secret-0123456789";
const YEAR = new Date().getUTCFullYear();

interface OrderRow {
  id: string;
  status: string;
  quantity: number;
  amount_usd: string;
  currency: string;
  amount_in_currency: string;
  provider_reference: string | null;
}
interface InvoiceRow {
  id: string;
  invoice_number: string;
  invoice_seq: number;
  status: string;
  total_amount: string;
  amount_usd: string;
  paid_at: Date | null;
  order_id: string;
}

describe.each(testDatabases)("purchase with the sandbox provider on $name", (database) => {
  let server: TestServer;
  const db = () => server.portico.runtime.database.db;

  beforeAll(async () => {
    const port = await freePort();
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SANDBOX_WEBHOOK_SECRET: SECRET,
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const ordersOf = (clientId: string) =>
    queryRows<OrderRow>(db(), sql`select * from orders where client_id = ${clientId} order by created_at`);
  const invoicesOf = (clientId: string) =>
    queryRows<InvoiceRow>(
      db(),
      sql`select * from invoices where client_id = ${clientId} order by created_at`,
    );
  const notificationsOf = (clientId: string) =>
    queryRows<{ title: string; message: string }>(
      db(),
      sql`select title, message from notifications where user_id = ${clientId} order by created_at, title`,
    );

  async function purchase(
    session: Session,
    fields: Record<string, string> = {},
    service = "email-migration",
  ) {
    const page = await session.get(`/client/purchase/${service}`);
    const token = checkoutTokenIn(await page.text());
    return session.post(`/client/purchase/${service}`, {
      checkoutToken: token,
      package: "basic",
      quantity: "20",
      currency: "USD",
      ...fields,
    });
  }

  function sendWebhook(event: unknown, signature?: string | null) {
    const body = JSON.stringify(event);
    const headers: Record<string, string> = { "content-type": "application/json" };
    const sig = signature === undefined ? signSandboxPayload(SECRET, body) : signature;
    if (sig !== null) headers[SANDBOX_SIGNATURE_HEADER] = sig;
    return fetch(`${server.url}/api/payments/sandbox/webhook`, { method: "POST", body, headers });
  }

  const completed = (id: string, orderId: string, amount = 80, currency = "USD") => ({
    id,
    type: "checkout.completed",
    data: { session_id: `cs_${id}`, order_id: orderId, amount, currency },
  });

  it("shows visitors the page with a disabled 'Login to Purchase' and links that come back", async () => {
    const res = await server.get("/client/purchase/email-migration?package=basic&currency=EUR");
    expect(res.status).toBe(200);
    const html = text(await res.text());
    expect(html).toContain("Number of Mailboxes");
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Login to Purchase<\/button>/);
    expect(html).toContain(
      `/client/login?redirectTo=${encodeURIComponent("/client/purchase/email-migration?package=basic&currency=EUR")}`,
    );
    expect(html).toContain('href="/client/services"');
    expect(html).not.toContain('name="checkoutToken"');
    // Resolved like the service pages: names and legacy aliases too.
    expect(
      (await server.get(`/client/purchase/${encodeURIComponent("Email Migration & Setup")}`)).status,
    ).toBe(200);
    expect((await server.get("/client/purchase/mailbox-migration")).status).toBe(200);
    const missing = await server.get("/client/purchase/no-such-service");
    expect(missing.status).toBe(404);
    const missingHtml = text(await missing.text());
    expect(missingHtml).toContain("Service Not Found");
    expect(missingHtml).toContain("Service not found: no-such-service");
    expect(missingHtml).toContain("Back to Services");
  });

  it("brings a visitor who creates an account back to the purchase page after verifying", async () => {
    const back = "/client/purchase/email-migration?package=basic";
    const email = `newcomer.${Date.now()}@example.com`;
    const s = new Session(server.url, "198.19.0.1");
    const res = await s.post(`/client/register?redirectTo=${encodeURIComponent(back)}`, {
      name: "New Comer",
      email,
      password: "Str0ng!Passw0rd",
      confirmPassword: "Str0ng!Passw0rd",
    });
    expect(location(res)).toBe("/client/verify-email");
    const [mail] = await queryRows<{ text: string }>(
      db(),
      sql`select text from outbox_emails where to_address = ${email} and kind = 'account-verification'`,
    );
    const link = new URL(mail!.text.match(/https?:\/\/\S+/g)!.find((u) => u.includes("/api/auth/"))!);
    const verified = await s.get(`${link.pathname}${link.search}`);
    expect(location(verified)).toBe(`/client/login?verified=true&redirectTo=${encodeURIComponent(back)}`);
    const login = await s.post(`/client/login?verified=true&redirectTo=${encodeURIComponent(back)}`, {
      email,
      password: "Str0ng!Passw0rd",
    });
    expect(location(login)).toBe(back);
  });

  it("sends visitors who post the form to sign in", async () => {
    const res = await server.get("/client/purchase/email-migration", {
      method: "POST",
      body: new URLSearchParams({ checkoutToken: "x".repeat(24) }),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    });
    expect(res.status).toBe(302);
    expect(location(res)).toMatch(/^\/client\/login\?redirectTo=/);
  });

  it("prices on the server: 20 mailboxes are $80.00 whatever total the browser sends", async () => {
    const { session, id } = await signedInClient(server.url, db());
    const res = await purchase(session, { total: "0.01", price: "0.01", amount: "0.01", amount_usd: "0.01" });
    expect(res.status).toBe(302);
    expect(location(res)).toMatch(/^\/payments\/sandbox\/checkout\?session=/);
    const [order] = await ordersOf(id);
    expect(order).toMatchObject({ status: "pending", quantity: 20, currency: "USD" });
    expect(Number(order!.amount_usd)).toBe(80);
    const [invoice] = await invoicesOf(id);
    expect(invoice!.status).toBe("sent");
    expect(Number(invoice!.total_amount)).toBe(80);
    expect(invoice!.invoice_number).toMatch(new RegExp(`^INV-${YEAR}-\\d{4}$`));
    // The checkout's own invoice is not announced: its payment raises the one notice (ADR 0515).
    expect(await notificationsOf(id)).toEqual([]);
    // The hosted page shows the business, the item and the amount.
    const page = text(await (await session.get(location(res))).text());
    expect(page).toContain("Portico IT Services");
    expect(page).toContain("Email Migration & Setup — Per Mailbox × 20");
    expect(page).toContain("$80.00");
  });

  it("converts at the current rate and stores the rate; refuses out-of-range quantities", async () => {
    const { session, id } = await signedInClient(server.url, db());
    const rates = (await server.portico.runtime.currency.rates.get()).rates;
    const res = await purchase(session, { currency: "EUR", quantity: "3" });
    expect(res.status).toBe(302);
    const [order] = await queryRows<{ exchange_rate: string; amount_in_currency: string; currency: string }>(
      db(),
      sql`select exchange_rate, amount_in_currency, currency from orders where client_id = ${id}`,
    );
    expect(order!.currency).toBe("EUR");
    expect(Number(order!.exchange_rate)).toBeCloseTo(rates.EUR!, 6);
    expect(Number(order!.amount_in_currency)).toBe(Math.round(12 * rates.EUR! * 100) / 100);

    for (const quantity of ["0", "1001", "2.5", "abc"]) {
      const bad = await purchase(session, { quantity });
      expect(bad.status).toBe(400);
      expect(text(await bad.text())).toContain("Number of Mailboxes must be a whole number from 1 to 1000.");
    }
    expect(await ordersOf(id)).toHaveLength(1);
  });

  it("prices the SSL procurement add-on on the server (+$5 per certificate) as its own invoice line", async () => {
    const { session, id } = await signedInClient(server.url, db());
    // A client-sent price for the add-on or the order is ignored.
    const res = await purchase(
      session,
      { package: "single", addon: "procurement", addon_price: "0", price: "0.01", total: "0.01" },
      "ssl-setup",
    );
    expect(res.status).toBe(302);
    const [order] = await queryRows<OrderRow & { unit_price_usd: string; addons: unknown }>(
      db(),
      sql`select * from orders where client_id = ${id}`,
    );
    expect(order).toMatchObject({ quantity: 1, currency: "USD", status: "pending" });
    expect(Number(order!.unit_price_usd)).toBe(10);
    expect(Number(order!.amount_usd)).toBe(15);
    expect(Number(order!.amount_in_currency)).toBe(15);
    expect(order!.addons).toEqual([
      {
        key: "procurement",
        name: "Certificate procurement",
        unitPriceUsd: 5,
        quantity: 1,
        amountUsd: 5,
        amountInCurrency: 5,
      },
    ]);
    const [invoice] = await invoicesOf(id);
    expect(Number(invoice!.total_amount)).toBe(15);
    expect(Number(invoice!.amount_usd)).toBe(15);
    // The provider is asked for the whole amount, the add-on named.
    const hosted = text(await (await session.get(location(res))).text());
    expect(hosted).toContain("SSL & HTTPS Setup — Single Domain + Certificate procurement");
    expect(hosted).toContain("$15.00");

    // The invoice page and its PDF show the add-on as its own line.
    const page = text(await (await session.get(`/client/invoice/${invoice!.id}`)).text());
    expect(page).toMatch(/Certificate procurement<\/span>.*?Add-on to SSL & HTTPS Setup/s);
    expect(page).toContain("$5.00");
    expect(page).toContain("$15.00");
    const pdf = await session.get(`/invoice/${invoice!.id}/pdf`);
    const parser = new PDFParse({ data: new Uint8Array(await pdf.arrayBuffer()) });
    const { text: pdfText } = await parser.getText();
    await parser.destroy();
    expect(pdfText).toContain("Certificate procurement");
    expect(pdfText).toMatch(/\$5\.00/);
    expect(pdfText).toContain("$15.00");

    // In another currency each line is converted like the package; without the box, no add-on.
    const rates = (await server.portico.runtime.currency.rates.get()).rates;
    expect(
      (await purchase(session, { package: "wildcard", addon: "procurement", currency: "EUR" }, "ssl-setup"))
        .status,
    ).toBe(302);
    expect((await purchase(session, { package: "single" }, "ssl-setup")).status).toBe(302);
    const [, eur, plain] = await ordersOf(id);
    const cents = (usd: number) => Math.round(usd * rates.EUR! * 100);
    expect(Number(eur!.amount_in_currency)).toBe((cents(55) + cents(5)) / 100);
    expect(Number(eur!.amount_usd)).toBe(60);
    expect(Number(plain!.amount_usd)).toBe(10);
  });

  it("refuses the add-on for a service that does not offer it and changes nothing", async () => {
    const { session, id } = await signedInClient(server.url, db());
    for (const [service, fields] of [
      ["email-migration", { addon: "procurement" }],
      ["per-incident-support", { addon: "procurement", quantity: "2" }],
      ["ssl-setup", { package: "single", addon: "free-upgrade" }],
    ] as const) {
      const res = await purchase(session, fields, service);
      expect(res.status).toBe(400);
      expect(text(await res.text())).toContain(`This service has no add-on "${fields.addon}".`);
    }
    expect(await ordersOf(id)).toHaveLength(0);
    expect(await invoicesOf(id)).toHaveLength(0);
  });

  it("writes ₹ and ₩ in the PDF of an INR and a KRW invoice, as the invoice page does", async () => {
    const { session, id } = await signedInClient(server.url, db());
    for (const [currency, symbol] of [
      ["INR", "₹"],
      ["KRW", "₩"],
    ] as const) {
      expect((await purchase(session, { package: "single", currency }, "ssl-setup")).status).toBe(302);
      const invoice = (await invoicesOf(id)).at(-1)!;
      const total = formatMoney(Number(invoice.total_amount), currency);
      expect(total.startsWith(symbol)).toBe(true);
      expect(text(await (await session.get(`/client/invoice/${invoice.id}`)).text())).toContain(total);
      const pdf = await session.get(`/invoice/${invoice.id}/pdf`);
      expect(pdf.status).toBe(200);
      const parser = new PDFParse({ data: new Uint8Array(await pdf.arrayBuffer()) });
      const { text: pdfText } = await parser.getText();
      await parser.destroy();
      expect(pdfText).toContain(`Total ${total}`);
      expect(pdfText).not.toMatch(new RegExp(`${currency}\\s*[\\d,.]+\\d`));
    }
  });

  it("makes one order of a form posted twice, one after the other or at once", async () => {
    const { session, id } = await signedInClient(server.url, db());
    const page = await session.get("/client/purchase/per-incident-support");
    const token = checkoutTokenIn(await page.text());
    const fields = { checkoutToken: token, package: "basic", quantity: "2", currency: "USD" };
    const first = await session.post("/client/purchase/per-incident-support", fields);
    const second = await session.post("/client/purchase/per-incident-support", fields);
    expect(location(first)).toBe(location(second));
    const [a, b] = await Promise.all([
      session.post("/client/purchase/per-incident-support", { ...fields, checkoutToken: `${token}x` }),
      session.post("/client/purchase/per-incident-support", { ...fields, checkoutToken: `${token}x` }),
    ]);
    expect(a.status).toBe(302);
    expect(b.status).toBe(302);
    expect(await ordersOf(id)).toHaveLength(2);
    expect(await invoicesOf(id)).toHaveLength(2);
  });

  it("numbers 20 concurrent checkouts' invoices without duplicates or gaps", async () => {
    const { session, id } = await signedInClient(server.url, db());
    const [{ before }] = (await queryRows<{ before: number }>(
      db(),
      sql`select coalesce(max(last_seq), 0)::int as before from invoice_counters where year = ${YEAR}`,
    )) as [{ before: number }];
    const tokens = await Promise.all(
      Array.from({ length: 20 }, async () =>
        checkoutTokenIn(await (await session.get("/client/purchase/ssl-setup")).text()),
      ),
    );
    const results = await Promise.all(
      tokens.map((checkoutToken) =>
        session.post("/client/purchase/ssl-setup", { checkoutToken, currency: "USD" }),
      ),
    );
    for (const r of results) expect(r.status).toBe(302);
    const seqs = (await invoicesOf(id)).map((i) => i.invoice_seq).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => before + i + 1));
    const all = await queryRows<{ n: number; distinct: number }>(
      db(),
      sql`select count(*)::int as n, count(distinct invoice_number)::int as distinct from invoices`,
    );
    expect(all[0]!.n).toBe(all[0]!.distinct);
  });

  it("applies a signed webhook once; bad signatures, repeats, late and unknown events change nothing", async () => {
    const { session, id } = await signedInClient(server.url, db());
    await purchase(session);
    const [order] = await ordersOf(id);
    const orderId = order!.id;

    // Missing, wrong, stale signatures: 400 and nothing changes.
    expect((await sendWebhook(completed("evt_a", orderId), null)).status).toBe(400);
    expect((await sendWebhook(completed("evt_a", orderId), "t=1,v1=deadbeef")).status).toBe(400);
    const body = JSON.stringify(completed("evt_a", orderId));
    const stale = signSandboxPayload(SECRET, body, Math.floor(Date.now() / 1000) - 3600);
    expect(
      (
        await fetch(`${server.url}/api/payments/sandbox/webhook`, {
          method: "POST",
          body,
          headers: { "content-type": "application/json", [SANDBOX_SIGNATURE_HEADER]: stale },
        })
      ).status,
    ).toBe(400);
    expect((await ordersOf(id))[0]!.status).toBe("pending");

    // A wrong amount is recorded, not applied.
    const wrong = await sendWebhook(completed("evt_wrong", orderId, 8));
    expect(wrong.status).toBe(200);
    expect((await wrong.json()).outcome).toBe("ignored: amount does not match the invoice");
    expect((await ordersOf(id))[0]!.status).toBe("pending");

    // An expiry while pending leaves it pending.
    const expired = await sendWebhook({
      id: "evt_exp1",
      type: "checkout.expired",
      data: { order_id: orderId },
    });
    expect((await expired.json()).outcome).toBe("noted: checkout expired, order stays pending");

    const ok = await sendWebhook(completed("evt_ok", orderId));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ duplicate: false, outcome: "applied" });
    expect((await ordersOf(id))[0]!.status).toBe("paid");
    const [invoice] = await invoicesOf(id);
    expect(invoice!.status).toBe("paid");
    expect(invoice!.paid_at).not.toBeNull();
    // One payment, one notice (ADR 0515).
    const notes = await notificationsOf(id);
    expect(notes).toEqual([
      {
        title: "Payment Received",
        message: `Payment Confirmed: Invoice ${invoice!.invoice_number} has been paid. Your order is being processed.`,
      },
    ]);
    const receipts = await queryRows<{ subject: string; text: string }>(
      db(),
      sql`select subject, text from outbox_emails where kind = 'payment-receipt' and to_address = (select email from clients where id = ${id})`,
    );
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.text).toContain("$80.00");
    const live = await queryRows<{ kind: string; status: string }>(
      db(),
      sql`select kind, status from live_events where user_id = ${id} and status = 'paid' order by id`,
    );
    expect(live).toEqual([
      { kind: "order", status: "paid" },
      { kind: "invoice", status: "paid" },
    ]);

    // The same event again: 200, no second effect.
    const repeat = await sendWebhook(completed("evt_ok", orderId));
    expect(repeat.status).toBe(200);
    expect((await repeat.json()).duplicate).toBe(true);
    // Another payment event for the paid order, and a late expiry: recorded, nothing changes.
    expect((await (await sendWebhook(completed("evt_ok2", orderId))).json()).outcome).toBe(
      "ignored: already paid",
    );
    const late = await sendWebhook({ id: "evt_exp2", type: "checkout.expired", data: { order_id: orderId } });
    expect((await late.json()).outcome).toBe("ignored: order paid");
    expect(await notificationsOf(id)).toHaveLength(notes.length);
    expect((await invoicesOf(id))[0]!.paid_at).toEqual(invoice!.paid_at);

    // Unknown orders are recorded and answered.
    const unknown = await sendWebhook(completed("evt_unknown", "00000000-0000-4000-8000-000000000000"));
    expect(unknown.status).toBe(200);
    expect((await unknown.json()).outcome).toBe("ignored: unknown order");
    const stored = await queryRows<{ event_id: string; outcome: string }>(
      db(),
      sql`select event_id, outcome from payment_events where event_id in ('evt_ok', 'evt_unknown', 'evt_a') order by event_id`,
    );
    expect(stored).toEqual([
      { event_id: "evt_ok", outcome: "applied" },
      { event_id: "evt_unknown", outcome: "ignored: unknown order" },
    ]);
  });

  it("ignores a payment for a cancelled order", async () => {
    const { session, id } = await signedInClient(server.url, db());
    await purchase(session);
    const [order] = await ordersOf(id);
    await db().execute(sql`update orders set status = 'cancelled' where id = ${order!.id}`);
    const res = await sendWebhook(completed("evt_cancelled", order!.id));
    expect((await res.json()).outcome).toBe("ignored: order cancelled");
    expect((await invoicesOf(id))[0]!.status).toBe("sent");
  });

  it("Pay on the hosted page confirms through the webhook; Cancel returns to the purchase page", async () => {
    const { session, id } = await signedInClient(server.url, db());
    const first = await purchase(session);
    const checkoutPath = location(first);
    const token = new URL(checkoutPath, server.url).searchParams.get("session")!;
    const cancel = await session.post("/payments/sandbox/checkout", { session: token, intent: "cancel" });
    expect(location(cancel)).toBe("/client/purchase/email-migration?package=basic&currency=USD");
    expect((await ordersOf(id))[0]!.status).toBe("pending");

    const pay = await session.post("/payments/sandbox/checkout", { session: token, intent: "pay" });
    const [order] = await ordersOf(id);
    expect(location(pay)).toBe(`/payment-success?order_id=${order!.id}&amount=80`);
    expect(order!.status).toBe("paid");
    const [event] = await queryRows<{ provider: string; outcome: string }>(
      db(),
      sql`select provider, outcome from payment_events where order_id = ${order!.id}`,
    );
    expect(event).toEqual({ provider: "sandbox", outcome: "applied" });

    const success = await session.get(location(pay));
    expect(location(success)).toBe(`/thank-you?type=payment&order_id=${order!.id}&amount=80`);
    // A forged checkout token is not a page.
    expect((await session.get("/payments/sandbox/checkout?session=abc.def")).status).toBe(404);
  });

  it("shows the invoice and its PDF to its client only, with Pay Now for unpaid invoices", async () => {
    const ada = await signedInClient(server.url, db(), "Ada Lovelace");
    const bob = await signedInClient(server.url, db(), "Bob Builder");
    await purchase(ada.session);
    const [invoice] = await invoicesOf(ada.id);

    for (const path of [
      `/invoice/${invoice!.id}`,
      `/client/invoice/${invoice!.id}`,
      "/client/invoice/latest",
    ]) {
      const res = await ada.session.get(path);
      expect(res.status).toBe(200);
      const html = text(await res.text());
      expect(html).toContain(invoice!.invoice_number);
      expect(html).toContain("Ada Lovelace");
      expect(html).toContain("$80.00");
      expect(html).toContain("Download PDF");
    }
    for (const path of [`/invoice/${invoice!.id}`, "/invoice/not-an-id", "/client/invoice/latest"]) {
      const res = await bob.session.get(path);
      expect(res.status).toBe(404);
      const html = text(await res.text());
      expect(html).toContain("Invoice Not Found");
      expect(html).toContain('href="/client/dashboard"');
      expect(html).not.toContain(invoice!.invoice_number);
    }
    expect((await bob.session.get(`/invoice/${invoice!.id}/pdf`)).status).toBe(404);
    expect(location(await server.get(`/invoice/${invoice!.id}`))).toMatch(/^\/client\/login/);

    const pdf = await ada.session.get(`/invoice/${invoice!.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toBe(
      `attachment; filename="${invoice!.invoice_number}.pdf"`,
    );
    const parser = new PDFParse({ data: new Uint8Array(await pdf.arrayBuffer()) });
    const { text: pdfText } = await parser.getText();
    await parser.destroy();
    expect(pdfText).toContain(invoice!.invoice_number);
    expect(pdfText).toContain("$80.00");
    expect(pdfText).toContain("Ada Lovelace");

    // Pay Now: a new checkout for the same invoice, never a second invoice; not for someone else's.
    const payNow = await ada.session.post(`/client/invoices/${invoice!.id}/pay`, {});
    expect(location(payNow)).toMatch(/^\/payments\/sandbox\/checkout\?session=/);
    expect(await invoicesOf(ada.id)).toHaveLength(1);
    expect((await bob.session.post(`/client/invoices/${invoice!.id}/pay`, {})).status).toBe(404);
    const token = new URL(location(payNow), server.url).searchParams.get("session")!;
    await ada.session.post("/payments/sandbox/checkout", { session: token, intent: "pay" });
    const paid = text(await (await ada.session.get(`/invoice/${invoice!.id}`)).text());
    expect(paid).toMatch(/data-testid="invoice-status"[^>]*bg-green-100[^>]*>Paid</);
    expect((await ada.session.post(`/client/invoices/${invoice!.id}/pay`, {})).status).toBe(409);
  });

  it("limits Pay Now like a purchase: past the hourly checkouts, 429 and no call to the provider", async () => {
    const cy = await signedInClient(server.url, db(), "Cy Limit");
    await purchase(cy.session); // the first of the hour's CHECKOUTS_PER_HOUR checkouts
    const [invoice] = await invoicesOf(cy.id);
    const provider = server.portico.runtime.payments.active;
    const createCheckout = provider.createCheckout;
    let calls = 0;
    provider.createCheckout = (request) => {
      calls++;
      return createCheckout.call(provider, request);
    };
    try {
      for (let i = 1; i < CHECKOUTS_PER_HOUR; i++) {
        const res = await cy.session.post(`/client/invoices/${invoice!.id}/pay`, {});
        expect(location(res)).toMatch(/^\/payments\/sandbox\/checkout\?session=/);
      }
      expect(calls).toBe(CHECKOUTS_PER_HOUR - 1);

      const limited = await cy.session.post(`/client/invoices/${invoice!.id}/pay`, {});
      expect(limited.status).toBe(429);
      expect(text(await limited.text())).toContain(TOO_MANY_PAYMENTS);
      // A purchase draws on the same budget: refused before any order is made.
      const purchaseLimited = await purchase(cy.session);
      expect(purchaseLimited.status).toBe(429);
      expect(text(await purchaseLimited.text())).toContain(TOO_MANY_ORDERS);
      expect(calls).toBe(CHECKOUTS_PER_HOUR - 1);
      expect(await ordersOf(cy.id)).toHaveLength(1);
      expect(await invoicesOf(cy.id)).toEqual([expect.objectContaining({ id: invoice!.id, status: "sent" })]);
    } finally {
      provider.createCheckout = createCheckout;
    }
  });
});
