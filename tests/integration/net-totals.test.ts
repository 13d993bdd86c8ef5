/**
 * Totals net of refunds through the real HTTP server, with the sandbox provider (its signed refund
 * webhook reaches the server): the client's dashboard and orders "Total Spent", the invoices page's
 * totals and the back office's client page after partial refunds and after full ones (the order
 * cancelled, its invoice still invoiced and paid, all of it refunded); the back office's revenue per month: what was paid in a month less the
 * credit notes issued in it, whichever month the refunded invoice was paid in.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { type MonthRevenue, revenueByMonth } from "~/features/admin/dashboard-figures.server";
import { monthLabel } from "~/features/admin/month-label";
import { formatMoney } from "~/features/money/format";
import { accountsOn } from "../support/accounts";
import { location, type Session, text } from "../support/browserless";
import { checkoutTokenIn, signedInClient } from "../support/clients";
import { testDatabases } from "../support/databases";
import { refundThroughForm } from "../support/refunds";
import { freePort, startTestServer, type TestServer } from "../support/server";

type Client = Awaited<ReturnType<typeof signedInClient>>;
interface Bought {
  orderId: string;
  invoiceId: string;
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A stat card's figure: its label, then its value (the portal's StatCard). */
const card = (label: string, value: string) => new RegExp(`${label}</p><p[^>]*>${literal(value)}<`);
/** A line of a definition list (the back office's client page). */
const line = (label: string, value: string) => new RegExp(`${label}</dt><dd[^>]*>${literal(value)}</dd>`);

describe.each(testDatabases)("totals net of refunds on $name", (database) => {
  let server: TestServer;
  let admin: Session;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.103.${n}`,
  );

  beforeAll(async () => {
    // The sandbox's webhooks reach this server: it must know its own port.
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PUBLIC_URL: `http://127.0.0.1:${await freePort()}`,
    });
    ({ session: admin } = await signedIn({
      email: "owner.net-totals@example.com",
      name: "Owner",
      role: "admin",
    }));
  });
  afterAll(async () => {
    await server?.close();
  });

  /** `mailboxes` mailboxes of Email Migration, Basic ($4 each), in USD; paid through the sandbox if `pay`. */
  async function buy(client: Client, mailboxes: number, pay = true): Promise<Bought> {
    const page = await client.session.get("/client/purchase/email-migration");
    const bought = await client.session.post("/client/purchase/email-migration", {
      checkoutToken: checkoutTokenIn(await page.text()),
      package: "basic",
      quantity: String(mailboxes),
      currency: "USD",
    });
    expect(bought.status).toBe(302);
    if (pay) {
      const token = new URL(location(bought), server.url).searchParams.get("session")!;
      const paid = await client.session.post("/payments/sandbox/checkout", { session: token, intent: "pay" });
      expect(paid.status).toBe(302);
    }
    const [row] = await queryRows<{ order_id: string; invoice_id: string; status: string; usd: string }>(
      db(),
      sql`select o.id as order_id, i.id as invoice_id, i.status, i.amount_usd::text as usd
          from orders o join invoices i on i.order_id = o.id
          where o.client_id = ${client.id} order by o.created_at desc limit 1`,
    );
    expect(row).toMatchObject({ status: pay ? "paid" : "sent", usd: (mailboxes * 4).toFixed(2) });
    return { orderId: row!.order_id, invoiceId: row!.invoice_id };
  }

  async function refund(invoiceId: string, amount: string) {
    const res = await refundThroughForm(admin, invoiceId, {
      amount,
      reason: "Fewer mailboxes than ordered",
    });
    expect(res.status, text(await res.text()).slice(0, 300)).toBe(200);
  }

  async function page(session: Session, path: string) {
    const res = await session.get(path);
    expect(res.status, path).toBe(200);
    return text(await res.text());
  }

  async function orderStatus(orderId: string) {
    const [row] = await queryRows<{ status: string }>(
      db(),
      sql`select status from orders where id = ${orderId}`,
    );
    return row!.status;
  }

  /**
   * Every total the client and the owner see of this client, as shown: one definition (issue 37,
   * invoices/money-totals.ts) on the dashboard, My Orders, the invoices page and the client's page.
   */
  async function expectTotals(
    c: Client,
    t: {
      active: number;
      invoiced: string;
      paid: string;
      refunded: string;
      netPaid: string;
      outstanding: string;
    },
  ) {
    const dashboard = await page(c.session, "/client/dashboard");
    expect(dashboard).toMatch(card("Active Orders", String(t.active)));
    expect(dashboard).toMatch(card("Total Spent", t.netPaid));
    expect(await page(c.session, "/client/orders")).toMatch(card("Total Spent", t.netPaid));
    const invoicesPage = await page(c.session, "/client/invoices");
    expect(invoicesPage).toMatch(card("Total Invoiced", t.invoiced));
    expect(invoicesPage).toMatch(card("Paid \\(net of refunds\\)", t.netPaid));
    expect(invoicesPage).toMatch(card("Outstanding", t.outstanding));
    const clientPage = await page(admin, `/admin/clients/${c.id}`);
    expect(clientPage).toMatch(line("Invoiced", t.invoiced));
    expect(clientPage).toMatch(line("Paid", t.paid));
    expect(clientPage).toMatch(line("Refunded", t.refunded));
    expect(clientPage).toMatch(line("Paid \\(net of refunds\\)", t.netPaid));
    expect(clientPage).toMatch(line("Outstanding", t.outstanding));
  }

  it("partial refunds lower what was paid on every page; a full refund cancels the order, whose invoice stays invoiced", async () => {
    const c = await signedInClient(server.url, db());
    const done = await buy(c, 20); // $80, completed below
    const running = await buy(c, 10); // $40, stays paid
    await buy(c, 3, false); // $12, unpaid
    for (const to of ["in_progress", "completed"]) {
      const move = await admin.post(`/admin/orders/${done.orderId}`, { to, note: "" });
      expect(move.status, to).toBe(200);
    }
    // Invoiced: every issued invoice; paid: the paid ones; net of the credit notes on every page.
    await expectTotals(c, {
      active: 2,
      invoiced: "$132.00",
      paid: "$120.00",
      refunded: "$0.00",
      netPaid: "$120.00",
      outstanding: "$12.00",
    });

    await refund(done.invoiceId, "30");
    await refund(running.invoiceId, "15");
    await expectTotals(c, {
      active: 2,
      invoiced: "$132.00",
      paid: "$120.00",
      refunded: "$45.00",
      netPaid: "$75.00",
      outstanding: "$12.00",
    });

    await refund(running.invoiceId, "25");
    expect(await orderStatus(running.orderId)).toBe("cancelled");
    await expectTotals(c, {
      active: 1,
      invoiced: "$132.00",
      paid: "$120.00",
      refunded: "$70.00",
      netPaid: "$50.00",
      outstanding: "$12.00",
    });

    // A completed order refunded in full is cancelled too.
    await refund(done.invoiceId, "50");
    expect(await orderStatus(done.orderId)).toBe("cancelled");
    await expectTotals(c, {
      active: 1,
      invoiced: "$132.00",
      paid: "$120.00",
      refunded: "$120.00",
      netPaid: "$0.00",
      outstanding: "$12.00",
    });
  });

  /** This month's and last month's figures (the last two of the twelve). */
  const recent = (months: MonthRevenue[]) => ({ last: months.at(-2)!, now: months.at(-1)! });
  const change = (before: MonthRevenue, after: MonthRevenue) => ({
    month: after.month,
    usd: Math.round((after.usd - before.usd) * 100) / 100,
    invoices: after.invoices - before.invoices,
  });

  it("revenue per month: a refund comes off the month it was made in, the payment stays in its own", async () => {
    const c = await signedInClient(server.url, db());
    const start = await revenueByMonth(db());
    expect(start).toHaveLength(12);

    // Paid this month ($80), $30 of it refunded this month: 50 more this month, one invoice more.
    const first = await buy(c, 20);
    await refund(first.invoiceId, "30");
    const mid = await revenueByMonth(db());
    expect(change(recent(start).now, recent(mid).now)).toMatchObject({ usd: 50, invoices: 1 });
    expect(mid.slice(0, 11)).toEqual(start.slice(0, 11));

    // Paid last month ($80), $30 of it refunded now: last month gains the payment and its invoice,
    // this month loses the refund and counts no invoice more.
    const second = await buy(c, 20);
    await db().execute(
      sql`update invoices set paid_at = date_trunc('month', now()) - interval '1 day' where id = ${second.invoiceId}`,
    );
    await refund(second.invoiceId, "30");
    const end = await revenueByMonth(db());
    expect(change(recent(mid).last, recent(end).last)).toMatchObject({ usd: 80, invoices: 1 });
    expect(change(recent(mid).now, recent(end).now)).toMatchObject({ usd: -30, invoices: 0 });
    expect(end.slice(0, 10)).toEqual(mid.slice(0, 10));

    // The dashboard shows these figures: each month's row and the twelve months' total.
    const dashboard = await page(admin, "/admin/dashboard");
    for (const m of [recent(end).last, recent(end).now]) {
      expect(dashboard).toMatch(
        new RegExp(
          `${monthLabel(m.month)}</th><td[^>]*>${literal(formatMoney(m.usd, "USD"))}</td><td[^>]*>${m.invoices}</td>`,
        ),
      );
    }
    const total = end.reduce((cents, m) => cents + Math.round(m.usd * 100), 0) / 100;
    expect(dashboard).toContain(
      `Paid invoices less refunds, USD, last 12 months: ${formatMoney(total, "USD")} in total.`,
    );
  });
});
