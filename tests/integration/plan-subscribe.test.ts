/**
 * Subscribing to a care plan through the real HTTP handler with the sandbox provider (issue 38, item 2;
 * ADR 0531), on both databases: the subscribe page, the first period's order and gap-free invoice in the
 * client's currency, the sandbox's page saving the chosen test card, the activation job starting the plan
 * on the day it was paid with that card, and the client's Care Plans page; a double post makes one plan;
 * bad input and other people's plans are refused.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoices, orders, planPeriods, planSubscriptions } from "~/db/schema";
import { activatePaidSubscriptions } from "~/features/plans/activation.server";
import { calendarDayOf, formatCalendarDay, periodStart } from "~/features/plans/periods";
import { location, type Session, text } from "../support/browserless";
import { checkoutTokenIn, signedInClient } from "../support/clients";
import { testDatabases } from "../support/databases";
import { freePort, startTestServer, type TestServer } from "../support/server";

describe.each(testDatabases)("subscribing to a care plan on $name", (database) => {
  let server: TestServer;
  const db = () => server.portico.runtime.database.db;
  const activate = () =>
    activatePaidSubscriptions({
      db: db(),
      provider: (name) => server.portico.runtime.payments.forWebhook(name),
      logger: { warn() {} },
    });

  beforeAll(async () => {
    const port = await freePort();
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SANDBOX_WEBHOOK_SECRET: "plan-subscribe-secret-0123456789",
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** Posts the subscribe form of `slug` with `fields`; answers the response and the form's token. */
  async function subscribeTo(session: Session, slug: string, fields: Record<string, string> = {}) {
    const page = await session.get(`/client/plans/subscribe/${slug}?cycle=${fields.cycle ?? "monthly"}`);
    expect(page.status).toBe(200);
    const token = checkoutTokenIn(await page.text());
    const res = await session.post(`/client/plans/subscribe/${slug}`, {
      checkoutToken: token,
      cycle: "monthly",
      currency: "EUR",
      ...fields,
    });
    return { res, token };
  }

  it("subscribes, pays on the sandbox's page with a saved test card, and the plan starts with that card", async () => {
    const { session, id } = await signedInClient(server.url, db(), "Plan Buyer");
    const page = text(await (await session.get("/client/plans/subscribe/care-plus?cycle=yearly")).text());
    expect(page).toContain("Subscribe to Care Plus");
    expect(page).toContain("The card you pay with is saved for the renewals.");
    expect(page).toContain('<input type="radio" name="cycle" checked="" value="yearly"/>');

    const { res } = await subscribeTo(session, "care-plus", { cycle: "monthly" });
    const checkoutPath = location(res);
    expect(checkoutPath).toMatch(/^\/payments\/sandbox\/checkout\?session=/);
    const [sub] = await db().select().from(planSubscriptions).where(eq(planSubscriptions.clientId, id));
    expect(sub).toMatchObject({
      status: "incomplete",
      planName: "Care Plus",
      cycle: "monthly",
      priceUsd: 129,
      currency: "EUR",
    });
    const [order] = await db().select().from(orders).where(eq(orders.planSubscriptionId, sub!.id));
    const [invoice] = await db().select().from(invoices).where(eq(invoices.orderId, order!.id));
    expect(invoice).toMatchObject({ status: "sent", currency: "EUR" });
    expect(invoice!.invoiceNumber).toMatch(/^INV-\d{4}-\d{4,}$/);

    // The sandbox's page offers the test cards; the client pays with the one that needs authentication
    // later (so this test also shows which card was saved).
    const token = new URL(checkoutPath, server.url).searchParams.get("session")!;
    const sandboxPage = text(await (await session.get(checkoutPath)).text());
    expect(sandboxPage).toContain("Visa 3184: needs the cardholder");
    const pay = await session.post("/payments/sandbox/checkout", {
      session: token,
      intent: "pay",
      card: "authentication",
    });
    expect(location(pay)).toBe(`/payment-success?order_id=${order!.id}&amount=${invoice!.totalAmount}`);

    // Paid: the page reads the plan as active before the activation job runs.
    const before = text(await (await session.get("/client/plans")).text());
    expect(before).toContain("Care Plus");
    expect(before).toContain("Active");
    // The job's run (the server's own, every minute, may come first: either starts it, once).
    await activate();
    expect(await activate()).toEqual([]);
    const [started] = await db().select().from(planSubscriptions).where(eq(planSubscriptions.id, sub!.id));
    const today = calendarDayOf(new Date());
    expect(started).toMatchObject({
      status: "active",
      anchorDay: today,
      cardBrand: "visa",
      cardLast4: "3184",
      paymentMethodId: expect.stringMatching(/^pm_sbx_/),
      providerCustomerId: expect.stringMatching(/^cus_sbx_/),
      nextPeriodIndex: 1,
    });
    const [period0] = await db()
      .select()
      .from(planPeriods)
      .where(and(eq(planPeriods.subscriptionId, sub!.id), eq(planPeriods.periodIndex, 0)));
    expect(period0).toMatchObject({ startsOn: today, endsOn: periodStart(today, "monthly", 1) });

    const plans = text(await (await session.get("/client/plans")).text());
    expect(plans).toContain("Visa ending 3184");
    expect(plans).toContain(`Next renewal`);
    expect(plans).toContain(formatCalendarDay(periodStart(today, "monthly", 1)));
    expect(plans).toContain(invoice!.invoiceNumber);
    expect(plans).toContain("0 of 3 used");

    // A second subscription to the same plan is refused, naming where it is.
    const again = await subscribeTo(session, "care-plus");
    expect(again.res.status).toBe(409);
    expect(text(await again.res.text())).toContain("You already have Care Plus: see it under Care Plans.");
  });

  it("the same form posted twice makes one plan and one order", async () => {
    const { session, id } = await signedInClient(server.url, db(), "Double Clicker");
    const page = await session.get("/client/plans/subscribe/care-essentials");
    const token = checkoutTokenIn(await page.text());
    const fields = { checkoutToken: token, cycle: "yearly", currency: "USD" };
    const [a, b] = await Promise.all([
      session.post("/client/plans/subscribe/care-essentials", fields),
      session.post("/client/plans/subscribe/care-essentials", fields),
    ]);
    expect(location(a)).toMatch(/^\/payments\/sandbox\/checkout/);
    expect(location(b)).toMatch(/^\/payments\/sandbox\/checkout/);
    const subs = await db().select().from(planSubscriptions).where(eq(planSubscriptions.clientId, id));
    expect(subs).toHaveLength(1);
    const own = await db().select().from(orders).where(eq(orders.clientId, id));
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ currency: "USD", amountUsd: 490, package: "yearly" });
    // Not paid yet: the plans page waits for the first invoice, with the way to pay it.
    const plans = text(await (await session.get("/client/plans")).text());
    expect(plans).toContain("Waiting for payment");
    expect(plans).toContain("Pay the first invoice to start the plan");
  });

  it("refuses what is not a plan, a cycle it is not sold in, and bad input, with clear messages", async () => {
    const { session } = await signedInClient(server.url, db(), "Careful Client");
    expect((await session.get("/client/plans/subscribe/no-such-plan")).status).toBe(404);
    expect((await session.get("/client/plans/subscribe/%25%27%22")).status).toBe(404);
    const page = await session.get("/client/plans/subscribe/care-essentials");
    const token = checkoutTokenIn(await page.text());
    const weekly = await session.post("/client/plans/subscribe/care-essentials", {
      checkoutToken: token,
      cycle: "weekly",
    });
    expect(weekly.status).toBe(400);
    expect(text(await weekly.text())).toContain("Choose monthly or yearly.");
    const noToken = await session.post("/client/plans/subscribe/care-essentials", { cycle: "monthly" });
    expect(noToken.status).toBe(400);
    const gone = await session.post("/client/plans/subscribe/no-such-plan", {
      checkoutToken: token,
      cycle: "monthly",
    });
    expect(gone.status).toBe(404);
  });

  it("shows a client their own plans only, and sends visitors to sign in", async () => {
    const owner = await signedInClient(server.url, db(), "Plan Owner");
    await subscribeTo(owner.session, "care-essentials");
    const other = await signedInClient(server.url, db(), "Someone Else");
    const theirs = text(await (await other.session.get("/client/plans")).text());
    expect(theirs).toContain("No care plan yet");
    expect(theirs).not.toContain("Care Essentials</h2>");
    const visitor = await server.get("/client/plans/subscribe/care-plus?cycle=monthly");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/client\/login/);
  });
});
