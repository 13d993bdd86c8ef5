/**
 * One status per invoice and per quote, whichever page shows it (issue 36, item 2), through the real
 * HTTP server: a paid invoice partly refunded and past its due date reads "partially refunded", an
 * unpaid one past its due date (not yet marked by the scheduled job) "overdue", on the client's order
 * page, invoice page, invoices list and search, and on the owner's order page, invoice page, invoices
 * list and client page; a sent quote past its valid-until day (not yet expired by the job) "expired" on
 * the client's quote page and quotes list and the owner's quote page and quotes list. The client's
 * invoice chips count by that same status: each chip's count is the number of rows it lists, and every
 * row it lists reads its status (an overdue and a partly refunded invoice are not counted or listed as
 * sent and paid). The dates are set in the database; nothing waits. The portal words statuses with a capital, the back office in
 * lower case: the labels are compared without case, the status keys (`data-status`) exactly.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import type { QuoteDeps } from "~/features/quotes/quote-deps.server";
import { type DraftInput, saveDraft } from "~/features/quotes/quote-drafts.server";
import { sendQuote } from "~/features/quotes/quote-sending.server";
import { accountsOn } from "../support/accounts";
import { createOrder } from "../support/admin-fixtures";
import type { Session } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

const DAY = 24 * 60 * 60 * 1000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The first status badge after `anchor` (an invoice or quote number) in a page: its key and words. */
async function badgeAfter(session: Session, path: string, anchor: string) {
  const res = await session.get(path);
  expect(res.status, path).toBe(200);
  const html = await res.text();
  const body = html.slice(html.indexOf("<body"));
  const at = body.indexOf(anchor);
  expect(at, `${anchor} on ${path}`).toBeGreaterThan(-1);
  const badge = /data-status="([^"]+)"[^>]*>([^<]+)</.exec(body.slice(at));
  expect(badge, `a status after ${anchor} on ${path}`).not.toBeNull();
  return { path, status: badge![1]!, label: badge![2]!.trim().toLowerCase() };
}

describe.each(testDatabases)("one shown status on every page on $name", (database) => {
  let server: TestServer;
  let admin: Session;
  let client: { id: string; session: Session };
  const { db, signedIn } = accountsOn(
    () => server,
    (i) => `198.51.113.${i}`,
  );
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
    ({ session: admin } = await signedIn({ email: "owner.shown@example.com", name: "Owner", role: "admin" }));
    client = await signedIn({ email: `ada.shown.${Date.now()}@example.com`, name: "Ada Shown" });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Every page that shows the invoice of `order`, as the client and as the owner see it. */
  async function invoiceStatuses(order: { orderId: string; invoiceId: string; invoiceNumber: string }) {
    const n = order.invoiceNumber;
    return [
      await badgeAfter(client.session, `/client/orders/${order.orderId}`, n),
      await badgeAfter(client.session, `/client/invoice/${order.invoiceId}`, n),
      await badgeAfter(client.session, "/client/invoices", n),
      await badgeAfter(client.session, `/client/search?q=${encodeURIComponent(n)}`, n),
      await badgeAfter(admin, `/admin/orders/${order.orderId}`, n),
      await badgeAfter(admin, `/admin/invoices/${order.invoiceId}`, n),
      await badgeAfter(admin, "/admin/invoices", n),
      await badgeAfter(admin, `/admin/clients/${client.id}`, n),
    ];
  }

  it("a paid invoice partly refunded, past its due date, reads partially refunded everywhere", async () => {
    const order = await createOrder(db(), client.id, { status: "paid", amountUsd: 80, dueInDays: -5 });
    await rows(
      sql`update invoices set refunded_amount = 30, refunded_usd = 30 where id = ${order.invoiceId}`,
    );
    const shown = await invoiceStatuses(order);
    for (const page of shown)
      expect(page, page.path).toMatchObject({ status: "partially_refunded", label: "partially refunded" });
  });

  it("an unpaid invoice past its due date, not yet marked by the job, reads overdue everywhere", async () => {
    const order = await createOrder(db(), client.id, { status: "pending", dueInDays: -3 });
    const [stored] = await rows<{ status: string }>(
      sql`select status from invoices where id = ${order.invoiceId}`,
    );
    expect(stored!.status).toBe("sent");
    const shown = await invoiceStatuses(order);
    for (const page of shown) expect(page, page.path).toMatchObject({ status: "overdue", label: "overdue" });
  });

  it("counts the client's invoice chips by the status the rows show (Paid: refunded or not), each invoice under one", async () => {
    const chips = await signedIn({ email: `chips.shown.${Date.now()}@example.com`, name: "Chip Counter" });
    const overdue = await createOrder(db(), chips.id, { status: "pending", dueInDays: -3 });
    const refunded = await createOrder(db(), chips.id, { status: "paid", amountUsd: 80 });
    await rows(
      sql`update invoices set refunded_amount = 30, refunded_usd = 30 where id = ${refunded.invoiceId}`,
    );
    const sent = await createOrder(db(), chips.id, { status: "pending", dueInDays: 10 });
    const paid = await createOrder(db(), chips.id, { status: "paid" });

    /** The chips' counts and the rows (invoice number and shown status) of one filter of the list. */
    const listed = async (path: string) => {
      const res = await chips.session.get(path);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      const body = html.slice(html.indexOf("<body"));
      const counts = Object.fromEntries(
        [...body.matchAll(/data-count="([^"]+)"[^>]*>([\s\S]*?)<\/span>/g)].map((m) => [
          m[1]!,
          Number(m[2]!.replace(/<!--.*?-->|[^\d]/g, "")),
        ]),
      );
      const shown = [...body.matchAll(/<tr data-invoice-id="[^"]+"[\s\S]*?<\/tr>/g)].map((m) => {
        const number = /INV-[\w-]+/.exec(m[0])?.[0];
        const status = /data-status="([^"]+)"/.exec(m[0])?.[1];
        return { number, status };
      });
      return { counts, shown };
    };

    const all = await listed("/client/invoices");
    // Every invoice is under exactly one chip: Paid holds the paid ones, refunded or not.
    expect(all.counts).toEqual({ all: 4, paid: 2, sent: 1, overdue: 1 });
    expect(new Map(all.shown.map((r) => [r.number, r.status]))).toEqual(
      new Map([
        [overdue.invoiceNumber, "overdue"],
        [refunded.invoiceNumber, "partially_refunded"],
        [sent.invoiceNumber, "sent"],
        [paid.invoiceNumber, "paid"],
      ]),
    );
    const expected = {
      overdue: [[overdue, "overdue"]],
      sent: [[sent, "sent"]],
      paid: [
        [paid, "paid"],
        [refunded, "partially_refunded"],
      ],
    } as const;
    for (const [filter, listedUnder] of Object.entries(expected)) {
      const page = await listed(`/client/invoices?status=${filter}`);
      expect(page.counts, filter).toEqual(all.counts);
      expect(new Set(page.shown.map((r) => `${r.number} ${r.status}`)), filter).toEqual(
        new Set(listedUnder.map(([o, status]) => `${o.invoiceNumber} ${status}`)),
      );
      expect(page.shown.length, filter).toBe(all.counts[filter]);
    }
    // A search keeps to the chip too (its matches are counted, not read from the totals).
    const searched = await listed(`/client/invoices?status=sent&q=INV`);
    expect(searched.shown).toEqual([{ number: sent.invoiceNumber, status: "sent" }]);
  });

  it("a sent quote past its valid-until day, not yet expired by the job, reads expired everywhere", async () => {
    const owner: QuoteDeps = {
      db: db(),
      config: server.portico.runtime.config,
      actor: { id: null, email: "owner.shown@example.com" },
    };
    const [email] = await rows<{ email: string }>(sql`select email from clients where id = ${client.id}`);
    const draft = await saveDraft(owner, null, {
      name: "Ada Shown",
      email: email!.email,
      company: "",
      lines: [{ kind: "free", description: "Tenant cut-over", quantity: 1, unitPrice: "500.00" }],
      depositPercent: null,
      validUntil: isoDay(new Date(Date.now() - DAY)),
      terms: "Payable on acceptance.",
    } satisfies DraftInput);
    expect(draft.ok).toBe(true);
    const id = (draft as { id: string }).id;
    // Sent three days ago, valid until yesterday (a sent quote is frozen: its day is set before).
    expect(await sendQuote(owner, id, new Date(Date.now() - 3 * DAY))).toMatchObject({ ok: true });
    const [quote] = await rows<{ quote_number: string; status: string }>(
      sql`select quote_number, status from quotes where id = ${id}`,
    );
    expect(quote!.status).toBe("sent");
    const n = quote!.quote_number;
    const shown = [
      await badgeAfter(client.session, `/client/quotes/${id}`, `Quote ${n}`),
      await badgeAfter(client.session, "/client/quotes", n),
      await badgeAfter(admin, `/admin/quotes/${id}`, n),
      await badgeAfter(admin, "/admin/quotes", n),
    ];
    for (const page of shown) expect(page, page.path).toMatchObject({ status: "expired", label: "expired" });
  });
});
