/**
 * Care plans' renewal invoices (issue 38, item 3; ADR 0531) on both databases, with an injected clock:
 * each period is issued once, on the notice's day before it starts, its dates anchored to the plan's
 * start (month ends, a leap year, a yearly plan from 29 February), converted at its issue day's rate,
 * announced and emailed; a run after a pause issues every missed period once; a crash mid-issue leaves
 * nothing (no number used); two processes racing on PostgreSQL issue one.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase, queryRows } from "~/db/client.server";
import { invoices, notifications, orders, outboxEmails, planPeriods, planSubscriptions } from "~/db/schema";
import { formatMoney } from "~/features/money/format";
import { addDays, type CalendarDay } from "~/features/plans/periods";
import { issueDueRenewals, issueDueRenewalsOf, type RenewalDeps } from "~/features/plans/renewals.server";
import { createAccount } from "../support/admin-fixtures";
import { testDatabases } from "../support/databases";
import { createSubscription } from "../support/plans";
import { startTestServer, type TestServer } from "../support/server";

const noon = (day: CalendarDay) => new Date(`${day}T12:00:00Z`);

describe.each(testDatabases)("care plan renewals on $name", (database) => {
  let server: TestServer;
  let deps: RenewalDeps;
  let rate = 0.9;
  let clientId: string;

  beforeAll(async () => {
    server = await startTestServer(database);
    const runtime = server.portico.runtime;
    deps = { db: runtime.database.db, config: runtime.config, rates: async () => ({ EUR: rate, JPY: 150 }) };
    clientId = await createAccount(deps.db, {
      email: `plans.${Date.now()}@example.com`,
      name: "Plan Client",
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** A test's plan ends with it, so later tests' runs (years on) do not renew it. */
  async function endSubscription(id: string) {
    await deps.db.update(planSubscriptions).set({ status: "cancelled" }).where(eq(planSubscriptions.id, id));
  }

  async function periodsOf(subscriptionId: string) {
    return deps.db
      .select({
        index: planPeriods.periodIndex,
        startsOn: planPeriods.startsOn,
        endsOn: planPeriods.endsOn,
        issuedAt: invoices.createdAt,
        dueDate: invoices.dueDate,
        total: invoices.totalAmount,
        currency: invoices.currency,
        number: invoices.invoiceNumber,
        invoiceId: invoices.id,
        orderPlan: orders.planSubscriptionId,
        serviceName: orders.serviceName,
      })
      .from(planPeriods)
      .innerJoin(invoices, eq(invoices.id, planPeriods.invoiceId))
      .innerJoin(orders, eq(orders.id, planPeriods.orderId))
      .where(eq(planPeriods.subscriptionId, subscriptionId))
      .orderBy(asc(planPeriods.periodIndex));
  }

  it("walks a monthly plan from 31 January through 14 months: each period once, on its notice day", async () => {
    const id = await createSubscription(deps.db, {
      clientId,
      anchorDay: "2027-01-31",
      currency: "EUR",
      planName: "Care Plus",
      priceUsd: 49,
    });
    rate = 0.9;
    // Every day, twice a day (a second process or a retried run), from the start to mid-April 2028.
    for (let day = "2027-01-31"; day <= "2028-04-10"; day = addDays(day, 1)) {
      if (day === "2027-08-01") rate = 0.95;
      await issueDueRenewals(deps, noon(day));
      await issueDueRenewals(deps, new Date(`${day}T23:00:00Z`));
    }
    const periods = await periodsOf(id);
    expect(periods.map((p) => p.startsOn)).toEqual([
      "2027-02-28",
      "2027-03-31",
      "2027-04-30",
      "2027-05-31",
      "2027-06-30",
      "2027-07-31",
      "2027-08-31",
      "2027-09-30",
      "2027-10-31",
      "2027-11-30",
      "2027-12-31",
      "2028-01-31",
      "2028-02-29",
      "2028-03-31",
      // Period 15 starts on 30 April 2028: its notice day (23 April) is after the walk.
    ]);
    expect(periods.map((p) => p.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    for (const p of periods) {
      // Issued at noon of the day 7 days before the period, due on its first day.
      expect(p.issuedAt.toISOString(), p.startsOn).toBe(noon(addDays(p.startsOn, -7)).toISOString());
      expect(p.dueDate.toISOString().slice(0, 10), p.startsOn).toBe(p.startsOn);
      expect(p.endsOn).toBe(periods[p.index]?.startsOn ?? "2028-04-30");
      expect(p.orderPlan).toBe(id);
      expect(p.serviceName).toBe("Care Plus");
      expect(p.currency).toBe("EUR");
      // $49 at the issue day's rate: 0.90 until August 2027, 0.95 after.
      expect(p.total, p.startsOn).toBe(p.issuedAt < noon("2027-08-01") ? 44.1 : 46.55);
    }
    const [sub] = await deps.db.select().from(planSubscriptions).where(eq(planSubscriptions.id, id));
    expect(sub!.nextPeriodIndex).toBe(15);
    // Each renewal announced once and emailed once.
    const invoiceIds = periods.map((p) => p.invoiceId);
    const notices = await deps.db
      .select({ href: notifications.href, title: notifications.title })
      .from(notifications)
      .where(eq(notifications.userId, clientId));
    for (const invoiceId of invoiceIds) {
      expect(
        notices.filter((n) => n.href?.includes(invoiceId)),
        invoiceId,
      ).toHaveLength(1);
    }
    const emails = await deps.db
      .select({ subject: outboxEmails.subject, text: outboxEmails.text })
      .from(outboxEmails)
      .where(and(eq(outboxEmails.kind, "plan-renewal"), sql`${outboxEmails.subject} like 'Care Plus:%'`));
    expect(emails).toHaveLength(14);
    const march = emails.find((e) => e.subject.includes("for 28 February 2027 to 31 March 2027"));
    expect(march?.text).toContain(
      `We will charge your Visa ending 4242 for ${formatMoney(44.1, "EUR")} on 28 February 2027.`,
    );
    await endSubscription(id);
  }, 240_000);

  it("a yearly plan from 29 February renews on 28 February, and a run after a pause issues each missed year once", async () => {
    const id = await createSubscription(deps.db, {
      clientId,
      anchorDay: "2028-02-29",
      cycle: "yearly",
      priceUsd: 490,
    });
    // Nothing is due before the notice day of the first renewal.
    const early = await issueDueRenewals(deps, noon("2029-02-20"));
    expect(early.filter((p) => p.subscriptionId === id)).toEqual([]);
    // The scheduler was away for three years: one run issues the three periods, in order.
    const issued = (await issueDueRenewals(deps, noon("2031-03-01"))).filter((p) => p.subscriptionId === id);
    expect(issued.map((p) => p.periodIndex)).toEqual([1, 2, 3]);
    expect((await issueDueRenewals(deps, noon("2031-03-01"))).filter((p) => p.subscriptionId === id)).toEqual(
      [],
    );
    const periods = await periodsOf(id);
    expect(periods.map((p) => [p.startsOn, p.endsOn])).toEqual([
      ["2029-02-28", "2030-02-28"],
      ["2030-02-28", "2031-02-28"],
      ["2031-02-28", "2032-02-29"],
    ]);
    expect(periods.every((p) => p.total === 490 && p.currency === "USD")).toBe(true);
    // Numbers in the order the periods were issued, gap-free after one another.
    const seqs = periods.map((p) => Number(p.number.split("-")[2]));
    expect(seqs[1]! - seqs[0]!).toBe(1);
    expect(seqs[2]! - seqs[1]!).toBe(1);
    await endSubscription(id);
  });

  it("renews no plan that is suspended, cancelled or ending at its period's end", async () => {
    const ids = await Promise.all(
      [
        { status: "suspended" as const },
        { status: "cancelled" as const },
        { status: "active" as const, cancelAtPeriodEnd: true },
      ].map((s) => createSubscription(deps.db, { clientId, anchorDay: "2032-01-10", ...s })),
    );
    const issued = await issueDueRenewals(deps, noon("2032-03-01"));
    expect(issued.filter((p) => ids.includes(p.subscriptionId))).toEqual([]);
  });

  it("a crash in the middle of issuing leaves no order, no invoice and no number; the next run issues it", async () => {
    const id = await createSubscription(deps.db, { clientId, anchorDay: "2033-05-15" });
    // The renewal's email fails once, after its order, invoice and period rows were written.
    await deps.db.execute(sql.raw("create sequence if not exists renewal_crash_seq"));
    await deps.db.execute(
      sql.raw(`create or replace function renewal_crash() returns trigger language plpgsql as $$
        begin
          if new.kind = 'plan-renewal' and nextval('renewal_crash_seq') = 1 then
            raise exception 'simulated crash';
          end if;
          return new;
        end $$`),
    );
    await deps.db.execute(
      sql.raw(
        "create trigger renewal_crash before insert on outbox_emails for each row execute function renewal_crash()",
      ),
    );

    try {
      const [counter] = await queryRows<{ last_seq: number }>(
        deps.db,
        sql`select last_seq from invoice_counters where year = 2033`,
      );
      const crash = await issueDueRenewalsOf(deps, id, noon("2033-06-08")).catch((error: Error) => error);
      expect(crash).toBeInstanceOf(Error);
      expect(String((crash as Error & { cause?: Error }).cause?.message ?? crash)).toMatch(/simulated crash/);
      expect(await periodsOf(id)).toEqual([]);
      const planOrders = await deps.db
        .select({ id: orders.id })
        .from(orders)
        .where(eq(orders.planSubscriptionId, id));
      expect(planOrders).toEqual([]);
      const [after] = await queryRows<{ last_seq: number }>(
        deps.db,
        sql`select last_seq from invoice_counters where year = 2033`,
      );
      expect(after?.last_seq).toBe(counter?.last_seq);
      const issued = await issueDueRenewalsOf(deps, id, noon("2033-06-08"));
      expect(issued.map((p) => p.periodIndex)).toEqual([1]);
      await endSubscription(id);
    } finally {
      await deps.db.execute(sql.raw("drop trigger if exists renewal_crash on outbox_emails"));
    }
  });

  it("two processes racing for the same renewal issue it once", async () => {
    const id = await createSubscription(deps.db, { clientId, anchorDay: "2034-01-20" });
    const config = server.portico.runtime.config.database;
    const handles: DatabaseHandle[] = [];
    try {
      // On PostgreSQL each runner has its own pool; PGlite serves one process, so both share it.
      for (let i = 0; i < 2; i++)
        handles.push(
          config.kind === "postgres" ? await openDatabase(config) : server.portico.runtime.database,
        );
      const day = noon("2034-06-15");
      const results = await Promise.all(
        handles.flatMap((h) => [
          issueDueRenewals({ ...deps, db: h.db }, day),
          issueDueRenewals({ ...deps, db: h.db }, day),
        ]),
      );
      const mine = results.flat().filter((p) => p.subscriptionId === id);
      // Periods 1 to 5 (February to June), each issued by exactly one of the four runs.
      expect(mine.map((p) => p.periodIndex).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
      expect((await periodsOf(id)).map((p) => p.index)).toEqual([1, 2, 3, 4, 5]);
    } finally {
      if (config.kind === "postgres") for (const h of handles) await h.close();
    }
  });
});
