/**
 * Incidents covered by a care plan (issue 38, item 6; ADR 0531) through the real HTTP handler, on both
 * databases: the purchase page of per-incident support offers "Covered by your plan" to a client whose
 * plan has incidents left in a paid current period; ordering makes an order at zero with no invoice (no
 * number of the series used), counts the period's incident in the same transaction, raises the notices
 * and the email of an order placed, and the ordinary order page, brief and conversation follow on both
 * sides; money totals do not move. Refused: an exhausted allowance (409, nothing made), a suspended or
 * unpaid plan, another client's plan, forged input. Two posts at once never exceed the allowance; the
 * next period's allowance starts again at 0; a cancelled covered order gives its incident back.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { invoices, notifications, orders, outboxEmails, planPeriods, planSubscriptions } from "~/db/schema";
import { clientMoneyTotals } from "~/features/invoices/money-totals.server";
import { transitionOrder } from "~/features/orders/order-lifecycle.server";
import { calendarDayOf, periodStart } from "~/features/plans/periods";
import { issueDueRenewalsOf } from "~/features/plans/renewals.server";
import { accountsOn } from "../support/accounts";
import { location, type Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { createPeriod, subscribedWithPeriod } from "../support/plan-periods";
import { createSubscription } from "../support/plans";
import { startTestServer, type TestServer } from "../support/server";

const PAGE = "/client/purchase/per-incident-support";
const COVERED_FORM =
  /name="intent" value="covered"\/><input type="hidden" name="checkoutToken" value="([^"]+)"\/><input type="hidden" name="periodId" value="([^"]+)"/;

/** A well-formed token of a form never shown (a forced post). */
const forgedToken = () => `forged${Math.random().toString(36).slice(2, 14)}x`;

describe.each(testDatabases)("incidents covered by a care plan on $name", (database) => {
  let server: TestServer;
  let ownerId: string;
  let owner: Session;
  const accounts = accountsOn(
    () => server,
    (n) => `198.51.${Math.floor(n / 250)}.${(n % 250) + 1}`,
  );
  const db = () => accounts.db();
  const config = () => server.portico.runtime.config;
  let people = 0;

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
    ({ id: ownerId, session: owner } = await accounts.signedIn({
      email: "owner.covered@portico.example",
      name: "Owner",
      role: "admin",
    }));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** A signed-in client with a fresh address. */
  async function client(name: string) {
    return accounts.signedIn({ email: `covered.${++people}.${Date.now()}@example.com`, name });
  }

  /** The purchase page's covered form (its token and period), or null when it offers none. */
  async function coveredForm(session: Session) {
    const res = await session.get(PAGE);
    expect(res.status).toBe(200);
    const html = text(await res.text());
    const form = COVERED_FORM.exec(html);
    return { html, form: form ? { checkoutToken: form[1]!, periodId: form[2]! } : null };
  }

  const postCovered = (session: Session, fields: Record<string, string>, page = PAGE) =>
    session.post(page, { intent: "covered", ...fields });

  async function used(periodId: string) {
    const [row] = await db()
      .select({ used: planPeriods.incidentsUsed })
      .from(planPeriods)
      .where(eq(planPeriods.id, periodId));
    return row!.used;
  }

  const ordersOf = (clientId: string) => db().select().from(orders).where(eq(orders.clientId, clientId));

  async function invoiceCounter() {
    const rows = await queryRows<{ last_seq: number }>(
      db(),
      sql`select coalesce(sum(last_seq), 0)::int as last_seq from invoice_counters`,
    );
    return rows[0]!.last_seq;
  }

  it("orders an incident at zero with no invoice, counts it, tells both sides, and the order page, brief and conversation follow", async () => {
    const { id, session } = await client("Covered Client");
    const plan = await subscribedWithPeriod(db(), config(), {
      clientId: id,
      planName: "Care Plus",
      allowance: 3,
    });
    const moneyBefore = await clientMoneyTotals(db(), id);
    const dashboardBefore = text(await (await session.get("/client/dashboard")).text());
    expect(dashboardBefore).toMatch(/Total Spent<\/p><p[^>]*>\$49\.00</);
    const counterBefore = await invoiceCounter();

    const { html, form } = await coveredForm(session);
    expect(html).toContain("Covered by your plan");
    expect(html).toContain("3 of 3 incidents left this period");
    expect(html).toContain("Order with Care Plus");
    expect(form!.periodId).toBe(plan.periodId);
    // The way to pay stays on the page, with its own token.
    expect(html).toContain("Proceed to Payment");

    const res = await postCovered(session, form!);
    expect(res.status).toBe(302);
    const to = location(res);
    expect(to).toMatch(/^\/client\/orders\/[0-9a-f-]{36}$/);
    const orderId = to.split("/").at(-1)!;

    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({
      clientId: id,
      serviceName: "Per Incident Support",
      packageName: "Per Incident",
      quantity: 1,
      amountUsd: 0,
      amountInCurrency: 0,
      unitPriceUsd: 0,
      status: "paid",
      coveredByPeriodId: plan.periodId,
      planSubscriptionId: null,
    });
    expect(order!.paidAt).not.toBeNull();
    // No invoice, and no number of the gap-free series used.
    expect(await db().select().from(invoices).where(eq(invoices.orderId, orderId))).toEqual([]);
    expect(await invoiceCounter()).toBe(counterBefore);
    expect(await used(plan.periodId)).toBe(1);

    // The client's notice and email of an order placed; the owner's notice of a new order. No payment.
    const clientNotices = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, id), eq(notifications.href, to)));
    expect(clientNotices.map((n) => [n.title, n.message])).toEqual([
      [
        "Order Placed",
        "Your order for Per Incident Support is covered by your Care Plus plan. Your order is being processed.",
      ],
    ]);
    const ownerNotices = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, ownerId), eq(notifications.href, `/admin/orders/${orderId}`)));
    expect(ownerNotices).toHaveLength(1);
    expect(ownerNotices[0]).toMatchObject({ title: "New Covered Order" });
    expect(ownerNotices[0]!.message).toContain(
      "Covered Client ordered Per Incident Support (Per Incident), covered by their Care Plus plan, on ",
    );
    const paymentNotices = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, id), eq(notifications.title, "Payment Received")));
    expect(paymentNotices).toEqual([]);
    const emails = await db()
      .select({ subject: outboxEmails.subject, text: outboxEmails.text })
      .from(outboxEmails)
      .where(eq(outboxEmails.kind, "order-covered"));
    const email = emails.find((e) => e.text.includes(orderId));
    expect(email?.subject).toBe("Order placed: Per Incident Support, covered by Care Plus");
    expect(email?.text).toContain("2 of 3 incidents left this period");

    // The order page says what covered it where the amount would be, and asks for the brief.
    const page = text(await (await session.get(to)).text());
    expect(page).toContain("Covered by Care Plus");
    expect(page).toContain("Covered by plan");
    expect(page).toContain("What is broken");
    const brief = await session.post(to, {
      intent: "brief",
      problem: "Outlook cannot send mail",
      since: "This morning",
      urgency: "Nobody can send email",
    });
    expect(brief.status).toBe(200);
    expect(text(await brief.text())).toContain("Outlook cannot send mail");
    const message = await session.post(to, { intent: "message", body: "Here is one more detail." });
    expect(message.status).toBe(200);
    // The owner's page: the plan in the amount's place, the brief and the message.
    const adminPage = text(await (await owner.get(`/admin/orders/${orderId}`)).text());
    expect(adminPage).toContain("Covered by Care Plus");
    expect(adminPage).toContain("Outlook cannot send mail");
    expect(adminPage).toContain("Here is one more detail.");
    const reply = await owner.post(`/admin/orders/${orderId}`, { intent: "message", body: "On it." });
    expect(reply.status).toBe(200);

    // The plan page counts it; the offer shows what is left; money totals did not move.
    expect(text(await (await session.get("/client/plans")).text())).toContain("1 of 3 used");
    expect((await coveredForm(session)).html).toContain("2 of 3 incidents left this period");
    expect(await clientMoneyTotals(db(), id)).toEqual(moneyBefore);
    const dashboardAfter = text(await (await session.get("/client/dashboard")).text());
    expect(dashboardAfter).toMatch(/Total Spent<\/p><p[^>]*>\$49\.00</);
  });

  it("refuses an order once the allowance is used up: 409 and nothing made", async () => {
    const { id, session } = await client("Thrifty Client");
    const plan = await subscribedWithPeriod(db(), config(), { clientId: id, allowance: 1 });
    const { form } = await coveredForm(session);
    expect(location(await postCovered(session, form!))).toMatch(/^\/client\/orders\//);
    expect(await used(plan.periodId)).toBe(1);

    const after = await coveredForm(session);
    expect(after.form).toBeNull();
    expect(after.html).not.toContain("Covered by your plan");
    const forced = await postCovered(session, { checkoutToken: forgedToken(), periodId: plan.periodId });
    expect(forced.status).toBe(409);
    expect(text(await forced.text())).toContain("No covered incidents are left this period");
    expect(await ordersOf(id)).toHaveLength(2); // period 0's own order and the one covered incident
    expect(await used(plan.periodId)).toBe(1);
  });

  it("a suspended or cancelled plan covers nothing, and a past-due plan covers nothing until its period is paid", async () => {
    const { id, session } = await client("Suspended Client");
    const plan = await subscribedWithPeriod(db(), config(), {
      clientId: id,
      allowance: 2,
      status: "suspended",
      planName: "Care Plus",
    });
    const page = await coveredForm(session);
    expect(page.form).toBeNull();
    const refused = await postCovered(session, { checkoutToken: forgedToken(), periodId: plan.periodId });
    expect(refused.status).toBe(409);
    expect(text(await refused.text())).toContain(
      "Care Plus is suspended until its invoice is paid: it covers no incidents now.",
    );
    await db()
      .update(planSubscriptions)
      .set({ status: "cancelled" })
      .where(eq(planSubscriptions.id, plan.subscriptionId));
    expect((await coveredForm(session)).form).toBeNull();
    expect(
      (await postCovered(session, { checkoutToken: forgedToken(), periodId: plan.periodId })).status,
    ).toBe(409);
    expect(await used(plan.periodId)).toBe(0);
    expect(await ordersOf(id)).toHaveLength(1);

    // Past due: the current period's invoice failed to be charged; it covers once it is paid.
    const late = await client("Late Client");
    const unpaid = await subscribedWithPeriod(db(), config(), {
      clientId: late.id,
      allowance: 2,
      status: "past_due",
      planName: "Care Plus",
      paid: false,
    });
    expect((await coveredForm(late.session)).form).toBeNull();
    const early = await postCovered(late.session, {
      checkoutToken: forgedToken(),
      periodId: unpaid.periodId,
    });
    expect(early.status).toBe(409);
    expect(text(await early.text())).toContain(
      "The invoice for this period of Care Plus is not paid yet: its incidents are covered once it is.",
    );
    await db()
      .update(invoices)
      .set({ status: "paid", paidAt: new Date() })
      .where(eq(invoices.id, unpaid.invoiceId));
    const { form, html } = await coveredForm(late.session);
    expect(html).toContain("2 of 2 incidents left this period");
    expect(location(await postCovered(late.session, form!))).toMatch(/^\/client\/orders\//);
    expect(await used(unpaid.periodId)).toBe(1);
  });

  it("the next period's allowance starts again at 0", async () => {
    const { id, session } = await client("Renewed Client");
    // Period 0 ran last month and used its one incident; period 1 runs now.
    const today = calendarDayOf(new Date());
    const anchorDay = calendarDayOf(new Date(Date.now() - 33 * 86_400_000));
    const subscriptionId = await createSubscription(db(), { clientId: id, anchorDay, planName: "Care Plus" });
    const first = await createPeriod(db(), config(), {
      subscriptionId,
      clientId: id,
      index: 0,
      startsOn: anchorDay,
      endsOn: periodStart(anchorDay, "monthly", 1),
    });
    await db().update(planPeriods).set({ incidentsUsed: 1 }).where(eq(planPeriods.id, first.periodId));
    expect(periodStart(anchorDay, "monthly", 1) <= today).toBe(true);
    expect((await coveredForm(session)).form).toBeNull();

    // The renewals job (clock injected: now) issues period 1; the charge on its due day pays it.
    const runtime = server.portico.runtime;
    const issued = await issueDueRenewalsOf(
      { db: db(), config: runtime.config, rates: async () => ({}) },
      subscriptionId,
      new Date(),
    );
    expect(issued.map((p) => p.periodIndex)).toEqual([1]);
    const [period1] = await db()
      .select()
      .from(planPeriods)
      .where(and(eq(planPeriods.subscriptionId, subscriptionId), eq(planPeriods.periodIndex, 1)));
    expect(period1).toMatchObject({ incidentsUsed: 0 });
    expect(period1!.startsOn <= today && today < period1!.endsOn).toBe(true);
    expect((await coveredForm(session)).form).toBeNull(); // its invoice is not paid yet
    await db()
      .update(invoices)
      .set({ status: "paid", paidAt: new Date() })
      .where(eq(invoices.id, period1!.invoiceId));

    const { form, html } = await coveredForm(session);
    expect(html).toContain("1 of 1 incident left this period");
    expect(form!.periodId).toBe(period1!.id);
    expect(location(await postCovered(session, form!))).toMatch(/^\/client\/orders\//);
    expect(await used(period1!.id)).toBe(1);
    expect(await used(first.periodId)).toBe(1);
    // The old period cannot be used, whatever is posted.
    const old = await postCovered(session, { checkoutToken: forgedToken(), periodId: first.periodId });
    expect(old.status).toBe(409);
    expect(text(await old.text())).toContain("is not the current one any more");
  });

  it("two posts at once with one incident left make exactly one order; the same form twice makes one", async () => {
    const { id, session } = await client("Racing Client");
    const plan = await subscribedWithPeriod(db(), config(), { clientId: id, allowance: 1 });
    const a = (await coveredForm(session)).form!;
    const b = (await coveredForm(session)).form!;
    expect(a.checkoutToken).not.toBe(b.checkoutToken);
    const answers = await Promise.all([postCovered(session, a), postCovered(session, b)]);
    expect(answers.map((r) => r.status).sort()).toEqual([302, 409]);
    expect((await ordersOf(id)).filter((o) => o.coveredByPeriodId)).toHaveLength(1);
    expect(await used(plan.periodId)).toBe(1);

    const twice = await client("Double Clicker");
    const roomy = await subscribedWithPeriod(db(), config(), { clientId: twice.id, allowance: 3 });
    const form = (await coveredForm(twice.session)).form!;
    const [first, second] = await Promise.all([
      postCovered(twice.session, form),
      postCovered(twice.session, form),
    ]);
    expect(location(first)).toBe(location(second));
    expect((await ordersOf(twice.id)).filter((o) => o.coveredByPeriodId)).toHaveLength(1);
    expect(await used(roomy.periodId)).toBe(1);
  });

  it("a client cannot use another client's plan, and forged or hostile input is refused with a 4xx", async () => {
    const a = await client("Plan Holder");
    const plan = await subscribedWithPeriod(db(), config(), { clientId: a.id, allowance: 2 });
    const b = await client("Someone Else");
    expect((await coveredForm(b.session)).form).toBeNull();
    const stolen = await postCovered(b.session, { checkoutToken: forgedToken(), periodId: plan.periodId });
    expect(stolen.status).toBe(404);
    expect(text(await stolen.text())).toContain("This care plan period was not found.");
    expect(await ordersOf(b.id)).toEqual([]);
    expect(await used(plan.periodId)).toBe(0);

    const token = forgedToken();
    for (const periodId of ["not-a-uuid", "00000000-0000-0000-0000-000000000000", "' OR 1=1 --", ""]) {
      const res = await postCovered(a.session, { checkoutToken: token, periodId });
      expect(res.status, periodId).toBe(404);
    }
    expect((await postCovered(a.session, { checkoutToken: token, periodId: "x".repeat(100) })).status).toBe(
      400,
    );
    expect((await postCovered(a.session, { periodId: plan.periodId })).status).toBe(400);
    expect(
      (await postCovered(a.session, { checkoutToken: "<script>", periodId: plan.periodId })).status,
    ).toBe(400);
    // Another service is never covered, even with a good period.
    const other = await postCovered(
      a.session,
      { checkoutToken: token, periodId: plan.periodId },
      "/client/purchase/email-migration",
    );
    expect(other.status).toBe(400);
    expect(text(await other.text())).toContain("Only per-incident support is covered by a care plan.");
    // A visitor is sent to sign in.
    const visitor = await server.get(PAGE, {
      method: "POST",
      body: new URLSearchParams({ intent: "covered", checkoutToken: token, periodId: plan.periodId }),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/client\/login/);
    expect(await ordersOf(a.id)).toHaveLength(1);
    expect(await used(plan.periodId)).toBe(0);
  });

  it("a covered order the owner cancels gives its incident back to the period", async () => {
    const { id, session } = await client("Cancelled Client");
    const plan = await subscribedWithPeriod(db(), config(), { clientId: id, allowance: 1 });
    const orderPath = location(await postCovered(session, (await coveredForm(session)).form!));
    expect(await used(plan.periodId)).toBe(1);
    const done = await transitionOrder(
      { db: db(), config: config(), actor: { id: ownerId, email: "owner.covered@portico.example" } },
      orderPath.split("/").at(-1)!,
      "cancelled",
      null,
    );
    expect(done.ok).toBe(true);
    expect(await used(plan.periodId)).toBe(0);
    expect((await coveredForm(session)).html).toContain("1 of 1 incident left this period");
  });
});
