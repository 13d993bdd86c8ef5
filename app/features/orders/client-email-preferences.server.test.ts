/**
 * The client's Notifications switches obeyed by the order emails (PGlite, and PostgreSQL with
 * TEST_DATABASE_URL): with order updates or email notifications off, a status change and a message from
 * the business still ring the bell but queue no email to the client.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/client.server";
import { clients, notifications, outboxEmails, user } from "~/db/schema";
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferences,
} from "~/features/accounts/notification-preferences";
import { saveNotificationPreferences } from "~/features/accounts/notification-preferences.server";
import { makeOrders } from "~/features/testing/fixtures.server";
import { TEST_BUSINESS, TEST_PUBLIC_URL } from "~/features/testing/memory-database.server";
import { openSeededTestDatabase, TEST_DATABASE_KINDS } from "~/features/testing/test-databases.server";
import { postMessage } from "./conversation.server";
import type { AfterSaleDeps, Viewer } from "./order-access.server";
import { transitionOrder } from "./order-lifecycle.server";

describe.each(TEST_DATABASE_KINDS)("order emails and the client's switches on %s", (kind) => {
  let handle: DatabaseHandle;
  let db: Database;
  let n = 0;
  const owner: Viewer = { id: `prefs-owner-${kind}`, role: "admin" };
  const config = {
    publicUrl: TEST_PUBLIC_URL,
    business: TEST_BUSINESS,
    attachmentQuotaBytes: 500 * 1024 * 1024,
  };

  beforeAll(async () => {
    handle = await openSeededTestDatabase(kind);
    db = handle.db;
    await db.insert(user).values({ id: owner.id, name: "Owner", email: "owner@portico.test", role: "admin" });
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
  });

  async function aClient(changes: Partial<NotificationPreferences> | null) {
    const id = `prefs-${kind}-${++n}`;
    await db.insert(user).values({ id, name: "Ada", email: `${id}@example.com` });
    await db.insert(clients).values({ id, name: "Ada", email: `${id}@example.com` });
    if (changes)
      await saveNotificationPreferences(db, id, { ...DEFAULT_NOTIFICATION_PREFERENCES, ...changes });
    const [made] = await makeOrders(db, id, { status: "paid", serviceSlug: "per-incident-support" });
    return { id, orderId: made!.orderId };
  }
  const emailsTo = async (id: string) =>
    (
      await db
        .select({ kind: outboxEmails.kind })
        .from(outboxEmails)
        .where(eq(outboxEmails.toAddress, `${id}@example.com`))
    ).map((e) => e.kind);
  const bellOf = async (id: string) =>
    (
      await db
        .select({ message: notifications.message })
        .from(notifications)
        .where(eq(notifications.userId, id))
    ).map((r) => r.message);

  async function actOn(orderId: string) {
    const deps = { db, config, actor: { id: owner.id, email: "owner@portico.test" } };
    expect(await transitionOrder(deps, orderId, "in_progress", null)).toMatchObject({ ok: true });
    expect(await transitionOrder(deps, orderId, "completed", null)).toMatchObject({ ok: true });
    const after: AfterSaleDeps = { db, config, now: () => new Date() };
    expect(await postMessage(after, { author: owner, orderId, body: "Here are your files." })).toMatchObject({
      ok: true,
    });
  }

  it("emails the client by default (no switches saved) and with the spec's defaults saved", async () => {
    for (const changes of [null, {}]) {
      const { id, orderId } = await aClient(changes);
      await actOn(orderId);
      expect(await emailsTo(id)).toEqual(["order-status", "order-status", "order-message"]);
    }
  });

  it("queues no order or message email with order updates off, or email notifications off; the bell still rings", async () => {
    for (const changes of [{ orderUpdates: false }, { emailNotifications: false }]) {
      const { id, orderId } = await aClient(changes);
      await actOn(orderId);
      expect(await emailsTo(id), JSON.stringify(changes)).toEqual([]);
      const bell = await bellOf(id);
      expect(bell).toContain("Service completed successfully!");
      expect(bell.some((m) => m.includes("Per Incident Support"))).toBe(true);
    }
  });

  it("leaves the owner's own email about a client's message alone", async () => {
    const { id, orderId } = await aClient({ orderUpdates: false, emailNotifications: false });
    const after: AfterSaleDeps = { db, config, now: () => new Date() };
    expect(
      await postMessage(after, { author: { id, role: "client" }, orderId, body: "A question" }),
    ).toMatchObject({ ok: true });
    const toOwner = await db
      .select({ kind: outboxEmails.kind })
      .from(outboxEmails)
      .where(
        and(eq(outboxEmails.toAddress, TEST_BUSINESS.email), eq(outboxEmails.kind, "order-message-owner")),
      );
    expect(toOwner.length).toBeGreaterThan(0);
  });
});
