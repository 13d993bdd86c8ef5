/**
 * The client's changes to a care plan (issue 38, items 4 and 5; ADR 0531), through the real HTTP handler
 * and with an injected clock, on both databases: cancel at the period's end (the renewal already
 * invoiced voided), resume (invoiced again, a new number), the switch from monthly to yearly from the
 * first period not yet invoiced at the price shown, a new card through the provider's setup page, a
 * declined plan paid with a new card in one step, a suspended plan paid late, the plan ending on its
 * day, account deletion and the export knowing plans; each change previewed before it is made.
 */
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, invoices, orders, outboxEmails, planPeriods, planSubscriptions, user } from "~/db/schema";
import { acquireLease } from "~/features/jobs/leases.server";
import {
  addDays,
  addMonthsClamped,
  type CalendarDay,
  calendarDayOf,
  formatCalendarDay,
} from "~/features/plans/periods";
import {
  type ChangeContext,
  confirmPlanChange,
  planChangePreview,
} from "~/features/plans/plan-changes.server";
import { plansForExport } from "~/features/plans/plan-privacy.server";
import {
  endCancelledPlans,
  PLAN_STATES_JOB,
  reactivatePaidPlans,
  settlePlans,
} from "~/features/plans/plan-states.server";
import { plansOverview } from "~/features/plans/plan-subscribers.server";
import { RENEWAL_CHARGES_JOB } from "~/features/plans/renewal-charges.server";
import { issueDueRenewalsOf, RENEWALS_JOB, type RenewalDeps } from "~/features/plans/renewals.server";
import { accountsOn } from "../support/accounts";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { location, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { createSubscription } from "../support/plans";
import { freePort, startTestServer, type TestServer } from "../support/server";

const noon = (day: CalendarDay) => new Date(`${day}T12:00:00Z`);
/** The page's words, without tags nor the hydration data. */
const words = (html: string) =>
  text(html.replace(/<script\b[\s\S]*?<\/script>/g, " ").replace(/<[^>]*>/g, " "))
    .replace(/\s+/g, " ")
    .trim();
/** The preview's fingerprint, as the confirmation form carries it. */
const shownIn = (html: string) => html.match(/name="shown" value="([^"]*)"/)?.[1]?.replace(/&amp;/g, "&");

describe.each(testDatabases)("changing a care plan on $name", (database) => {
  let server: TestServer;
  let renewals: RenewalDeps;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.107.${n}`,
  );
  const ctx = (now: Date): ChangeContext => ({ rates: {}, taxRatePercent: 0, noticeDays: 7, now });
  const someone = (name: string) => ({
    email: `plan.${Math.random().toString(36).slice(2, 10)}@example.com`,
    name,
  });
  const subscription = async (id: string) =>
    (await db().select().from(planSubscriptions).where(eq(planSubscriptions.id, id)))[0]!;
  const periodsOf = (id: string) =>
    db()
      .select({
        index: planPeriods.periodIndex,
        startsOn: planPeriods.startsOn,
        endsOn: planPeriods.endsOn,
        invoiceId: planPeriods.invoiceId,
      })
      .from(planPeriods)
      .where(eq(planPeriods.subscriptionId, id))
      .orderBy(asc(planPeriods.periodIndex));
  const invoice = async (id: string) => (await db().select().from(invoices).where(eq(invoices.id, id)))[0]!;
  const jobDeps = () => ({
    db: db(),
    provider: (name: string) => server.portico.runtime.payments.forWebhook(name),
    logger: { warn() {} },
  });

  beforeAll(async () => {
    const port = await freePort();
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SANDBOX_WEBHOOK_SECRET: "plan-changes-secret-0123456789",
    });
    const { runtime } = server.portico;
    renewals = { db: runtime.database.db, config: runtime.config, rates: async () => ({}) };
    // The server's own plan jobs (every minute, on the real clock) stand aside: this test runs them
    // itself, at the days it walks.
    for (const job of [PLAN_STATES_JOB, RENEWALS_JOB, RENEWAL_CHARGES_JOB]) {
      expect(await acquireLease(runtime.database.db, job, "plan-changes-test", new Date(), 3_600_000)).toBe(
        true,
      );
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it("cancels at the period's end (the renewal already invoiced voided) and resumes (invoiced again)", async () => {
    const { id: clientId, session } = await signedIn(someone("Cora Cancel"));
    const today = calendarDayOf(new Date());
    // Period 1 starts in three to six days: its renewal invoice is already issued.
    const anchor = addDays(today, -25);
    const id = await createSubscription(db(), { clientId, anchorDay: anchor });
    const [renewal] = await issueDueRenewalsOf(renewals, id, new Date());
    const periodEnd = addMonthsClamped(anchor, 1);
    expect(renewal).toMatchObject({ periodIndex: 1 });

    const plans = words(await (await session.get("/client/plans")).text());
    expect(plans).toContain("Update card");
    expect(plans).toContain("Switch to yearly");
    expect(plans).toContain("Cancel plan");

    const page = await session.get(`/client/plans/${id}/cancel`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const preview = words(html);
    expect(preview).toContain(
      `Care Essentials stays active until ${formatCalendarDay(periodEnd)} and is not renewed after that.`,
    );
    expect(preview).toContain(`The renewal invoice ${renewal!.invoiceNumber} ($49.00)`);
    expect(preview).toContain("is voided: nothing is charged for it.");
    expect(preview).toContain("Why are you cancelling? (optional)");
    // Nothing is changed by looking.
    expect(await subscription(id)).toMatchObject({ cancelAtPeriodEnd: false });

    const done = await session.post(`/client/plans/${id}/cancel`, {
      shown: shownIn(html)!,
      reason: "Moving to another provider",
    });
    expect(done.status).toBe(200);
    expect(words(await done.text())).toContain(
      `Care Essentials ends on ${formatCalendarDay(periodEnd)}. You can resume it until then.`,
    );
    expect(await subscription(id)).toMatchObject({
      cancelAtPeriodEnd: true,
      cancelReason: "Moving to another provider",
      endsOn: periodEnd,
      nextPeriodIndex: 1,
      status: "active",
    });
    expect(await invoice(renewal!.invoiceId)).toMatchObject({ status: "void" });
    const [voidedOrder] = await db().select().from(orders).where(eq(orders.id, renewal!.orderId));
    expect(voidedOrder!.status).toBe("cancelled");
    expect(await periodsOf(id)).toEqual([]);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, id), eq(auditLog.action, "subscription.cancel")));
    expect(audit).toMatchObject({ actorId: clientId });
    const mails = await db().select().from(outboxEmails).where(eq(outboxEmails.kind, "plan-change"));
    expect(
      mails.some(
        (m) =>
          m.subject ===
          `Care Essentials ends on ${formatCalendarDay(periodEnd)}. You can resume it until then.`,
      ),
    ).toBe(true);

    // Twice is refused, in words.
    const again = await session.post(`/client/plans/${id}/cancel`, { shown: shownIn(html)! });
    expect(again.status).toBe(409);
    expect(words(await again.text())).toContain(
      `Care Essentials already ends on ${formatCalendarDay(periodEnd)}.`,
    );
    const ending = words(await (await session.get("/client/plans")).text());
    expect(ending).toContain(`Ends on ${formatCalendarDay(periodEnd)}`);
    expect(ending).toContain("Resume plan");
    expect(ending).not.toContain("Next renewal");

    // Resumed before the day: the period is invoiced again, with a new number.
    const resumePage = await session.get(`/client/plans/${id}/resume`);
    const resumeHtml = await resumePage.text();
    expect(words(resumeHtml)).toContain(
      `Care Essentials renews on ${formatCalendarDay(periodEnd)} for $49.00 (at that day's rate), then each month.`,
    );
    expect(words(resumeHtml)).toContain(
      "Its renewal invoice is issued today and charged to your Visa ending 4242",
    );
    const resumed = await session.post(`/client/plans/${id}/resume`, { shown: shownIn(resumeHtml)! });
    expect(resumed.status).toBe(200);
    expect(await subscription(id)).toMatchObject({
      cancelAtPeriodEnd: false,
      endsOn: null,
      cancelReason: null,
    });
    const [again1] = await issueDueRenewalsOf(renewals, id, new Date());
    expect(again1).toMatchObject({ periodIndex: 1 });
    expect(again1!.invoiceNumber > renewal!.invoiceNumber).toBe(true);
    expect(await invoice(again1!.invoiceId)).toMatchObject({ status: "sent" });
  });

  it("refuses an out-of-date preview, another client's plan, an unknown change and bad input", async () => {
    const cora = await signedIn(someone("Olga Outdated"));
    const id = await createSubscription(db(), {
      clientId: cora.id,
      anchorDay: addDays(calendarDayOf(new Date()), -3),
    });
    const stale = await cora.session.post(`/client/plans/${id}/cancel`, { shown: "end:2001-01-01:" });
    expect(stale.status).toBe(409);
    expect(words(await stale.text())).toContain(
      "The plan changed since this page was opened. Please read the change again before confirming.",
    );
    expect(await subscription(id)).toMatchObject({ cancelAtPeriodEnd: false });

    const other = await signedIn(someone("Nosy Neighbour"));
    expect((await other.session.get(`/client/plans/${id}/cancel`)).status).toBe(404);
    const forced = await other.session.post(`/client/plans/${id}/cancel`, { shown: "x" });
    expect(forced.status).toBe(404);
    expect((await other.session.post(`/client/plans/${id}/card`, { token: "a".repeat(20) })).status).toBe(
      404,
    );
    expect(await subscription(id)).toMatchObject({ cancelAtPeriodEnd: false, cardSetupReference: null });

    expect((await cora.session.get(`/client/plans/${id}/pause`)).status).toBe(404);
    expect((await cora.session.get("/client/plans/not-a-plan/cancel")).status).toBe(404);
    expect((await cora.session.get("/client/plans/%25/cancel")).status).toBe(404);
    const long = await cora.session.post(`/client/plans/${id}/cancel`, {
      shown: "x",
      reason: "x".repeat(501),
    });
    expect(long.status).toBe(400);
    expect(words(await long.text())).toContain("Keep the reason under 500 characters.");
    expect((await cora.session.post(`/client/plans/${id}/card`, { token: "<>" })).status).toBe(400);
    // Not set to end: nothing to resume.
    const resume = await cora.session.get(`/client/plans/${id}/resume`);
    expect(resume.status).toBe(409);
  });

  it("switches from monthly to yearly from the first period not yet invoiced, at the price shown", async () => {
    const { id: clientId, session } = await signedIn(someone("Yuri Yearly"));
    const today = calendarDayOf(new Date());
    const anchor = addDays(today, -2);
    const id = await createSubscription(db(), { clientId, anchorDay: anchor });
    const from = addMonthsClamped(anchor, 1);
    const page = await session.get(`/client/plans/${id}/cycle`);
    const html = await page.text();
    expect(words(html)).toContain(
      `From ${formatCalendarDay(from)}, Care Essentials renews each year for $490.00 ($490.00 at that day's rate) instead of each month for $49.00.`,
    );
    const done = await session.post(`/client/plans/${id}/cycle`, { shown: shownIn(html)! });
    expect(words(await done.text())).toContain(
      `Care Essentials switches to yearly from ${formatCalendarDay(from)}.`,
    );
    expect(await subscription(id)).toMatchObject({
      nextCycle: "yearly",
      nextPriceUsd: 490,
      cycle: "monthly",
    });
    expect(words(await (await session.get("/client/plans")).text())).toContain(
      `Switches to yearly from ${formatCalendarDay(from)}`,
    );

    // The owner's renewals due read the switch: a year at $490 on that day.
    const overview = await plansOverview(db(), new Date());
    expect(overview.renewals.rows.filter((r) => r.subscriptionId === id)).toEqual([
      expect.objectContaining({ cycle: "yearly", day: formatCalendarDay(from), amount: "$490.00" }),
    ]);

    // The renewal job, a week before: period 1 is a year at $490, the plan anchored again on its first day.
    const [yearly] = await issueDueRenewalsOf(renewals, id, noon(addDays(from, -7)));
    expect(yearly).toMatchObject({ periodIndex: 1, total: 490 });
    const [p1] = await periodsOf(id);
    expect(p1).toMatchObject({ startsOn: from, endsOn: addMonthsClamped(from, 12) });
    expect(await subscription(id)).toMatchObject({
      cycle: "yearly",
      priceUsd: 490,
      anchorDay: from,
      anchorPeriodIndex: 1,
      nextCycle: null,
      nextPriceUsd: null,
    });
    // Nothing more until a week before the year ends; then period 2, a year again.
    expect(await issueDueRenewalsOf(renewals, id, noon(addMonthsClamped(from, 6)))).toEqual([]);
    const [p2] = await issueDueRenewalsOf(renewals, id, noon(addDays(addMonthsClamped(from, 12), -7)));
    expect(p2).toMatchObject({ periodIndex: 2, total: 490 });
  });

  it("saves a new card through the provider's setup page, read back from the provider", async () => {
    const { id: clientId, session } = await signedIn(someone("Carl Card"));
    const id = await createSubscription(db(), {
      clientId,
      anchorDay: addDays(calendarDayOf(new Date()), -5),
    });
    const page = await session.get(`/client/plans/${id}/card`);
    const html = await page.text();
    expect(words(html)).toContain(
      "You enter the card on the payment provider's page. Nothing is charged now.",
    );
    const token = html.match(/name="token" value="([^"]+)"/)![1]!;
    const start = await session.post(`/client/plans/${id}/card`, { token });
    const checkout = location(start);
    expect(checkout).toMatch(/^\/payments\/sandbox\/checkout\?session=/);
    expect((await subscription(id)).cardSetupReference).toMatch(/^cs_setup_/);
    const saved = await session.post("/payments/sandbox/checkout", {
      session: new URL(checkout, server.url).searchParams.get("session")!,
      intent: "save",
      card: "expiring",
    });
    expect(location(saved)).toBe(`/client/plans/${id}/card-saved`);
    const back = await session.get(`/client/plans/${id}/card-saved`);
    expect(location(back)).toBe("/client/plans?card=saved");
    expect(await subscription(id)).toMatchObject({
      cardBrand: "mastercard",
      cardLast4: "4444",
      cardSetupReference: null,
      paymentMethodId: expect.stringMatching(/^pm_sbx_/),
    });
    const shown = words(await (await session.get("/client/plans?card=saved")).text());
    expect(shown).toContain("Your new card is saved: the renewals are charged to it.");
    expect(shown).toContain("Mastercard ending 4444");
    // An address of someone else's plan is not found; a made-up message is never shown.
    expect(words(await (await session.get("/client/plans?card=%3Cscript%3E")).text())).not.toContain(
      "script",
    );
  });

  it("a declined plan is paid with a new card in one step: active again, the new card on file", async () => {
    const { id: clientId, session } = await signedIn(someone("Dana Declined"));
    const today = calendarDayOf(new Date());
    // Period 1 began two days ago and its invoice was declined.
    const anchor = addDays(addMonthsClamped(today, -1), -2);
    const id = await createSubscription(db(), { clientId, anchorDay: anchor });
    const [due] = await issueDueRenewalsOf(renewals, id, new Date());
    await db()
      .update(planSubscriptions)
      .set({ status: "past_due", pastDueSince: new Date() })
      .where(eq(planSubscriptions.id, id));
    const plans = words(await (await session.get("/client/plans")).text());
    expect(plans).toContain(`Pay invoice ${due!.invoiceNumber} ($49.00) with a new card`);
    const cardPage = words(await (await session.get(`/client/plans/${id}/card`)).text());
    expect(cardPage).toContain("is unpaid: paying it with the new card saves the card too, in one step.");

    const pay = await session.post(`/client/invoices/${due!.invoiceId}/pay`, {});
    const checkout = location(pay);
    expect(checkout).toMatch(/^\/payments\/sandbox\/checkout\?session=/);
    const paid = await session.post("/payments/sandbox/checkout", {
      session: new URL(checkout, server.url).searchParams.get("session")!,
      intent: "pay",
      card: "expiring",
    });
    expect(location(paid)).toMatch(/^\/payment-success/);
    expect(await invoice(due!.invoiceId)).toMatchObject({ status: "paid" });
    const settled = await settlePlans(jobDeps(), new Date());
    expect(settled.reactivated).toContain(id);
    expect(settled.cards).toContain(id);
    expect(await subscription(id)).toMatchObject({ status: "active", pastDueSince: null, cardLast4: "4444" });
    // Once: the next run finds nothing to do for this plan.
    const next = await settlePlans(jobDeps(), new Date());
    expect(next.cards).not.toContain(id);
    expect(next.reactivated).not.toContain(id);
  });

  it("a suspended plan paid late restarts from the period it is in, without billing the periods it missed", async () => {
    const { id: clientId } = await signedIn(someone("Sam Suspended"));
    const id = await createSubscription(db(), { clientId, anchorDay: "2027-01-10" });
    const [feb] = await issueDueRenewalsOf(renewals, id, noon("2027-02-03"));
    await db()
      .update(planSubscriptions)
      .set({ status: "suspended", suspendedAt: noon("2027-02-17") })
      .where(eq(planSubscriptions.id, id));
    // Still owed: not reactivated.
    expect(await reactivatePaidPlans(db(), noon("2027-04-15"))).not.toContain(id);
    await db()
      .update(invoices)
      .set({ status: "paid", paidAt: noon("2027-04-15") })
      .where(eq(invoices.id, feb!.invoiceId));
    expect(await reactivatePaidPlans(db(), noon("2027-04-15"))).toContain(id);
    expect(await subscription(id)).toMatchObject({ status: "active", suspendedAt: null, nextPeriodIndex: 3 });
    const issued = await issueDueRenewalsOf(renewals, id, noon("2027-04-15"));
    expect(issued.map((p) => p.periodIndex)).toEqual([3]);
    expect((await periodsOf(id)).map((p) => [p.index, p.startsOn])).toEqual([
      [1, "2027-02-10"],
      [3, "2027-04-10"],
    ]);
  });

  it("ends a plan cancelled at its period's end on that day, once; the renewal email asks for a card that will have expired", async () => {
    const { id: clientId } = await signedIn(someone("Erin Ending"));
    const id = await createSubscription(db(), { clientId, anchorDay: "2027-01-10" });
    await db()
      .update(planSubscriptions)
      .set({ cardExpMonth: 1, cardExpYear: 2027 })
      .where(eq(planSubscriptions.id, id));
    const [feb] = await issueDueRenewalsOf(renewals, id, noon("2027-02-03"));
    const [mail] = await db()
      .select()
      .from(outboxEmails)
      .where(
        and(
          eq(outboxEmails.kind, "plan-renewal"),
          eq(
            outboxEmails.subject,
            `Care Essentials: invoice ${feb!.invoiceNumber} for 10 February 2027 to 10 March 2027`,
          ),
        ),
      );
    expect(text(mail!.text)).toContain(
      `Your Visa ending 4242 will have expired by 10 February 2027: please add a new card at ${server.portico.runtime.config.publicUrl}/client/plans/${id}/card before then, or pay the invoice now.`,
    );

    const now = noon("2027-02-05");
    const preview = await planChangePreview(db(), clientId, id, "cancel", ctx(now));
    if (!preview.ok) throw new Error(preview.error);
    const actor = { id: clientId, email: "x@example.com" };
    const deps = { db: db(), actor, config: server.portico.runtime.config, wakeOutbox() {} };
    const done = await confirmPlanChange(
      deps,
      clientId,
      id,
      "cancel",
      { shown: preview.preview.shown },
      ctx(now),
    );
    expect(done).toEqual({
      ok: true,
      message: "Care Essentials ends on 10 February 2027. You can resume it until then.",
    });
    expect(await invoice(feb!.invoiceId)).toMatchObject({ status: "void" });
    expect(await endCancelledPlans(db(), noon("2027-02-09"))).not.toContain(id);
    expect(await endCancelledPlans(db(), noon("2027-02-10"))).toContain(id);
    expect(await endCancelledPlans(db(), noon("2027-02-11"))).not.toContain(id);
    expect(await subscription(id)).toMatchObject({ status: "cancelled", cancelledAt: noon("2027-02-10") });
    // Cancelled: no renewal, no change offered.
    expect(await issueDueRenewalsOf(renewals, id, noon("2027-03-05"))).toEqual([]);
    const after = await planChangePreview(db(), clientId, id, "resume", ctx(noon("2027-02-11")));
    expect(after).toMatchObject({ ok: false, status: 409, error: "Care Essentials is already cancelled." });
  });

  it("a renewing plan refuses account deletion until cancelled; the deletion then ends it and forgets the card", async () => {
    const { id: clientId, session } = await signedIn(someone("Pia Privacy"));
    const id = await createSubscription(db(), {
      clientId,
      anchorDay: addDays(calendarDayOf(new Date()), -4),
    });
    const tab = await (await session.get("/client/profile?tab=privacy")).text();
    expect(words(tab)).toContain("Care plan Care Essentials (still renewing)");
    expect(tab).toContain(`href="/client/plans/${id}/cancel"`);
    const refused = await session.post("/client/profile", {
      intent: "deleteAccount",
      password: FIXTURE_PASSWORD,
      confirm: "DELETE",
    });
    expect(refused.status).toBe(409);
    expect(words(await refused.text())).toContain("care plan Care Essentials (still renewing)");

    // The export names the plan and its card, never the provider's ids.
    const exported = JSON.stringify(await plansForExport(db(), clientId));
    expect(exported).toContain('"plan":"Care Essentials"');
    expect(exported).toContain('"last4":"4242"');
    expect(exported).not.toMatch(/cus_sbx|pm_sbx/);

    const page = await session.get(`/client/plans/${id}/cancel`);
    await session.post(`/client/plans/${id}/cancel`, { shown: shownIn(await page.text())! });
    const deleted = await session.post("/client/profile", {
      intent: "deleteAccount",
      password: FIXTURE_PASSWORD,
      confirm: "DELETE",
    });
    expect(deleted.status).toBe(302);
    expect(await subscription(id)).toMatchObject({
      status: "cancelled",
      cancelReason: "account deleted",
      paymentMethodId: null,
      cardLast4: null,
    });
    const [gone] = await db().select({ name: user.name }).from(user).where(eq(user.id, clientId));
    expect(gone!.name).toBe("Deleted client");
  });
});
