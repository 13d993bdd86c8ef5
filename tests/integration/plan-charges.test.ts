/**
 * Charging care plans' renewal invoices (issue 38, item 4; ADR 0531) with the sandbox provider's saved
 * cards and an injected clock, on both databases: paid on the due day; a soft decline retried on days 1
 * and 3 and paid after the client's card changed; a hard decline and a card needing authentication never
 * retried and suspended on day 7; a charge whose answer was lost asked again with its key and paid once.
 */
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  invoices,
  notifications,
  orders,
  outboxEmails,
  paymentEvents,
  planChargeAttempts,
  planPeriods,
  planSubscriptions,
} from "~/db/schema";
import {
  createSandboxProvider,
  memorySandboxStore,
  type SandboxProvider,
} from "~/features/payments/sandbox.server";
import type { SandboxTestCardName } from "~/features/payments/sandbox-cards";
import { addDays, addMonthsClamped, type CalendarDay } from "~/features/plans/periods";
import { chargeDueRenewals, type RenewalChargeDeps } from "~/features/plans/renewal-charges.server";
import { issueDueRenewalsOf, type RenewalDeps } from "~/features/plans/renewals.server";
import { createAccount } from "../support/admin-fixtures";
import { testDatabases } from "../support/databases";
import { createSubscription } from "../support/plans";
import { startTestServer, type TestServer } from "../support/server";

const noon = (day: CalendarDay) => new Date(`${day}T12:00:00Z`);

describe.each(testDatabases)("care plan renewal charges on $name", (database) => {
  let server: TestServer;
  let renewals: RenewalDeps;
  let charges: RenewalChargeDeps;
  let sandbox: SandboxProvider;
  let clock = noon("2027-01-01");
  /** Set to make the provider charge, then lose its answer (a crash or a dropped connection). */
  let loseNextAnswer = false;
  let adminId: string;

  beforeAll(async () => {
    server = await startTestServer(database);
    const { runtime } = server.portico;
    sandbox = createSandboxProvider({
      secret: "plan-charges-test-secret-0123456789",
      webhookUrl: "http://127.0.0.1:1/unused",
      store: memorySandboxStore(() => clock),
      now: () => clock,
      fetch: (async () => new Response("ok")) as typeof fetch,
    });
    renewals = { db: runtime.database.db, config: runtime.config, rates: async () => ({}) };
    charges = {
      db: runtime.database.db,
      business: runtime.config.business,
      publicUrl: runtime.config.publicUrl,
      wakeOutbox: () => {},
      logger: { info() {}, warn() {} },
      provider: () => ({
        ...sandbox,
        async chargeSavedCard(request) {
          const answer = await sandbox.chargeSavedCard(request);
          if (loseNextAnswer) {
            loseNextAnswer = false;
            throw new Error("socket hang up");
          }
          return answer;
        },
      }),
    };
    adminId = await createAccount(renewals.db, {
      email: `owner.${Date.now()}@example.com`,
      name: "Owner",
      role: "admin",
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** A client on a $49 monthly plan from `anchor`, its card saved through the sandbox as `card`. */
  async function subscriber(anchor: CalendarDay, card: SandboxTestCardName) {
    clock = noon(anchor);
    const clientId = await createAccount(renewals.db, {
      email: `sub.${card}.${anchor}.${Math.random().toString(36).slice(2)}@example.com`,
      name: "Plan Client",
    });
    const customerId = await sandbox.createCustomer({
      clientId,
      email: "x@example.com",
      name: "Plan Client",
    });
    const id = await createSubscription(renewals.db, { clientId, anchorDay: anchor });
    await saveNewCard(id, customerId, card);
    return { id, clientId, customerId };
  }

  /** The client saves `card` through the sandbox's setup page: the plan charges it from now on. */
  async function saveNewCard(id: string, customerId: string, card: SandboxTestCardName) {
    const setup = await sandbox.createCardSetup({
      customerId,
      description: "Care Essentials: the card for renewals",
      currency: "USD",
      successUrl: "http://127.0.0.1/client/plans",
      cancelUrl: "http://127.0.0.1/client/plans",
      idempotencyKey: `setup:${id}:${card}:${Math.random()}`,
      metadata: { subscription_id: id },
    });
    const session = sandbox.readSession(new URL(setup.url!, "http://x").searchParams.get("session")!)!;
    await sandbox.saveCard(session, card);
    const saved = (await sandbox.savedCardOf(setup.reference!))!;
    await renewals.db
      .update(planSubscriptions)
      .set({
        provider: "sandbox",
        providerCustomerId: customerId,
        paymentMethodId: saved.paymentMethodId,
        cardBrand: saved.brand,
        cardLast4: saved.last4,
        cardExpMonth: saved.expMonth,
        cardExpYear: saved.expYear,
      })
      .where(eq(planSubscriptions.id, id));
  }

  /** Issues the first renewal (period 1) and answers its invoice. */
  async function firstRenewal(id: string, anchor: CalendarDay) {
    // Issued on its notice day, 7 days before the period starts.
    const [due] = await issueDueRenewalsOf(renewals, id, noon(addDays(addMonthsClamped(anchor, 1), -7)));
    if (!due) throw new Error("no renewal issued");
    const [period] = await renewals.db
      .select()
      .from(planPeriods)
      .where(eq(planPeriods.invoiceId, due.invoiceId));
    return { invoiceId: due.invoiceId, dueDay: period!.startsOn, orderId: due.orderId };
  }

  async function runOn(day: CalendarDay) {
    clock = noon(day);
    return (await chargeDueRenewals(charges, clock)).length;
  }

  async function state(id: string, invoiceId: string) {
    const [sub] = await renewals.db.select().from(planSubscriptions).where(eq(planSubscriptions.id, id));
    const [invoice] = await renewals.db.select().from(invoices).where(eq(invoices.id, invoiceId));
    const attempts = await renewals.db
      .select({
        attempt: planChargeAttempts.attempt,
        outcome: planChargeAttempts.outcome,
        code: planChargeAttempts.declineCode,
      })
      .from(planChargeAttempts)
      .innerJoin(planPeriods, eq(planPeriods.id, planChargeAttempts.periodId))
      .where(eq(planPeriods.invoiceId, invoiceId))
      .orderBy(asc(planChargeAttempts.attempt));
    return { status: sub!.status, invoice: invoice!.status, attempts };
  }

  it("charges the saved card on the due day, once, and records the payment as a webhook would", async () => {
    const { id, clientId } = await subscriber("2027-01-10", "succeeds");
    const { invoiceId, dueDay, orderId } = await firstRenewal(id, "2027-01-10");
    expect(dueDay).toBe("2027-02-10");
    await runOn("2027-02-09");
    expect((await state(id, invoiceId)).attempts).toEqual([]);
    await runOn(dueDay);
    await runOn(dueDay);
    await runOn(addDays(dueDay, 1));
    expect(await state(id, invoiceId)).toEqual({
      status: "active",
      invoice: "paid",
      attempts: [{ attempt: 0, outcome: "succeeded", code: null }],
    });
    const [order] = await renewals.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order!.status).toBe("paid");
    const events = await renewals.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, orderId));
    expect(events).toHaveLength(1);
    const received = await renewals.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, clientId), eq(notifications.title, "Payment Received")));
    expect(received).toHaveLength(1);
  });

  it("a soft decline: past due, retried on days 1 and 3, paid with the client's new card", async () => {
    const { id, clientId, customerId } = await subscriber("2027-03-05", "insufficient_funds");
    const { invoiceId, dueDay } = await firstRenewal(id, "2027-03-05");
    await runOn(dueDay);
    expect(await state(id, invoiceId)).toEqual({
      status: "past_due",
      invoice: "sent",
      attempts: [{ attempt: 0, outcome: "soft", code: "insufficient_funds" }],
    });
    // The client is told, with the way to pay; the owner too.
    const failed = await renewals.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, clientId), eq(notifications.title, "Payment failed")));
    expect(failed[0]?.message).toContain("was declined for invoice");
    expect(failed[0]?.message).toContain("We will try again in a few days.");
    expect(failed[0]?.href).toBe(`/client/invoice/${invoiceId}`);
    const owner = await renewals.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, adminId), eq(notifications.title, "Renewal payment failed")));
    expect(owner.some((n) => n.href === `/admin/invoices/${invoiceId}`)).toBe(true);
    const emails = await renewals.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.kind, "plan-charge-failed"));
    expect(emails.some((e) => e.text.includes(`/client/invoice/${invoiceId}`))).toBe(true);
    // Day 1: retried, declined again. Day 2: nothing. Day 3, after the client saved a new card: paid.
    await runOn(addDays(dueDay, 1));
    await runOn(addDays(dueDay, 2));
    expect((await state(id, invoiceId)).attempts.map((a) => a.outcome)).toEqual(["soft", "soft"]);
    await saveNewCard(id, customerId, "succeeds");
    await runOn(addDays(dueDay, 3));
    await runOn(addDays(dueDay, 7));
    expect(await state(id, invoiceId)).toEqual({
      status: "active",
      invoice: "paid",
      attempts: [
        { attempt: 0, outcome: "soft", code: "insufficient_funds" },
        { attempt: 1, outcome: "soft", code: "insufficient_funds" },
        { attempt: 2, outcome: "succeeded", code: null },
      ],
    });
  });

  it("a soft decline every time: retried on days 1, 3 and 7, then suspended", async () => {
    const { id } = await subscriber("2027-04-01", "insufficient_funds");
    const { invoiceId, dueDay } = await firstRenewal(id, "2027-04-01");
    for (let d = 0; d <= 8; d++) await runOn(addDays(dueDay, d));
    const s = await state(id, invoiceId);
    expect(s.attempts.map((a) => a.attempt)).toEqual([0, 1, 2, 3]);
    expect(s.status).toBe("suspended");
  });

  it("a hard decline and a card needing authentication: never retried, suspended on day 7 and not before", async () => {
    for (const card of ["stolen", "authentication"] as const) {
      const { id, clientId } = await subscriber("2027-05-20", card);
      const { invoiceId, dueDay } = await firstRenewal(id, "2027-05-20");
      for (let d = 0; d <= 6; d++) await runOn(addDays(dueDay, d));
      let s = await state(id, invoiceId);
      expect(s.attempts, card).toEqual([
        {
          attempt: 0,
          outcome: card === "stolen" ? "hard" : "authentication",
          code: card === "stolen" ? "stolen_card" : "authentication_required",
        },
      ]);
      expect(s.status, card).toBe("past_due");
      await runOn(addDays(dueDay, 7));
      await runOn(addDays(dueDay, 8));
      s = await state(id, invoiceId);
      expect(s.status, card).toBe("suspended");
      expect(s.attempts, card).toHaveLength(1);
      const notices = await renewals.db
        .select({ title: notifications.title })
        .from(notifications)
        .where(and(eq(notifications.userId, clientId), eq(notifications.title, "Plan suspended")));
      expect(notices, card).toHaveLength(1);
      // A suspended plan is not charged again.
      expect(await runOn(addDays(dueDay, 9))).toBeGreaterThanOrEqual(0);
      expect((await state(id, invoiceId)).attempts, card).toHaveLength(1);
    }
  });

  it("a charge whose answer was lost is asked again with its key: one payment, recorded once", async () => {
    const { id } = await subscriber("2027-06-15", "succeeds");
    const { invoiceId, dueDay, orderId } = await firstRenewal(id, "2027-06-15");
    loseNextAnswer = true;
    await runOn(dueDay);
    expect(await state(id, invoiceId)).toEqual({
      status: "active",
      invoice: "sent",
      attempts: [{ attempt: 0, outcome: "pending", code: null }],
    });
    await runOn(dueDay);
    expect(await state(id, invoiceId)).toEqual({
      status: "active",
      invoice: "paid",
      attempts: [{ attempt: 0, outcome: "succeeded", code: null }],
    });
    const events = await renewals.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, orderId));
    expect(events).toHaveLength(1);
  });
});
