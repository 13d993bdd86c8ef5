/**
 * Refunds and credit notes (ADR 0505) through the real HTTP server with the built-in sandbox provider
 * (its signed refund webhook reaches the server before the refund call returns): partial and full
 * refunds from the back office, each with its credit note in one gap-free series; the invoice's
 * refunded amount, the client's notification and email; the full refund cancels the order; refunds
 * past what is left, of unpaid invoices, with bad amounts are refused; two owners refunding at once
 * never give back more than was paid; an invoice paid by bank transfer is refunded by hand.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { accountsOn } from "../support/accounts";
import { createOrder } from "../support/admin-fixtures";
import { location, type Session, text } from "../support/browserless";
import { checkoutTokenIn, signedInClient } from "../support/clients";
import { testDatabases } from "../support/databases";
import { refundFormToken, refundThroughForm, staleRefundFormToken } from "../support/refunds";
import { freePort, startTestServer, type TestServer } from "../support/server";

describe.each(testDatabases)("refunds through the sandbox on $name", (database) => {
  let server: TestServer;
  let admin: Session;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.102.${n}`,
  );
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);

  beforeAll(async () => {
    // The sandbox's webhooks reach this server: it must know its own port.
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PUBLIC_URL: `http://127.0.0.1:${await freePort()}`,
    });
    ({ session: admin } = await signedIn({
      email: "owner.refunds@example.com",
      name: "Owner",
      role: "admin",
    }));
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A client who bought 20 mailboxes ($80) and paid through the sandbox's checkout page. */
  async function paidThroughSandbox() {
    const client = await signedInClient(server.url, db());
    const page = await client.session.get("/client/purchase/email-migration");
    const bought = await client.session.post("/client/purchase/email-migration", {
      checkoutToken: checkoutTokenIn(await page.text()),
      package: "basic",
      quantity: "20",
      currency: "USD",
    });
    const token = new URL(location(bought), server.url).searchParams.get("session")!;
    const pay = await client.session.post("/payments/sandbox/checkout", { session: token, intent: "pay" });
    expect(pay.status).toBe(302);
    const [invoice] = await rows<{ id: string; order_id: string; invoice_number: string; status: string }>(
      sql`select id, order_id, invoice_number, status from invoices where client_id = ${client.id}`,
    );
    expect(invoice!.status).toBe("paid");
    return { ...client, invoice: invoice! };
  }

  const refund = (invoiceId: string, fields: Record<string, string>, token?: string) =>
    refundThroughForm(admin, invoiceId, fields, token);

  async function books(invoiceId: string) {
    const [row] = await rows<{
      invoice_status: string;
      refunded_amount: string;
      refunded_usd: string;
      order_status: string;
      order_refunded_usd: string;
      credit_notes: number;
      credited: string;
      refunds: string;
    }>(
      sql`select i.status as invoice_status, i.refunded_amount::text, i.refunded_usd::text,
            o.status as order_status, o.refunded_usd::text as order_refunded_usd,
            (select count(*)::int from credit_notes n where n.invoice_id = i.id) as credit_notes,
            (select coalesce(sum(n.total_amount), 0)::text from credit_notes n where n.invoice_id = i.id) as credited,
            (select string_agg(r.status || ':' || r.amount::text, ',' order by r.created_at) from refunds r where r.invoice_id = i.id) as refunds
          from invoices i join orders o on o.id = i.order_id where i.id = ${invoiceId}`,
    );
    return row!;
  }

  it("refunds part, then the rest: a credit note each, the client told, the order cancelled at the end", async () => {
    const c = await paidThroughSandbox();
    const first = await refund(c.invoice.id, { amount: "30", reason: "Two mailboxes fewer than ordered" });
    expect(first.status).toBe(200);
    const firstText = text(await first.text());
    const cn1 = firstText.match(/credit note (CN-\d{4}-\d{4})/)?.[1];
    expect(firstText).toContain(
      `Refunded $30.00 of invoice ${c.invoice.invoice_number}: credit note ${cn1}.`,
    );
    expect(await books(c.invoice.id)).toMatchObject({
      invoice_status: "paid",
      refunded_amount: "30.00",
      refunded_usd: "30.00",
      order_status: "paid",
      order_refunded_usd: "30.00",
      credit_notes: 1,
      credited: "30.00",
      refunds: "succeeded:30.00",
    });
    // The sandbox's webhook came before its answer: it recorded the refund; the answer added nothing.
    const events = await rows<{ type: string; outcome: string }>(
      sql`select type, outcome from payment_events where order_id = ${c.invoice.order_id} and type like 'refund.%'`,
    );
    expect(events).toEqual([{ type: "refund.succeeded", outcome: "applied: refund recorded" }]);
    const [told] = await rows<{ notifications: number; emails: number; subject: string }>(
      sql`select (select count(*)::int from notifications where user_id = ${c.id} and title = 'Refund Issued') as notifications,
                 (select count(*)::int from outbox_emails where to_address = ${c.email} and kind = 'refund-issued') as emails,
                 (select subject from outbox_emails where to_address = ${c.email} and kind = 'refund-issued' limit 1) as subject`,
    );
    expect(told).toEqual({ notifications: 1, emails: 1, subject: `Refund of $30.00: credit note ${cn1}` });
    const page = text(await (await admin.get(`/admin/invoices/${c.invoice.id}`)).text());
    expect(page).toContain("$30.00 of $80.00 refunded");
    expect(page).toContain("Up to $50.00 can be refunded");

    const tooMuch = await refund(c.invoice.id, { amount: "50.01", reason: "More than is left" });
    expect(tooMuch.status).toBe(409);
    expect(text(await tooMuch.text())).toContain(
      `At most $50.00 can be refunded on invoice ${c.invoice.invoice_number}.`,
    );

    const openedEarlier = await refundFormToken(admin, c.invoice.id);
    const rest = await refund(c.invoice.id, { amount: "50.00", reason: "Project called off" });
    expect(rest.status).toBe(200);
    const cn2 = text(await rest.text()).match(/credit note (CN-\d{4}-\d{4})/)?.[1];
    const [a, b] = [cn1!, cn2!].map((n) => Number(n.slice(-4)));
    expect(b).toBe(a! + 1);
    expect(await books(c.invoice.id)).toMatchObject({
      invoice_status: "paid",
      refunded_amount: "80.00",
      refunded_usd: "80.00",
      order_status: "cancelled",
      credit_notes: 2,
      credited: "80.00",
      refunds: "succeeded:30.00,succeeded:50.00",
    });
    const after = await refund(c.invoice.id, { amount: "1", reason: "Nothing left" }, openedEarlier);
    expect(after.status).toBe(409);
    expect(text(await after.text())).toContain(
      `Nothing is left to refund on invoice ${c.invoice.invoice_number}.`,
    );
  });

  it("refuses amounts it cannot read exactly, and unpaid invoices", async () => {
    const c = await paidThroughSandbox();
    for (const [amount, message] of [
      ["12.345", "USD has 2 decimals: enter at most 2 after the point."],
      ["abc", "Enter the amount as a number, like 12.50."],
      ["0", "Enter an amount above zero."],
      ["-5", "Enter the amount as a number, like 12.50."],
    ] as const) {
      const res = await refund(c.invoice.id, { amount, reason: "Testing the form" });
      expect(res.status, amount).toBe(400);
      expect(text(await res.text())).toContain(message);
    }
    const noReason = await refund(c.invoice.id, { amount: "5", reason: "" });
    expect(noReason.status).toBe(400);
    expect((await books(c.invoice.id)).credit_notes).toBe(0);

    const unpaid = await createOrder(db(), c.id);
    const res = await refund(
      unpaid.invoiceId,
      { amount: "5", reason: "Not paid yet" },
      staleRefundFormToken(server, unpaid.invoiceId),
    );
    expect(res.status).toBe(409);
    expect(text(await res.text())).toContain(
      `Invoice ${unpaid.invoiceNumber} is sent; only a paid invoice can be refunded.`,
    );
  });

  it("two owners refunding at once give back at most what was paid: the second sees what the first left", async () => {
    const c = await paidThroughSandbox();
    const results = await Promise.all([
      refund(c.invoice.id, { amount: "60", reason: "First owner" }),
      refund(c.invoice.id, { amount: "60", reason: "Second owner" }),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const refused = results.find((r) => r.status === 409)!;
    expect(text(await refused.text())).toContain(
      `At most $20.00 can be refunded on invoice ${c.invoice.invoice_number}.`,
    );
    expect(await books(c.invoice.id)).toMatchObject({
      refunded_amount: "60.00",
      credit_notes: 1,
      refunds: "succeeded:60.00",
    });
  });

  it("an invoice paid by bank transfer is refunded by hand, with the same credit note", async () => {
    const { id: clientId } = await signedIn({ email: "bank.refund@example.com", name: "Bank Client" });
    const order = await createOrder(db(), clientId, { amountUsd: 120 });
    const paid = await admin.post(`/admin/invoices/${order.invoiceId}`, {
      intent: "mark-paid",
      reference: "BT-2026-77",
    });
    expect(paid.status).toBe(200);
    const page = text(await (await admin.get(`/admin/invoices/${order.invoiceId}`)).text());
    expect(page).toContain("This invoice was paid by hand");
    const missing = await refund(order.invoiceId, { amount: "10", reason: "Goodwill" });
    expect(missing.status).toBe(400);
    expect(text(await missing.text())).toContain(
      "This invoice was paid by hand: enter the reference of the transfer back.",
    );
    const res = await refund(order.invoiceId, { amount: "10", reason: "Goodwill", reference: "BT-BACK-1" });
    expect(res.status).toBe(200);
    expect(text(await res.text())).toMatch(/Refunded \$10\.00 of invoice INV-\d{4}-\d{4}: credit note CN-/);
    const [r] = await rows<{ provider: string; status: string; reference: string }>(
      sql`select provider, status, reference from refunds where invoice_id = ${order.invoiceId}`,
    );
    expect(r).toEqual({ provider: "manual", status: "succeeded", reference: "BT-BACK-1" });
  });

  it("a client cannot refund: the back office's form is the owner's", async () => {
    const c = await paidThroughSandbox();
    const res = await c.session.post(`/admin/invoices/${c.invoice.id}`, {
      intent: "refund",
      amount: "80",
      reason: "I want it back",
    });
    expect(res.status).toBe(404);
    expect((await books(c.invoice.id)).refunds).toBeNull();
  });
});
