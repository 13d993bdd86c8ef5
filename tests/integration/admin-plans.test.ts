/**
 * The owner's view of care plans (issue 38, item 7; ADR 0531 "Owner's view") on both databases: the
 * figures with an injected day (MRR of a monthly and a yearly plan, a cancelled and a suspended one left
 * out; a renewal in 29 days listed and one in 31 not; a past-due plan listed with its unpaid invoice and
 * its decline in words; cancellations with their reasons), the page through the real handler, the
 * client's page, a plan period's order refused a status change (409) while its invoice can still be
 * refunded, the dashboard's work counts leaving plan orders out, "Needs attention" listing the past-due
 * plan, and the revenue chart counting a paid plan invoice as recurring.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoices, orders, planSubscriptions } from "~/db/schema";
import { revenueByMonth } from "~/features/admin/dashboard-figures.server";
import { PLAN_PERIOD_STATUS_FIXED } from "~/features/orders/order-lifecycle.server";
import { addDays, type CalendarDay, formatCalendarDay } from "~/features/plans/periods";
import { listSubscribers, plansOfClient, plansOverview } from "~/features/plans/plan-subscribers.server";
import { issueDueRenewalsOf } from "~/features/plans/renewals.server";
import { accountsOn } from "../support/accounts";
import { createAccount, createOrder } from "../support/admin-fixtures";
import { type Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { type DeclinedPlan, declinedPlan } from "../support/plan-declines";
import { createSubscription } from "../support/plans";
import { startTestServer, type TestServer } from "../support/server";

const noon = (day: CalendarDay) => new Date(`${day}T12:00:00Z`);
/** The day the figures are read on: decades ahead, so the server's own jobs (on the real clock) never reach it. */
const TODAY = "2091-03-10";

describe.each(testDatabases)("the owner's view of care plans on $name", (database) => {
  let server: TestServer;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.104.${n}`,
  );
  let admin: Session;
  const ids: Record<string, string> = {};
  let pastDue: DeclinedPlan;

  beforeAll(async () => {
    server = await startTestServer(database);
    ({ session: admin } = await signedIn({ email: "owner.plans@example.com", name: "Owner", role: "admin" }));
    for (const name of [
      "Mona Monthly",
      "Yuri Yearly",
      "Cass Cancelled",
      "Pat Pastdue",
      "Eve Ending",
      "Sue Suspended",
    ]) {
      ids[name] = await createAccount(db(), {
        email: `${name.split(" ")[0]!.toLowerCase()}.plans@example.com`,
        name,
      });
    }
    // Monthly $49, renewing on 8 April 2091: in 29 days.
    ids.monthly = await createSubscription(db(), {
      clientId: ids["Mona Monthly"]!,
      anchorDay: "2091-02-08",
      priceUsd: 49,
      planName: "Care Essentials",
    });
    // Yearly $490, renewing on 10 April 2091: in 31 days.
    ids.yearly = await createSubscription(db(), {
      clientId: ids["Yuri Yearly"]!,
      anchorDay: "2090-04-10",
      cycle: "yearly",
      priceUsd: 490,
      planName: "Care Plus",
    });
    // Cancelled with a reason: in neither the figures nor the renewals.
    ids.cancelled = await createSubscription(db(), {
      clientId: ids["Cass Cancelled"]!,
      anchorDay: "2091-01-15",
      priceUsd: 129,
      status: "cancelled",
    });
    await db()
      .update(planSubscriptions)
      .set({ cancelReason: "Too expensive for us", cancelledAt: noon("2091-03-01") })
      .where(eq(planSubscriptions.id, ids.cancelled));
    // Past due: its renewal of 5 March 2091 declined for insufficient funds.
    pastDue = await declinedPlan(db(), server.portico.runtime.config, {
      clientId: ids["Pat Pastdue"]!,
      dueDay: "2091-03-05",
      priceUsd: 99,
      decline: {
        code: "card_declined",
        declineCode: "insufficient_funds",
        message: "Your card has insufficient funds.",
      },
    });
    // Ending at its period's end (20 March 2091), with the client's reason: counted until then.
    ids.ending = await createSubscription(db(), {
      clientId: ids["Eve Ending"]!,
      anchorDay: "2091-02-20",
      priceUsd: 30,
      cancelAtPeriodEnd: true,
    });
    await db()
      .update(planSubscriptions)
      .set({ cancelReason: "Moving the work in-house" })
      .where(eq(planSubscriptions.id, ids.ending));
    // Suspended: listed with the past-due one, but no longer counted.
    ids.suspended = await createSubscription(db(), {
      clientId: ids["Sue Suspended"]!,
      anchorDay: "2091-01-02",
      priceUsd: 75,
      status: "suspended",
    });
    await db()
      .update(planSubscriptions)
      .set({ suspendedAt: noon("2091-02-09"), pastDueSince: noon("2091-02-02") })
      .where(eq(planSubscriptions.id, ids.suspended));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it("sums MRR exactly, lists the renewals of the next 30 days, the past-due plan and the cancellations", async () => {
    const view = await plansOverview(db(), noon(TODAY));
    // Active or past due: monthly, yearly, past due, ending (not cancelled, not suspended).
    expect(view.figures.subscribers).toBe(4);
    // $49 + $490 / 12 + $99 + $30 = $218.8333…, rounded once.
    expect(view.figures.mrrUsd).toBe(218.83);
    // 8 April (29 days) and 5 April (the past-due plan still renews); 10 April (31 days) is not listed,
    // nor the plan ending on 20 March.
    expect(view.renewals.rows.map((r) => [r.clientName, r.day, r.amount])).toEqual([
      ["Pat Pastdue", formatCalendarDay("2091-04-05"), "$99.00"],
      ["Mona Monthly", formatCalendarDay("2091-04-08"), "$49.00"],
    ]);
    expect(view.figures.renewals).toEqual({ count: 2, totalUsd: 148 });
    // A day later the yearly plan's renewal is 30 days away: listed.
    const later = await plansOverview(db(), noon(addDays(TODAY, 1)));
    expect(later.renewals.rows.map((r) => r.clientName)).toContain("Yuri Yearly");

    const [invoice] = await db().select().from(invoices).where(eq(invoices.id, pastDue.invoiceId));
    expect(view.troubled.map((t) => t.clientName)).toEqual(["Sue Suspended", "Pat Pastdue"]);
    expect(view.troubled[1]).toMatchObject({
      status: "past_due",
      statusLabel: "Payment failed",
      since: "5 March 2091",
      invoice: { id: pastDue.invoiceId, number: invoice!.invoiceNumber, amount: "$99.00" },
      decline: {
        words: "Insufficient funds; retried on days 1, 3 and 7 after the due date.",
        on: expect.any(String),
      },
    });
    expect(view.troubled[0]).toMatchObject({
      status: "suspended",
      statusLabel: "Suspended",
      since: "9 February 2091",
      invoice: null,
      decline: null,
    });

    expect(view.cancellations.total).toBe(2);
    expect(view.cancellations.rows).toMatchObject([
      { clientName: "Eve Ending", ending: true, reason: "Moving the work in-house", day: "20 March 2091" },
      { clientName: "Cass Cancelled", ending: false, reason: "Too expensive for us", day: "1 March 2091" },
    ]);
    // Per plan: the fixtures' plans are all Care Essentials in the catalogue.
    expect(Object.values(view.subscribersByPlan).reduce((a, b) => a + b, 0)).toBe(4);
  });

  it("lists every subscriber with its status in the client's words, next renewal and card", async () => {
    const list = await listSubscribers(db(), { q: "", page: 1 }, noon(TODAY));
    expect(list.total).toBe(6);
    const byName = Object.fromEntries(list.rows.map((r) => [r.clientName, r]));
    expect(byName["Mona Monthly"]).toMatchObject({
      statusLabel: "Active",
      cycle: "monthly",
      started: "8 February 2091",
      nextRenewal: "8 April 2091",
      card: "Visa ending 4242",
    });
    expect(byName["Eve Ending"]).toMatchObject({ statusLabel: "Ends at period end", nextRenewal: null });
    expect(byName["Pat Pastdue"]).toMatchObject({
      statusLabel: "Payment failed",
      nextRenewal: "5 April 2091",
    });
    expect(byName["Cass Cancelled"]).toMatchObject({ statusLabel: "Cancelled", nextRenewal: null });
    const found = await listSubscribers(db(), { q: "yuri", page: 1 }, noon(TODAY));
    expect(found.rows.map((r) => r.clientName)).toEqual(["Yuri Yearly"]);
    expect(await plansOfClient(db(), ids["Pat Pastdue"]!, noon(TODAY))).toMatchObject([
      { planName: "Care Plus", statusLabel: "Payment failed", nextRenewal: "5 April 2091" },
    ]);
  });

  it("shows it all on /admin/plans and the client's plans on the client's page", async () => {
    const res = await admin.get("/admin/plans");
    expect(res.status).toBe(200);
    const page = text(await res.text());
    for (const words of [
      "Active subscribers",
      "Monthly recurring revenue",
      "monthly plans at their price, yearly plans at a twelfth of theirs",
      "Renewals in the next 30 days",
      "Past due and suspended",
      "Pat Pastdue",
      `/admin/invoices/${pastDue.invoiceId}`,
      "Insufficient funds; retried on days 1, 3 and 7 after the due date.",
      "Too expensive for us",
      "Moving the work in-house",
      "Subscribers",
      "Visa ending 4242",
      `/admin/clients/${ids["Mona Monthly"]}`,
    ]) {
      expect(page).toContain(words);
    }
    // Today is long before the fixtures' plans renew: nothing in the next 30 days, in words.
    expect(page).toContain("No plan renews in the next 30 days.");

    const client = text(await (await admin.get(`/admin/clients/${ids["Pat Pastdue"]}`)).text());
    expect(client).toContain("Care plans (1)");
    expect(client).toMatch(/Care Plus<\/td><td[^>]*>Monthly<\/td><td[^>]*><span[^>]*>Payment failed<\/span>/);
    const [shown] = await plansOfClient(db(), ids["Pat Pastdue"]!, new Date());
    expect(client).toContain(`<td>${shown!.nextRenewal}</td>`);
  });

  it("refuses a status change on a plan period's order, which stays refundable", async () => {
    const path = `/admin/orders/${pastDue.orderId}`;
    const before = text(await (await admin.get(path)).text());
    expect(before).toContain("Care plan period");
    expect(before).toMatch(/data-testid="care-plan-period".*href="\/admin\/plans"/s);
    expect(before).not.toContain("Change status");
    for (const to of ["in_progress", "cancelled", "paid"]) {
      const refused = await admin.post(path, { intent: "transition", to, note: "" });
      expect(refused.status, to).toBe(409);
      expect(text(await refused.text())).toContain(PLAN_PERIOD_STATUS_FIXED);
    }
    const [order] = await db().select().from(orders).where(eq(orders.id, pastDue.orderId));
    expect(order!.status).toBe("pending");

    // Paid by bank transfer on its invoice's page (as any invoice), it still has no status to change,
    // and its invoice offers the refund.
    const invoicePath = `/admin/invoices/${pastDue.invoiceId}`;
    expect((await admin.post(invoicePath, { intent: "mark-paid", reference: "PLAN-BANK-1" })).status).toBe(
      200,
    );
    const started = await admin.post(path, { intent: "transition", to: "in_progress", note: "" });
    expect(started.status).toBe(409);
    const [paid] = await db().select().from(orders).where(eq(orders.id, pastDue.orderId));
    expect(paid!.status).toBe("paid");
    expect(text(await (await admin.get(invoicePath)).text())).toContain("Refund…");

    // The owner's orders list keeps it, marked as a care plan.
    const list = await (await admin.get("/admin/orders?q=pat.plans%40example.com")).text();
    expect(list).toContain(`/admin/orders/${pastDue.orderId}`);
    expect(list).toMatch(/data-care-plan="true"[^>]*>Care plan</);
  });

  it("leaves plan orders out of the dashboard's work counts, shows past-due plans and recurring revenue apart", async () => {
    const openCounts = async () => {
      const page = await (await admin.get("/admin/dashboard")).text();
      const count = (status: string) =>
        Number(
          new RegExp(`href="/admin/orders\\?status=${status}"[^>]*>[^<]*</a><span[^>]*>(\\d+)</span>`).exec(
            page,
          )?.[1],
        );
      return { page, pending: count("pending"), paid: count("paid"), inProgress: count("in_progress") };
    };
    const before = await openCounts();
    expect(before.paid).toBeGreaterThanOrEqual(0);
    const revenueBefore = await revenueByMonth(db(), new Date());

    // A plan's period (issued with a day of its own, far from the server's own jobs), then paid today
    // by bank transfer: a sale of this month, not work.
    const clientId = ids["Mona Monthly"]!;
    const sub = await createSubscription(db(), { clientId, anchorDay: "2091-06-01", priceUsd: 45 });
    const [issued] = await issueDueRenewalsOf(
      { db: db(), config: server.portico.runtime.config, rates: async () => ({}) },
      sub,
      noon("2091-06-28"),
    );
    expect(issued).toBeTruthy();
    const pendingNow = await openCounts();
    expect(pendingNow.pending).toBe(before.pending);
    const paying = await admin.post(`/admin/invoices/${issued!.invoiceId}`, {
      intent: "mark-paid",
      reference: "PLAN-BANK-2",
    });
    expect(paying.status).toBe(200);
    const paidNow = await openCounts();
    expect(paidNow).toMatchObject({
      pending: before.pending,
      paid: before.paid,
      inProgress: before.inProgress,
    });
    // An ordinary paid order is work: counted.
    const job = await createOrder(db(), clientId, { status: "paid" });
    const { page } = await openCounts();
    expect(page).toMatch(/href="\/admin\/orders\?status=paid"[^>]*>[^<]*<\/a><span[^>]*>(\d+)<\/span>/);
    expect((await openCounts()).paid).toBe(before.paid + 1);

    // Needs attention: the suspended plan and the past-due one, each a link.
    const attention = text(page);
    expect(attention).toContain("Care plan suspended: Care Essentials, Sue Suspended");
    expect(attention).toContain("Care plan past due: Care Plus, Pat Pastdue");

    // The chart: this month's recurring revenue grew by the plan invoice's USD, one-off by the job's.
    const usdOf = async (invoiceId: string) =>
      (await db().select().from(invoices).where(eq(invoices.id, invoiceId)))[0]!.amountUsd;
    const after = await revenueByMonth(db(), new Date());
    const month = (m: typeof after) => m.at(-1)!;
    const cents = (usd: number) => Math.round(usd * 100);
    expect(cents(month(after).recurringUsd) - cents(month(revenueBefore).recurringUsd)).toBe(
      cents(await usdOf(issued!.invoiceId)),
    );
    expect(cents(month(after).oneOffUsd) - cents(month(revenueBefore).oneOffUsd)).toBe(
      cents(await usdOf(job.invoiceId)),
    );
    expect(cents(month(after).usd)).toBe(cents(month(after).recurringUsd) + cents(month(after).oneOffUsd));
    expect(text(page)).toContain("Recurring (care plans):");
  });
});
