/**
 * An order's brief on a real database (PGlite, and PostgreSQL with TEST_DATABASE_URL): when it
 * may be answered, its validation, what the owner is told, corrections, and the "brief missing" rule in
 * both its pure and its SQL form.
 */
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/client.server";
import {
  clients,
  liveEvents,
  notifications,
  orderBriefs,
  orders,
  outboxEmails,
  services,
  user,
} from "~/db/schema";
import { updateIntakeQuestions } from "~/features/catalogue/intake-questions.server";
import { changeOrderStatus, makeOrders } from "~/features/testing/fixtures.server";
import { TEST_BUSINESS, TEST_PUBLIC_URL } from "~/features/testing/memory-database.server";
import { openSeededTestDatabase, TEST_DATABASE_KINDS } from "~/features/testing/test-databases.server";
import { briefMissingSql, getOrderBrief, saveBrief } from "./brief.server";
import type { AfterSaleDeps, Viewer } from "./order-access.server";

const ANSWERS = {
  problem: "Outlook keeps asking for my password",
  since: "Monday",
  urgency: "Two people cannot read their mail",
};

describe.each(TEST_DATABASE_KINDS)("order brief and page on %s", (kind) => {
  let handle: DatabaseHandle;
  let db: Database;
  let deps: AfterSaleDeps;
  let wakes = 0;
  let n = 0;
  const owner: Viewer = { id: `brief-owner-${kind}`, role: "admin" };

  beforeAll(async () => {
    handle = await openSeededTestDatabase(kind);
    db = handle.db;
    deps = {
      db,
      config: {
        publicUrl: TEST_PUBLIC_URL,
        business: TEST_BUSINESS,
        attachmentQuotaBytes: 500 * 1024 * 1024,
      },
      wakeOutbox: () => void wakes++,
    };
    await db.insert(user).values({ id: owner.id, name: "Owner", email: "boss@portico.test", role: "admin" });
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
  });

  async function aClient(name = "Grace Hopper") {
    const id = `brief-${kind}-${++n}`;
    await db.insert(user).values({ id, name, email: `${id}@example.com` });
    await db.insert(clients).values({ id, name, email: `${id}@example.com` });
    return id;
  }
  async function anOrder(clientId: string, options: Parameters<typeof makeOrders>[2] = {}) {
    const [made] = await makeOrders(db, clientId, { serviceSlug: "per-incident-support", ...options });
    return made!;
  }
  const missing = async (orderIds: string[]) =>
    (
      await db
        .select({ id: orders.id, missing: briefMissingSql })
        .from(orders)
        .where(inArray(orders.id, orderIds))
    ).reduce<Record<string, boolean>>((all, r) => Object.assign(all, { [r.id]: r.missing }), {});

  it("is asked after payment: not yet while pending, missing once paid, answered once sent", async () => {
    const grace = await aClient();
    const { orderId } = await anOrder(grace);
    expect(await getOrderBrief(db, { id: grace, role: "client" }, orderId)).toMatchObject({
      state: "not-yet",
      badge: null,
      canAnswer: false,
    });
    expect(await saveBrief(deps, { clientId: grace, orderId, answers: ANSWERS })).toEqual({
      ok: false,
      status: 409,
      error: "The details can be sent once the order is paid.",
    });
    await changeOrderStatus(db, grace, orderId, "paid");
    const clientView = await getOrderBrief(db, { id: grace, role: "client" }, orderId);
    expect(clientView).toMatchObject({
      state: "missing",
      badge: "Waiting for your details",
      canAnswer: true,
    });
    expect(clientView!.questions.map((q) => q.key)).toEqual(["problem", "since", "urgency", "access"]);
    expect(await getOrderBrief(db, owner, orderId)).toMatchObject({
      state: "missing",
      badge: "Brief missing",
    });
    expect(await missing([orderId])).toEqual({ [orderId]: true });

    wakes = 0;
    expect(
      await saveBrief(deps, { clientId: grace, orderId, answers: { ...ANSWERS, intent: "save" } }),
    ).toEqual({
      ok: true,
      message: "Thank you: your details are with us.",
    });
    expect(wakes).toBe(1);
    expect(await getOrderBrief(db, owner, orderId)).toMatchObject({
      state: "answered",
      badge: null,
      answers: ANSWERS,
    });
    expect(await missing([orderId])).toEqual({ [orderId]: false });
  });

  it("checks the answers and says which is wrong, storing nothing", async () => {
    const grace = await aClient();
    const { orderId } = await anOrder(grace, { status: "paid" });
    expect(
      await saveBrief(deps, { clientId: grace, orderId, answers: { problem: " ", since: "x".repeat(201) } }),
    ).toEqual({
      ok: false,
      status: 400,
      inFields: true,
      error: 'Please answer "What is broken".',
      fieldErrors: {
        problem: 'Please answer "What is broken".',
        since: 'The answer to "Since when" must be at most 200 characters.',
        urgency: 'Please answer "How urgent is it".',
      },
    });
    expect(await db.select().from(orderBriefs).where(eq(orderBriefs.orderId, orderId))).toEqual([]);
  });

  it("only the order's client answers it: another client's order or a malformed id is not found", async () => {
    const grace = await aClient();
    const eve = await aClient("Eve");
    const { orderId } = await anOrder(grace, { status: "paid" });
    for (const id of [orderId, "x", "00000000-0000-4000-8000-000000000000"]) {
      expect(await saveBrief(deps, { clientId: eve, orderId: id, answers: ANSWERS })).toEqual({
        ok: false,
        status: 404,
        error: "Order not found.",
      });
      expect(await getOrderBrief(db, { id: eve, role: "client" }, id)).toBeNull();
    }
  });

  it("tells the owner: live event, bell notification, email with the answers; corrections keep the first answer time", async () => {
    const grace = await aClient("Grace Hopper");
    const { orderId } = await anOrder(grace, { status: "in_progress" });
    expect((await saveBrief(deps, { clientId: grace, orderId, answers: ANSWERS })).ok).toBe(true);
    const notes = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, owner.id), eq(notifications.href, `/admin/orders/${orderId}`)));
    expect(notes.map((x) => [x.title, x.message])).toEqual([
      ["Brief Received", "Grace Hopper sent the details for an order: Per Incident Support"],
    ]);
    const events = await db
      .select()
      .from(liveEvents)
      .where(and(eq(liveEvents.kind, "brief"), eq(liveEvents.entityId, orderId)))
      .orderBy(liveEvents.id);
    expect(events.map((e) => [e.userId, e.status])).toEqual([
      [grace, "answered"],
      [owner.id, "answered"],
    ]);
    const mails = (await db.select().from(outboxEmails).where(eq(outboxEmails.kind, "order-brief"))).filter(
      (m) => m.text.includes(`${TEST_PUBLIC_URL}/admin/orders/${orderId}`),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.toAddress).toBe(TEST_BUSINESS.email);
    expect(mails[0]!.subject).toBe("Brief received: Per Incident Support (Grace Hopper)");
    expect(mails[0]!.text).toContain("What is broken: Outlook keeps asking for my password");
    expect(mails[0]!.text).toContain("How we can reach the system: —");

    const [first] = await db.select().from(orderBriefs).where(eq(orderBriefs.orderId, orderId));
    expect(
      await saveBrief(deps, { clientId: grace, orderId, answers: { ...ANSWERS, since: "Sunday" } }),
    ).toEqual({
      ok: true,
      message: "Your details are updated.",
    });
    const [second] = await db.select().from(orderBriefs).where(eq(orderBriefs.orderId, orderId));
    expect(second!.answers.since).toBe("Sunday");
    expect(second!.answeredAt).toEqual(first!.answeredAt);
  });

  it("keeps the questions as they were asked when the owner changes the catalogue's", async () => {
    const grace = await aClient();
    const { orderId } = await anOrder(grace, { status: "paid", serviceSlug: "ssl-setup" });
    const answers = { domains: "example.com", control_panel: "cPanel", dns_manager: "Cloudflare" };
    expect((await saveBrief(deps, { clientId: grace, orderId, answers })).ok).toBe(true);
    const [ssl] = await db.select().from(services).where(eq(services.slug, "ssl-setup"));
    const changeDeps = { db, config: deps.config, actor: { id: owner.id, email: "boss@portico.test" } };
    const newQuestions = [
      { key: "hostname", label: "Host name", kind: "text" as const, required: true, maxLength: 100 },
    ];
    expect((await updateIntakeQuestions(changeDeps, ssl!.id, newQuestions)).ok).toBe(true);
    const view = await getOrderBrief(db, owner, orderId);
    expect(view!.questions.map((q) => q.key)).toEqual(["domains", "control_panel", "dns_manager", "notes"]);
    expect(view!.answers).toEqual(answers);
    // A new order asks the new questions; a service that asks nothing needs no brief.
    const next = await anOrder(grace, { status: "paid", serviceSlug: "ssl-setup" });
    expect((await getOrderBrief(db, owner, next.orderId))!.questions).toEqual(newQuestions);
    expect((await updateIntakeQuestions(changeDeps, ssl!.id, [])).ok).toBe(true);
    const none = await anOrder(grace, { status: "paid", serviceSlug: "ssl-setup" });
    expect(await getOrderBrief(db, owner, none.orderId)).toMatchObject({ state: "not-needed", badge: null });
    expect(await missing([none.orderId])).toEqual({ [none.orderId]: false });
    expect(await saveBrief(deps, { clientId: grace, orderId: none.orderId, answers: {} })).toMatchObject({
      status: 409,
      error: "This service needs no details.",
    });
  });

  it("is closed once the order is over", async () => {
    const grace = await aClient();
    const done = await anOrder(grace, { status: "completed" });
    const cancelled = await anOrder(grace, { status: "cancelled" });
    for (const { orderId } of [done, cancelled]) {
      expect(await saveBrief(deps, { clientId: grace, orderId, answers: ANSWERS })).toMatchObject({
        status: 409,
        error: "This order is finished: its details can no longer be changed.",
      });
    }
    expect(await missing([done.orderId, cancelled.orderId])).toEqual({
      [done.orderId]: false,
      [cancelled.orderId]: false,
    });
  });
});
