/**
 * One money truth (issue 37, items 1 and 3), through the real HTTP server with the sandbox provider:
 * a client with a refunded purchase, a quote whose deposit alone is paid, and a credit note. The
 * dashboard, My Orders, the invoices page, each order page and the back office's client page show the
 * same invoiced, paid, refunded, net paid and outstanding figures (invoices/money-totals.ts); the
 * balance, once issued, is outstanding everywhere. The invoices list shows the credit note under its
 * invoice, negative, linked; the invoice page says "Net paid" and how the money comes back; the
 * owner's invoice page shows a USD total once.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { REFUND_ARRIVAL } from "~/features/invoices/invoice-view";
import type { QuoteDeps } from "~/features/quotes/quote-deps.server";
import { type DraftInput, saveDraft } from "~/features/quotes/quote-drafts.server";
import { sendQuote } from "~/features/quotes/quote-sending.server";
import { accountsOn } from "../support/accounts";
import { location, type Session, text } from "../support/browserless";
import { checkoutTokenIn } from "../support/clients";
import { testDatabases } from "../support/databases";
import { refundThroughForm } from "../support/refunds";
import { freePort, startTestServer, type TestServer } from "../support/server";

const DAY = 24 * 60 * 60 * 1000;
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A stat card: its label, its value, and (when given) its note. */
const card = (label: string, value: string, note?: string) =>
  new RegExp(
    `${literal(label)}</p><p[^>]*>${literal(value)}</p>${note === undefined ? "" : `<p[^>]*>${literal(note)}</p>`}`,
  );
/** A line of a definition list (the back office's client page, the owner's invoice page). */
const line = (label: string, value: string) =>
  new RegExp(`${literal(label)}</dt><dd[^>]*>${literal(value)}</dd>`);
/** A money line of the order page. */
const moneyRow = (name: string, label: string, value: string) =>
  new RegExp(`data-money="${name}"><dt[^>]*>${literal(label)}</dt><dd[^>]*>${literal(value)}</dd>`);

interface Figures {
  invoiced: string;
  paid: string;
  refunded: string;
  netPaid: string;
  outstanding: string;
  pending: number;
}

describe.each(testDatabases)("one money truth on $name", (database) => {
  let server: TestServer;
  let admin: Session;
  let n = 0;
  const { db, signedIn } = accountsOn(
    () => server,
    (i) => `198.51.104.${i}`,
  );
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);
  const owner = (): QuoteDeps => ({
    db: db(),
    config: server.portico.runtime.config,
    actor: { id: null, email: "owner.money-truth@example.com" },
  });

  beforeAll(async () => {
    // The sandbox's webhooks reach this server: it must know its own port.
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PUBLIC_URL: `http://127.0.0.1:${await freePort()}`,
    });
    ({ session: admin } = await signedIn({
      email: "owner.money-truth@example.com",
      name: "Owner",
      role: "admin",
    }));
  });
  afterAll(async () => {
    await server?.close();
  });

  async function page(session: Session, path: string) {
    const res = await session.get(path);
    expect(res.status, path).toBe(200);
    return text(await res.text());
  }

  async function paySandbox(s: Session, checkout: string) {
    const token = new URL(checkout, server.url).searchParams.get("session")!;
    const paid = await s.post("/payments/sandbox/checkout", { session: token, intent: "pay" });
    expect(paid.status).toBe(302);
  }

  /** Five mailboxes of Email Migration, Basic ($4 each, $20), paid through the sandbox. */
  async function buyAndPay(s: Session, clientId: string) {
    const form = await s.get("/client/purchase/email-migration");
    const bought = await s.post("/client/purchase/email-migration", {
      checkoutToken: checkoutTokenIn(await form.text()),
      package: "basic",
      quantity: "5",
      currency: "USD",
    });
    expect(bought.status).toBe(302);
    await paySandbox(s, location(bought));
    const [row] = await rows<{ order_id: string; invoice_id: string; status: string; total: string }>(
      sql`select o.id as order_id, i.id as invoice_id, i.status, i.total_amount::text as total
          from orders o join invoices i on i.order_id = o.id
          where o.client_id = ${clientId} and o.quote_id is null`,
    );
    expect(row).toMatchObject({ status: "paid", total: "20.00" });
    return { orderId: row!.order_id, invoiceId: row!.invoice_id };
  }

  /** A $305.00 quote with a 50% deposit, sent, accepted by the client, its deposit paid. */
  async function quoteWithDepositPaid(c: { email: string; name: string; id: string; session: Session }) {
    const draft = await saveDraft(owner(), null, {
      name: c.name,
      email: c.email,
      lines: [{ kind: "free", description: "Exchange cut-over", quantity: 1, unitPrice: "305.00" }],
      depositPercent: 50,
      validUntil: new Date(Date.now() + 14 * DAY).toISOString().slice(0, 10),
      terms: "Work starts once the deposit is paid.",
    } satisfies DraftInput);
    expect(draft.ok).toBe(true);
    const id = (draft as { id: string }).id;
    expect(await sendQuote(owner(), id)).toMatchObject({ ok: true });
    const accepted = await c.session.post(`/client/quotes/${id}`, {
      intent: "accept",
      terms: "on",
      signature: c.name,
    });
    expect(accepted.status, text(await accepted.text()).slice(0, 300)).toBe(302);
    await paySandbox(c.session, location(accepted));
    const [order] = await rows<{ id: string }>(sql`select id from orders where quote_id = ${id}`);
    const [deposit] = await rows<{ status: string; total: string }>(
      sql`select status, total_amount::text as total from invoices where order_id = ${order!.id}`,
    );
    expect(deposit).toEqual({ status: "paid", total: "152.50" });
    return order!.id;
  }

  /** Every page that shows the client's money shows these figures. */
  async function expectEverywhere(c: { id: string; session: Session }, f: Figures) {
    const spentNote =
      f.refunded === "$0.00" ? "Paid (net of refunds)" : `${f.paid} paid, ${f.refunded} refunded`;
    const dashboard = await page(c.session, "/client/dashboard");
    expect(dashboard).toMatch(card("Total Spent", f.netPaid, spentNote));
    expect(dashboard).toContain(
      f.pending > 0 ? `${f.pending} pending, ${f.outstanding} outstanding` : `${f.pending} pending`,
    );
    expect(await page(c.session, "/client/orders")).toMatch(card("Total Spent", f.netPaid, spentNote));
    const invoicesPage = await page(c.session, "/client/invoices");
    expect(invoicesPage).toMatch(card("Total Invoiced", f.invoiced));
    expect(invoicesPage).toMatch(card("Paid (net of refunds)", f.netPaid, spentNote));
    expect(invoicesPage).toMatch(card("Outstanding", f.outstanding));
    const clientPage = await page(admin, `/admin/clients/${c.id}`);
    expect(clientPage).toMatch(line("Invoiced", f.invoiced));
    expect(clientPage).toMatch(line("Paid", f.paid));
    expect(clientPage).toMatch(line("Refunded", f.refunded));
    expect(clientPage).toMatch(line("Paid (net of refunds)", f.netPaid));
    expect(clientPage).toMatch(line("Outstanding", f.outstanding));
  }

  it("a refunded purchase, a quote with only its deposit paid and a credit note: the same figures on every page", async () => {
    const name = "Ada Lovelace";
    const email = `money-truth.${++n}.${Date.now()}@example.com`;
    const { id, session } = await signedIn({ email, name });
    const c = { id, email, name, session };

    const bought = await buyAndPay(session, id);
    const refunded = await refundThroughForm(admin, bought.invoiceId, {
      amount: "4",
      reason: "One mailbox fewer",
    });
    expect(refunded.status, text(await refunded.text()).slice(0, 300)).toBe(200);
    const quoteOrderId = await quoteWithDepositPaid(c);

    // Paid: $20.00 + the $152.50 deposit; $4.00 came back; the quote's other half is not invoiced yet.
    await expectEverywhere(c, {
      invoiced: "$172.50",
      paid: "$172.50",
      refunded: "$4.00",
      netPaid: "$168.50",
      outstanding: "$0.00",
      pending: 0,
    });

    // Each order page: what its invoices received, gave back and still ask.
    const purchase = await page(session, `/client/orders/${bought.orderId}`);
    expect(purchase).toMatch(moneyRow("paid", "Paid", "$20.00"));
    expect(purchase).toMatch(moneyRow("refunded", "Refunded", "$4.00"));
    expect(purchase).toMatch(moneyRow("net-paid", "Net paid", "$16.00"));
    expect(purchase).toMatch(moneyRow("outstanding", "Outstanding", "$0.00"));
    const quoted = await page(session, `/client/orders/${quoteOrderId}`);
    expect(quoted).toMatch(moneyRow("paid", "Paid", "$152.50"));
    expect(quoted).toMatch(moneyRow("outstanding", "Outstanding", "$0.00"));
    expect(quoted).not.toContain('data-money="refunded"');
    // The owner's order page shows the same figures.
    const ownersPurchase = await page(admin, `/admin/orders/${bought.orderId}`);
    expect(ownersPurchase).toMatch(line("Received", "$20.00"));
    expect(ownersPurchase).toMatch(line("Refunded", "$4.00"));
    expect(ownersPurchase).toMatch(line("Net paid", "$16.00"));
    expect(ownersPurchase).toMatch(line("Outstanding", "$0.00"));

    // The owner completes the quote's order: its balance is issued, outstanding on every page.
    for (const to of ["in_progress", "completed"]) {
      const move = await admin.post(`/admin/orders/${quoteOrderId}`, { to, note: "" });
      expect(move.status, to).toBe(200);
    }
    await expectEverywhere(c, {
      invoiced: "$325.00",
      paid: "$172.50",
      refunded: "$4.00",
      netPaid: "$168.50",
      outstanding: "$152.50",
      pending: 1,
    });
    expect(await page(session, `/client/orders/${quoteOrderId}`)).toMatch(
      moneyRow("outstanding", "Outstanding", "$152.50"),
    );
  });

  it("the invoices list shows the credit note under its invoice; the invoice says Net paid and how the money comes back", async () => {
    const email = `money-truth.${++n}.${Date.now()}@example.com`;
    const { id, session } = await signedIn({ email, name: "Ada Lovelace" });
    const bought = await buyAndPay(session, id);
    const refunded = await refundThroughForm(admin, bought.invoiceId, { amount: "4", reason: "Fewer" });
    expect(refunded.status).toBe(200);
    const [note] = await rows<{ id: string; number: string }>(
      sql`select id, credit_note_number as number from credit_notes where invoice_id = ${bought.invoiceId}`,
    );
    const [invoice] = await rows<{ number: string }>(
      sql`select invoice_number as number from invoices where id = ${bought.invoiceId}`,
    );

    const list = await page(session, "/client/invoices");
    const invoiceRow = list.indexOf(`data-invoice-id="${bought.invoiceId}"`);
    const noteRow = list.indexOf(`data-credit-note-id="${note!.id}"`);
    expect(invoiceRow).toBeGreaterThan(-1);
    expect(noteRow).toBeGreaterThan(invoiceRow);
    const row = list.slice(noteRow, list.indexOf("</tr>", noteRow));
    expect(row).toContain(`href="/client/credit-notes/${note!.id}"`);
    expect(row).toContain(`href="/client/credit-notes/${note!.id}/pdf"`);
    expect(row).toContain(note!.number);
    expect(row).toContain(`Credit note for ${invoice!.number}`);
    expect(row).toContain("-$4.00");
    // The link leads to the credit note.
    expect(await page(session, `/client/credit-notes/${note!.id}`)).toContain(note!.number);

    const invoicePage = await page(session, `/client/invoice/${bought.invoiceId}`);
    expect(invoicePage).toContain("$4.00 of $20.00 refunded");
    expect(invoicePage).toContain("Net paid: $16.00");
    expect(invoicePage).toContain(REFUND_ARRIVAL);

    // The owner's page: a USD invoice's total once, not "$20.00 ($20.00)"; its net paid.
    const ownerPage = await page(admin, `/admin/invoices/${bought.invoiceId}`);
    expect(ownerPage).toMatch(line("Total", "$20.00"));
    expect(ownerPage).not.toContain("$20.00 ($20.00)");
    expect(ownerPage).toMatch(line("Net paid", "$16.00"));
  });
});
