/**
 * An order's conversation on a real database (PGlite, and PostgreSQL with TEST_DATABASE_URL): scoping,
 * validation, files checked by their bytes and stored as bytea, the rate limit, the follow-up period on
 * an injected clock, the other side's notices, read marks and the back office's inbox.
 */
import { createHash } from "node:crypto";
import { and, count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/client.server";
import {
  clients,
  liveEvents,
  messageAttachments,
  notifications,
  orderMessages,
  orders,
  outboxEmails,
  rateLimits,
  user,
} from "~/db/schema";
import { makeOrders } from "~/features/testing/fixtures.server";
import { TEST_BUSINESS, TEST_PUBLIC_URL } from "~/features/testing/memory-database.server";
import { bytesOf, SAMPLE_EXE, SAMPLE_PDF, SAMPLE_PNG } from "~/features/testing/sample-files";
import { openSeededTestDatabase, TEST_DATABASE_KINDS } from "~/features/testing/test-databases.server";
import { ATTACHMENT_MAX_BYTES } from "./attachments";
import { BUY_INCIDENT_PATH } from "./conversation";
import {
  getAttachment,
  listThread,
  listUnreadClientMessages,
  MESSAGES_PER_WINDOW,
  postMessage,
  unreadClientMessageCount,
} from "./conversation.server";
import type { AfterSaleDeps, Viewer } from "./order-access.server";
import { getClientOrder } from "./order-page.server";

const DAY = 24 * 60 * 60 * 1000;

describe.each(TEST_DATABASE_KINDS)("order conversation on %s", (kind) => {
  let handle: DatabaseHandle;
  let db: Database;
  let clock = new Date();
  let wakes = 0;
  let deps: AfterSaleDeps;
  let n = 0;
  const owner: Viewer = { id: `owner-${kind}`, role: "admin" };
  const secondOwner: Viewer = { id: `owner2-${kind}`, role: "admin" };

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
      now: () => clock,
      wakeOutbox: () => void wakes++,
    };
    for (const o of [owner, secondOwner]) {
      await db.insert(user).values({ id: o.id, name: "Owner", email: `${o.id}@portico.test`, role: "admin" });
    }
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
  });

  async function aClient(name = "Ada Lovelace") {
    const id = `conv-${kind}-${++n}`;
    await db.insert(user).values({ id, name, email: `${id}@example.com` });
    await db.insert(clients).values({ id, name, email: `${id}@example.com` });
    return { id, role: "client" } as const satisfies Viewer;
  }
  async function anOrder(client: Viewer, options: Parameters<typeof makeOrders>[2] = {}) {
    const [made] = await makeOrders(db, client.id, {
      status: "paid",
      serviceSlug: "per-incident-support",
      ...options,
    });
    return made!.orderId;
  }
  const messagesOf = async (orderId: string) =>
    (await db.select({ n: count() }).from(orderMessages).where(eq(orderMessages.orderId, orderId)))[0]!.n;
  const file = (name: string, bytes: Uint8Array, type = "") => ({ name, type, bytes });

  it("lets only the order's client and the owner read and write: another client's or a malformed id is not found", async () => {
    const ada = await aClient();
    const eve = await aClient("Eve");
    const orderId = await anOrder(ada);
    clock = new Date();
    expect(await postMessage(deps, { author: ada, orderId, body: "Hello" })).toMatchObject({ ok: true });
    expect(await postMessage(deps, { author: owner, orderId, body: "Hi Ada" })).toMatchObject({ ok: true });
    for (const id of [
      orderId,
      "not-a-uuid",
      "00000000-0000-4000-8000-000000000000",
      `${orderId}' or '1'='1`,
    ]) {
      expect(await postMessage(deps, { author: eve, orderId: id, body: "Me too" })).toEqual({
        ok: false,
        status: 404,
        error: "Order not found.",
      });
      expect(await listThread(deps, eve, id)).toBeNull();
      expect(await getClientOrder(db, eve.id, id)).toBeNull();
    }
    expect(await messagesOf(orderId)).toBe(2);
    expect(
      (await listThread(deps, ada, orderId))!.messages.map((m) => [m.body, m.authorRole, m.mine]),
    ).toEqual([
      ["Hello", "client", true],
      ["Hi Ada", "owner", false],
    ]);
    expect((await listThread(deps, owner, orderId))!.messages.map((m) => m.mine)).toEqual([false, true]);
    expect(await getClientOrder(db, ada.id, orderId)).toMatchObject({ order: { id: orderId } });
  });

  it("checks the text: trimmed, not empty, at most 10,000 characters; nothing is stored when refused", async () => {
    const ada = await aClient();
    const orderId = await anOrder(ada);
    expect(await postMessage(deps, { author: ada, orderId, body: "  \n  " })).toEqual({
      ok: false,
      status: 400,
      error: "Write a message.",
      fieldErrors: { body: "Write a message." },
    });
    expect(await postMessage(deps, { author: ada, orderId, body: "x".repeat(10_001) })).toMatchObject({
      status: 400,
      error: "A message may be at most 10,000 characters.",
    });
    expect(await postMessage(deps, { author: ada, orderId, body: 42 })).toMatchObject({ status: 400 });
    expect(await messagesOf(orderId)).toBe(0);
    expect(await postMessage(deps, { author: ada, orderId, body: ` ${"y".repeat(10_000)} ` })).toMatchObject({
      ok: true,
    });
    const [stored] = await db.select().from(orderMessages).where(eq(orderMessages.orderId, orderId));
    expect(stored!.body).toBe("y".repeat(10_000));
  });

  it("checks files by their bytes and stores none of a refused message", async () => {
    const ada = await aClient();
    const orderId = await anOrder(ada);
    const big = new Uint8Array(11 * 1024 * 1024);
    big.set(SAMPLE_PDF);
    const refused: Array<[ReturnType<typeof file>[], number, string]> = [
      [
        [file("scan.pdf", SAMPLE_EXE, "application/pdf")],
        400,
        "scan.pdf is not a real PDF file: its content does not match its type.",
      ],
      [
        [file("photo.png", SAMPLE_PDF, "image/png")],
        400,
        "photo.png is not a real PNG file: its content does not match its type.",
      ],
      [
        [file("tool.exe", SAMPLE_EXE, "application/pdf")],
        400,
        "tool.exe cannot be attached: only PDF, PNG, JPEG, ZIP, TXT, CSV or EML files are accepted.",
      ],
      [[file("empty.pdf", new Uint8Array(0), "application/pdf")], 400, "empty.pdf is empty."],
      [[file("scan.pdf", SAMPLE_PDF), file("big.pdf", big)], 413, "big.pdf is larger than 10 MB."],
      [
        Array.from({ length: 6 }, (_, i) => file(`n${i}.txt`, bytesOf("x"))),
        400,
        "Attach at most 5 files to one message.",
      ],
    ];
    for (const [files, status, error] of refused) {
      expect(await postMessage(deps, { author: ada, orderId, body: "See attached", files })).toEqual({
        ok: false,
        status,
        error,
        fieldErrors: { files: error },
      });
    }
    expect(await messagesOf(orderId)).toBe(0);
    expect((await db.select({ n: count() }).from(messageAttachments))[0]!.n).toBe(0);

    const posted = await postMessage(deps, {
      author: ada,
      orderId,
      body: "Here they are",
      files: [
        file("../../etc/passwd", bytesOf("root:x:0:0\n"), "application/octet-stream"),
        file("in\u0000vo\u202eice\n.pdf", SAMPLE_PDF, "image/png"),
        file("screen.png", SAMPLE_PNG, "image/png"),
      ],
    });
    expect(posted).toMatchObject({ ok: true });
    const thread = await listThread(deps, owner, orderId);
    const attachments = thread!.messages[0]!.attachments;
    expect(attachments.map((a) => [a.filename, a.contentType, a.size])).toEqual([
      ["passwd.txt", "text/plain; charset=utf-8", 11],
      ["invoice.pdf", "application/pdf", SAMPLE_PDF.length],
      ["screen.png", "image/png", SAMPLE_PNG.length],
    ]);
    expect(JSON.stringify(thread)).not.toContain("bytes");

    const pdf = attachments[1]!;
    const download = await getAttachment(deps, ada, pdf.id);
    expect(download).toMatchObject({ orderId, filename: "invoice.pdf", contentType: "application/pdf" });
    // bytea round trip: the same bytes on both databases.
    expect(Buffer.from(download!.bytes).equals(Buffer.from(SAMPLE_PDF))).toBe(true);
    expect(download!.sha256).toBe(createHash("sha256").update(SAMPLE_PDF).digest("hex"));
    expect(download!.headers).toMatchObject({
      "Content-Type": "application/pdf",
      "Content-Disposition": "attachment; filename=\"invoice.pdf\"; filename*=UTF-8''invoice.pdf",
      "X-Content-Type-Options": "nosniff",
    });
    expect(await getAttachment(deps, owner, pdf.id)).not.toBeNull();
    const eve = await aClient("Eve");
    expect(await getAttachment(deps, eve, pdf.id)).toBeNull();
    expect(await getAttachment(deps, eve, "nope")).toBeNull();
  });

  it("stores a 10 MB file whole", async () => {
    const ada = await aClient();
    const orderId = await anOrder(ada);
    const max = new Uint8Array(ATTACHMENT_MAX_BYTES);
    max.set(SAMPLE_PDF);
    max[max.length - 1] = 7;
    expect(
      await postMessage(deps, { author: ada, orderId, body: "Big one", files: [file("max.pdf", max)] }),
    ).toMatchObject({
      ok: true,
    });
    const [meta] = (await listThread(deps, ada, orderId))!.messages[0]!.attachments;
    const download = await getAttachment(deps, ada, meta!.id);
    expect(download!.size).toBe(ATTACHMENT_MAX_BYTES);
    expect(download!.bytes.length).toBe(ATTACHMENT_MAX_BYTES);
    expect(download!.bytes[ATTACHMENT_MAX_BYTES - 1]).toBe(7);
    // Writing and reading 10 MB takes PGlite seconds on a busy machine: room for it, no timing asserted.
  }, 60_000);

  it("limits how many messages one account posts in a short time", async () => {
    const ada = await aClient();
    const orderId = await anOrder(ada);
    for (let i = 0; i < MESSAGES_PER_WINDOW; i++) {
      expect((await postMessage(deps, { author: ada, orderId, body: `Message ${i}` })).ok).toBe(true);
    }
    const refused = await postMessage(deps, { author: ada, orderId, body: "One more" });
    expect(refused).toMatchObject({
      ok: false,
      status: 429,
      error: "Too many messages in a short time. Please wait a few minutes and try again.",
    });
    expect(refused.ok === false && refused.status === 429 && refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(await messagesOf(orderId)).toBe(MESSAGES_PER_WINDOW);
    // Another account is not held back by Ada's posts.
    expect((await postMessage(deps, { author: owner, orderId, body: "Slow down" })).ok).toBe(true);
    await db.delete(rateLimits).where(eq(rateLimits.key, `order-message:${ada.id}`));
  });

  it("keeps per-incident support open 7 days after completion for the client, then closes it with the date", async () => {
    const ada = await aClient();
    const orderId = await anOrder(ada, { status: "completed" });
    const completedAt = new Date("2026-03-02T15:30:00Z");
    await db.update(orders).set({ completedAt }).where(eq(orders.id, orderId));
    clock = new Date(completedAt.getTime() + 6 * DAY);
    expect(await postMessage(deps, { author: ada, orderId, body: "Still broken?" })).toMatchObject({
      ok: true,
    });
    expect((await listThread(deps, ada, orderId))!.conversation).toEqual({
      open: true,
      followUpEndsAt: new Date(completedAt.getTime() + 7 * DAY),
    });
    clock = new Date(completedAt.getTime() + 8 * DAY);
    expect(await postMessage(deps, { author: ada, orderId, body: "Hello?" })).toEqual({
      ok: false,
      status: 409,
      error: "Follow-up period ended on March 9, 2026.",
      buyAgainPath: BUY_INCIDENT_PATH,
    });
    expect((await getClientOrder(db, ada.id, orderId, clock))!.conversation).toMatchObject({
      open: false,
      message: "Follow-up period ended on March 9, 2026.",
      buyAgainPath: "/client/purchase/per-incident-support",
    });
    // The owner may still write, and the client still reads.
    expect(await postMessage(deps, { author: owner, orderId, body: "Closing note" })).toMatchObject({
      ok: true,
    });
    expect((await listThread(deps, ada, orderId))!.messages).toHaveLength(2);
    clock = new Date();
  });

  it("closes a cancelled order's conversation to the client; other services get 30 days after completion", async () => {
    const ada = await aClient();
    const cancelled = await anOrder(ada, { status: "cancelled" });
    expect(await postMessage(deps, { author: ada, orderId: cancelled, body: "Why?" })).toMatchObject({
      status: 409,
      error: "This order was cancelled, so its conversation is closed.",
    });
    expect((await postMessage(deps, { author: owner, orderId: cancelled, body: "Refunded" })).ok).toBe(true);

    const migration = await anOrder(ada, { status: "completed", serviceSlug: "email-migration" });
    const completedAt = new Date("2026-03-02T15:30:00Z");
    await db.update(orders).set({ completedAt }).where(eq(orders.id, migration));
    clock = new Date(completedAt.getTime() + 8 * DAY);
    expect((await postMessage(deps, { author: ada, orderId: migration, body: "One more thing" })).ok).toBe(
      true,
    );
    clock = new Date(completedAt.getTime() + 31 * DAY);
    expect(await postMessage(deps, { author: ada, orderId: migration, body: "Late" })).toMatchObject({
      status: 409,
      error: "Follow-up period ended on April 1, 2026.",
      buyAgainPath: "/client/purchase/email-migration",
    });
    clock = new Date();
  });

  it("tells the other side: live event, bell notification and email with the text and a link", async () => {
    const ada = await aClient("Ada Lovelace");
    const orderId = await anOrder(ada);
    wakes = 0;
    const since =
      (await db.select({ id: liveEvents.id }).from(liveEvents).orderBy(liveEvents.id)).at(-1)?.id ?? 0;
    expect(
      (
        await postMessage(deps, {
          author: ada,
          orderId,
          body: "The printer\nis on fire",
          files: [file("a.png", SAMPLE_PNG)],
        })
      ).ok,
    ).toBe(true);
    expect(wakes).toBe(1);
    const ownerNotes = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, owner.id), eq(notifications.href, `/admin/orders/${orderId}`)));
    expect(ownerNotes.map((x) => [x.title, x.message])).toEqual([
      ["New Message", "New message from Ada Lovelace on an order: Per Incident Support"],
    ]);
    const ownerMails = await db
      .select()
      .from(outboxEmails)
      .where(
        and(eq(outboxEmails.kind, "order-message-owner"), eq(outboxEmails.toAddress, TEST_BUSINESS.email)),
      );
    const mine = ownerMails.find((m) => m.text.includes(`${TEST_PUBLIC_URL}/admin/orders/${orderId}`));
    expect(mine!.subject).toBe("New message from Ada Lovelace: Per Incident Support");
    expect(mine!.text).toContain("The printer\nis on fire");
    expect(mine!.text).toContain("Attached: a.png");

    expect((await postMessage(deps, { author: owner, orderId, body: "On my way <b>now</b>" })).ok).toBe(true);
    const clientNotes = await db.select().from(notifications).where(eq(notifications.userId, ada.id));
    expect(clientNotes.map((x) => [x.title, x.message, x.href])).toContainEqual([
      "New Message",
      "New message on your order: Per Incident Support",
      `/client/orders/${orderId}`,
    ]);
    const [toClient] = await db
      .select()
      .from(outboxEmails)
      .where(
        and(eq(outboxEmails.kind, "order-message"), eq(outboxEmails.toAddress, `${ada.id}@example.com`)),
      );
    expect(toClient!.subject).toBe("New message on your order: Per Incident Support");
    expect(toClient!.text).toContain("On my way <b>now</b>");
    expect(toClient!.text).toContain(`${TEST_PUBLIC_URL}/client/orders/${orderId}`);
    expect(toClient!.html).toContain("On my way &lt;b&gt;now&lt;/b&gt;");

    const events = (
      await db
        .select()
        .from(liveEvents)
        .where(inArray(liveEvents.userId, [ada.id, owner.id, secondOwner.id]))
        .orderBy(liveEvents.id)
    )
      .filter((e) => e.id > since && e.kind === "message")
      .map((e) => [e.userId, e.entityId, e.status]);
    expect(events).toEqual([
      // Ada's post: her other tabs, and both admins.
      [ada.id, orderId, "new"],
      [owner.id, orderId, "new"],
      [secondOwner.id, orderId, "new"],
      // The owner's reply: Ada, and the other admin (the author's page knows).
      [ada.id, orderId, "new"],
      [secondOwner.id, orderId, "new"],
    ]);
  });

  it("marks the other side's messages read when a thread is read, and the inbox lists unread client messages newest first", async () => {
    const ada = await aClient("Ada");
    const bob = await aClient("Bob");
    const adaOrder = await anOrder(ada);
    const bobOrder = await anOrder(bob);
    const before = await unreadClientMessageCount(db);
    await postMessage(deps, { author: ada, orderId: adaOrder, body: "First from Ada" });
    await postMessage(deps, { author: bob, orderId: bobOrder, body: "Bob here" });
    await postMessage(deps, { author: ada, orderId: adaOrder, body: "Second from Ada" });
    await postMessage(deps, { author: owner, orderId: adaOrder, body: "Reply" });
    expect(await unreadClientMessageCount(db)).toBe(before + 3);
    const inbox = await listUnreadClientMessages(db);
    expect(inbox.slice(0, 3).map((m) => [m.preview, m.clientName])).toEqual([
      ["Second from Ada", "Ada"],
      ["Bob here", "Bob"],
      ["First from Ada", "Ada"],
    ]);
    expect(inbox[0]).toMatchObject({
      orderId: adaOrder,
      serviceName: "Per Incident Support",
      attachmentCount: 0,
    });

    // The client reading marks the owner's reply read, not her own messages.
    const adaView = await listThread(deps, ada, adaOrder);
    expect(adaView!.messages.map((m) => [m.body, Boolean(m.readAt)])).toEqual([
      ["First from Ada", false],
      ["Second from Ada", false],
      ["Reply", true],
    ]);
    expect(await unreadClientMessageCount(db)).toBe(before + 3);
    // An admin reading marks the client's messages read; the inbox drops them.
    await listThread(deps, secondOwner, adaOrder);
    expect(await unreadClientMessageCount(db)).toBe(before + 1);
    expect((await listUnreadClientMessages(db)).map((m) => m.preview)).not.toContain("First from Ada");
    const stored = await db.select().from(orderMessages).where(eq(orderMessages.orderId, adaOrder));
    expect(stored.every((m) => m.readAt)).toBe(true);
    // Ada's page hears her messages were read; a second read writes nothing more.
    const readEvents = async () =>
      (await db.select().from(liveEvents).where(eq(liveEvents.userId, ada.id))).filter(
        (e) => e.kind === "message" && e.status === "read",
      ).length;
    expect(await readEvents()).toBe(1);
    await listThread(deps, owner, adaOrder);
    expect(await readEvents()).toBe(1);
  });
});
