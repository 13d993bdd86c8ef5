/**
 * A refund is made once per click (issue 35, ADR 0505), through the real built server with the Stripe
 * provider against the fake Stripe on 127.0.0.1: the owner's refund form starts empty, carries a
 * one-time token and leads to a confirmation step rendered by the server that names the amount and
 * what follows; the same confirmation posted twice, one after the other or at once, makes one refund,
 * one credit note and one call to Stripe (whose idempotency key is the token); a post without the
 * token, with a made-up one or another invoice's is refused with a clear message; a token that made a
 * refund cannot make another of a different amount.
 */
import { sql } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { accountsOn } from "../support/accounts";
import { type Session, text } from "../support/browserless";
import { checkoutTokenIn, signedInClient } from "../support/clients";
import { testDatabases } from "../support/databases";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe";
import {
  refundConfirmationFor,
  refundConfirmationIn,
  refundFormToken,
  refundTokenIn,
} from "../support/refunds";
import { startTestServer, type TestServer } from "../support/server";

const WEBHOOK_SECRET = "whsec_test_portico_refund_once";
const stripe = new Stripe("sk_test_fake");
const PENDING_MESSAGE =
  "The provider is making the refund; it is recorded, with its credit note, once it confirms it.";
const NOT_OURS =
  "This refund form is not valid: reload the invoice page and fill it in again (nothing was refunded).";

/** The value of a page's input named `name` ("" when it has none). */
function inputValue(html: string, name: string): string {
  const input = html.match(new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`))?.[0];
  if (!input) throw new Error(`no input named ${name}`);
  return input.match(/\bvalue="([^"]*)"/)?.[1] ?? "";
}

/** The opening tag of the page's button labelled `label`. */
function buttonTag(html: string, label: string): string {
  const tag = [...html.matchAll(/<button[^>]*>([^<]*)/g)].find((m) => m[1] === label)?.[0];
  if (!tag) throw new Error(`no button labelled ${label}`);
  return tag;
}

describe.each(testDatabases)("a refund made once per click on $name", (database) => {
  let server: TestServer;
  let fake: FakeStripe;
  let admin: Session;
  let events = 0;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.104.${n}`,
  );
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);

  beforeAll(async () => {
    fake = await startFakeStripe();
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_portico",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
    });
    ({ session: admin } = await signedIn({
      email: "owner.refund-once@example.com",
      name: "Owner",
      role: "admin",
    }));
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.refundStatus = "succeeded";
    fake.beforeRefundAnswer = null;
    fake.dropRefundAnswers = false;
    fake.failNext = null;
  });

  /** A client who bought 20 mailboxes ($80) and paid at Stripe; the signed webhook paid the order. */
  async function paidThroughStripe() {
    const client = await signedInClient(server.url, db());
    const page = await client.session.get("/client/purchase/email-migration");
    const bought = await client.session.post("/client/purchase/email-migration", {
      checkoutToken: checkoutTokenIn(await page.text()),
      package: "basic",
      quantity: "20",
      currency: "USD",
    });
    expect(bought.status).toBe(302);
    const [order] = await rows<{ id: string; provider_reference: string }>(
      sql`select id, provider_reference from orders where client_id = ${client.id}`,
    );
    fake.pay(order!.provider_reference);
    const payload = JSON.stringify({
      id: `evt_refund_once_${++events}`,
      object: "event",
      type: "checkout.session.completed",
      api_version: "2025-01-01",
      created: 1_800_000_000,
      data: { object: { ...fake.sessions.get(order!.provider_reference)! } },
    });
    const paid = await fetch(`${server.url}/api/payments/stripe/webhook`, {
      method: "POST",
      body: payload,
      headers: {
        "content-type": "application/json",
        "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
    });
    expect(paid.status).toBe(200);
    const [invoice] = await rows<{ id: string; invoice_number: string; status: string }>(
      sql`select id, invoice_number, status from invoices where order_id = ${order!.id}`,
    );
    expect(invoice!.status).toBe("paid");
    return { ...client, invoice: invoice! };
  }

  async function made(invoiceId: string) {
    const [row] = await rows<{
      refunds: number;
      credit_notes: number;
      emails: number;
      tokens: string | null;
    }>(
      sql`select (select count(*)::int from refunds r where r.invoice_id = i.id) as refunds,
            (select count(*)::int from credit_notes n where n.invoice_id = i.id) as credit_notes,
            (select count(*)::int from outbox_emails e join clients c on c.email = e.to_address
              where c.id = i.client_id and e.kind = 'refund-issued') as emails,
            (select string_agg(r.form_token, ',') from refunds r where r.invoice_id = i.id) as tokens
          from invoices i where i.id = ${invoiceId}`,
    );
    return row!;
  }

  const post = (invoiceId: string, fields: Record<string, string>) =>
    admin.post(`/admin/invoices/${invoiceId}`, fields);
  /** Confirm, as the confirmation step posts it (with its signed mark). */
  const confirm = (invoiceId: string, token: string, amount = "30") => {
    const fields = { amount, reason: "Two mailboxes fewer than ordered" };
    const confirmation = refundConfirmationFor(server, token, fields);
    return post(invoiceId, { intent: "refund", token, ...fields, confirmation });
  };

  it("the form starts empty; its post shows a confirmation naming the amount and what follows, and makes nothing", async () => {
    const c = await paidThroughStripe();
    const page = await (await admin.get(`/admin/invoices/${c.invoice.id}`)).text();
    expect(inputValue(page, "amount")).toBe("");
    const token = refundTokenIn(page);
    const asked = fake.refundRequests.length;

    const review = await post(c.invoice.id, {
      intent: "refund-review",
      token,
      amount: "30",
      reason: "Two mailboxes fewer than ordered",
    });
    expect(review.status).toBe(200);
    const html = await review.text();
    const shown = text(html);
    expect(shown).toContain(`Refund $30.00 of invoice ${c.invoice.invoice_number} to the client's card?`);
    expect(shown).toContain("Once stripe confirms it, a credit note will be issued and the client emailed.");
    expect(shown).toContain("$30.00 goes back to the client through stripe, the way they paid.");
    expect(shown).toContain("Reason, printed on the credit note: Two mailboxes fewer than ordered");
    expect(buttonTag(html, "Confirm the refund of $30.00")).toMatch(/value="refund"/);
    expect(buttonTag(html, "Back")).toMatch(/value="refund-back"/);
    // The confirmation carries what was typed and the same token.
    expect(inputValue(html, "token")).toBe(token);
    expect(inputValue(html, "amount")).toBe("30");
    expect(refundConfirmationIn(html)).toBe(
      refundConfirmationFor(server, token, { amount: "30", reason: "Two mailboxes fewer than ordered" }),
    );
    expect(fake.refundRequests).toHaveLength(asked);
    expect(await made(c.invoice.id)).toMatchObject({ refunds: 0, credit_notes: 0 });

    // Back: the form again, with what was typed; still nothing made.
    const back = await post(c.invoice.id, {
      intent: "refund-back",
      token,
      amount: "30",
      reason: "Two mailboxes fewer than ordered",
    });
    expect(back.status).toBe(200);
    const again = await back.text();
    expect(inputValue(again, "amount")).toBe("30");
    expect(again).toContain('value="Two mailboxes fewer than ordered"');
    expect(text(again)).not.toContain("Confirm the refund");
    expect(await made(c.invoice.id)).toMatchObject({ refunds: 0, credit_notes: 0 });
  });

  it("a refund posted without its confirmation step (or changed after it) is shown the confirmation and makes nothing", async () => {
    const c = await paidThroughStripe();
    const token = await refundFormToken(admin, c.invoice.id);
    const asked = fake.refundRequests.length;
    const reason = "Two mailboxes fewer than ordered";
    const skipped = await post(c.invoice.id, { intent: "refund", token, amount: "30", reason });
    const changed = await post(c.invoice.id, {
      intent: "refund",
      token,
      amount: "40",
      reason,
      confirmation: refundConfirmationFor(server, token, { amount: "30", reason }),
    });
    for (const [res, amount] of [
      [skipped, "$30.00"],
      [changed, "$40.00"],
    ] as const) {
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(text(html)).toContain(
        `Refund ${amount} of invoice ${c.invoice.invoice_number} to the client's card?`,
      );
      expect(text(html)).not.toContain("Refunded");
    }
    expect(fake.refundRequests).toHaveLength(asked);
    expect(await made(c.invoice.id)).toMatchObject({ refunds: 0, credit_notes: 0 });
  });

  it("Confirm posted twice makes one refund, one credit note, one call to Stripe; the second answers as the first", async () => {
    const c = await paidThroughStripe();
    const token = await refundFormToken(admin, c.invoice.id);
    const asked = fake.refundRequests.length;

    const first = await confirm(c.invoice.id, token);
    expect(first.status).toBe(200);
    const firstHtml = await first.text();
    const said = text(firstHtml).match(
      /Refunded \$30\.00 of invoice INV-\d{4}-\d{4}: credit note CN-\d{4}-\d{4}\./,
    )?.[0];
    expect(said).toBeTruthy();
    // The page after a refund: the success, and an empty form with a new token.
    expect(inputValue(firstHtml, "amount")).toBe("");
    expect(refundTokenIn(firstHtml)).not.toBe(token);

    const second = await confirm(c.invoice.id, token);
    expect(second.status).toBe(200);
    expect(text(await second.text())).toContain(said!);
    expect(fake.refundRequests).toHaveLength(asked + 1);
    expect(fake.refundRequests.at(-1)!.idempotencyKey).toBe(`refund:${token}`);
    expect(await made(c.invoice.id)).toEqual({ refunds: 1, credit_notes: 1, emails: 1, tokens: token });
  });

  it("the second post arriving while Stripe makes the first's refund waits for nothing and makes nothing", async () => {
    const c = await paidThroughStripe();
    const token = await refundFormToken(admin, c.invoice.id);
    const asked = fake.refundRequests.length;
    let second: { status: number; text: string } | null = null;
    fake.beforeRefundAnswer = async () => {
      const res = await confirm(c.invoice.id, token);
      second = { status: res.status, text: text(await res.text()) };
    };
    const first = await confirm(c.invoice.id, token);
    expect(first.status).toBe(200);
    expect(second).toMatchObject({ status: 200 });
    expect(second!.text).toContain(PENDING_MESSAGE);
    expect(fake.refundRequests).toHaveLength(asked + 1);
    expect(await made(c.invoice.id)).toEqual({ refunds: 1, credit_notes: 1, emails: 1, tokens: token });
  });

  it("two identical posts at once make one refund, one credit note, one call to Stripe", async () => {
    const c = await paidThroughStripe();
    const token = await refundFormToken(admin, c.invoice.id);
    const asked = fake.refundRequests.length;
    const answers = await Promise.all([confirm(c.invoice.id, token), confirm(c.invoice.id, token)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    for (const res of answers) {
      expect(text(await res.text())).toMatch(
        new RegExp(`Refunded \\$30\\.00 of invoice ${c.invoice.invoice_number}|${PENDING_MESSAGE}`),
      );
    }
    expect(fake.refundRequests).toHaveLength(asked + 1);
    expect(await made(c.invoice.id)).toEqual({ refunds: 1, credit_notes: 1, emails: 1, tokens: token });
  });

  it("refuses a post without the token, with a made-up one or another invoice's, at both steps", async () => {
    const c = await paidThroughStripe();
    const other = await paidThroughStripe();
    const othersToken = await refundFormToken(admin, other.invoice.id);
    const ours = await refundFormToken(admin, c.invoice.id);
    const madeUp = `${ours.slice(0, 23)}${"A".repeat(43)}`;
    const asked = fake.refundRequests.length;
    for (const intent of ["refund-review", "refund"]) {
      for (const token of [undefined, "", "made-up", madeUp, othersToken]) {
        const fields: Record<string, string> = { intent, amount: "30", reason: "No form of ours" };
        if (token !== undefined) fields.token = token;
        const res = await post(c.invoice.id, fields);
        expect(res.status, `${intent} ${token}`).toBe(400);
        const html = await res.text();
        expect(text(html)).toContain(NOT_OURS);
        // Nothing typed is lost: the form comes back with it.
        expect(inputValue(html, "amount")).toBe("30");
      }
    }
    expect(fake.refundRequests).toHaveLength(asked);
    expect(await made(c.invoice.id)).toMatchObject({ refunds: 0, credit_notes: 0 });
  });

  it("a token that made a refund cannot make another of a different amount, at either step", async () => {
    const c = await paidThroughStripe();
    const token = await refundFormToken(admin, c.invoice.id);
    expect((await confirm(c.invoice.id, token, "30")).status).toBe(200);
    const asked = fake.refundRequests.length;
    for (const intent of ["refund", "refund-review"]) {
      const res = await post(c.invoice.id, { intent, token, amount: "40", reason: "Another one" });
      expect(res.status, intent).toBe(409);
      expect(text(await res.text())).toContain(
        "This refund form was already used, for a refund of $30.00: reload the page to make another refund.",
      );
    }
    expect(fake.refundRequests).toHaveLength(asked);
    expect(await made(c.invoice.id)).toMatchObject({ refunds: 1, credit_notes: 1 });
  });
});
