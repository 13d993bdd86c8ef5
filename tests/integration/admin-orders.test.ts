/**
 * The owner's side of "every order is a page, a brief and a conversation" (ADR 0512) through the real
 * HTTP server: the owner's order page with the brief and the thread, a reply with a file (the client's
 * bell, email and live event), refused replies (400, 413, before the body is parsed too), the files'
 * downloads scoped to the back office and to their order, the inbox of unread client messages, the live
 * stream an owner's page listens to, "Brief missing" in the orders list, and the catalogue's editor of
 * a service's intake questions.
 */
import { request as httpRequest } from "node:http";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { contactMessages, type IntakeQuestion, services } from "~/db/schema";
import { MESSAGE_POST_MAX_BYTES } from "~/features/orders/attachments";
import { saveBrief } from "~/features/orders/brief.server";
import { type IncomingFile, postMessage } from "~/features/orders/conversation.server";
import type { AfterSaleDeps } from "~/features/orders/order-access.server";
import { SAMPLE_EXE, SAMPLE_PDF, SAMPLE_PNG } from "~/features/testing/sample-files";
import { accountsOn } from "../support/accounts";
import { createAccount, createOrder } from "../support/admin-fixtures";
import { type Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { EventReader, openEvents } from "../support/portal";
import { startTestServer, type TestServer } from "../support/server";

describe.each(testDatabases)("the owner's order pages on $name", (database) => {
  let server: TestServer;
  const { db, newSession, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.101.${n}`,
  );
  let admin: Session;
  let adminId: string;
  let client: Session;
  let clientId: string;

  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);
  const deps = (): AfterSaleDeps => ({ db: db(), config: server.portico.runtime.config });
  const asClient = (id: string) => ({ id, role: "client" as const });

  /** A client's message on their order, `minutesAgo` old. */
  async function clientWrites(
    id: string,
    orderId: string,
    body: string,
    minutesAgo = 0,
    files: IncomingFile[] = [],
  ) {
    const sent = await postMessage(deps(), { author: asClient(id), orderId, body, files });
    if (!sent.ok) throw new Error(sent.error);
    await db().execute(
      sql`update order_messages set created_at = now() - make_interval(mins => ${minutesAgo}) where id = ${sent.messageId}`,
    );
    return sent.messageId;
  }

  /** Posts a multipart form as the browser does, from a signed-in session. */
  function postMultipart(session: Session, path: string, form: FormData): Promise<Response> {
    return fetch(new URL(path, server.url), {
      method: "POST",
      redirect: "manual",
      body: form,
      headers: {
        cookie: session.cookieHeader,
        origin: new URL(server.url).origin,
        "x-forwarded-for": "198.51.101.200",
      },
    });
  }

  const reply = (body: string, files: Array<{ name: string; bytes: Uint8Array; type?: string }> = []) => {
    const form = new FormData();
    form.set("intent", "message");
    form.set("body", body);
    for (const f of files)
      form.append("files", new File([new Uint8Array(f.bytes)], f.name, { type: f.type ?? "" }));
    return form;
  };

  /** A paid order of the email migration service (which asks questions), with its brief answered. */
  async function orderWithBrief(id: string) {
    const order = await createOrder(db(), id, { status: "paid", serviceSlug: "email-migration" });
    const saved = await saveBrief(deps(), {
      clientId: id,
      orderId: order.orderId,
      answers: {
        current_provider: "Old Host Mail",
        new_provider: "Microsoft 365",
        domains: "example.org",
        mailboxes: "12",
        cutover_window: "Weekend of the 14th",
      },
    });
    expect(saved.ok).toBe(true);
    return order;
  }

  beforeAll(async () => {
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      BUSINESS_EMAIL: "owner-inbox@example.com",
    });
    ({ id: adminId, session: admin } = await signedIn({
      email: "owner.orders@example.com",
      name: "Owner",
      role: "admin",
    }));
    ({ id: clientId, session: client } = await signedIn({ email: "ada.orders@example.com", name: "Ada" }));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("shows the owner the order's brief, timeline and thread, marks the client's messages read, and takes a reply with a file", async () => {
    const order = await orderWithBrief(clientId);
    const messageId = await clientWrites(clientId, order.orderId, "Here is the DNS export.", 5, [
      { name: "dns.pdf", type: "application/pdf", bytes: SAMPLE_PDF },
    ]);
    const path = `/admin/orders/${order.orderId}`;

    const page = await admin.get(path);
    expect(page.status).toBe(200);
    const html = text(await page.text());
    for (const shown of [
      "Microsoft 365",
      "Weekend of the 14th",
      "Number of mailboxes",
      "Here is the DNS export.",
      "dns.pdf",
      "Timeline",
      "Conversation",
      "Reply to the client",
      "Start work",
      'data-live-status="connecting"',
    ]) {
      expect(html, shown).toContain(shown);
    }
    expect(html).not.toContain("Brief missing");
    expect(html).toMatch(/enctype="multipart\/form-data"/i);
    expect(html).toMatch(/<input[^>]*type="file"[^>]*multiple[^>]*accept="\.pdf,\.png,[^"]*"/);
    const [file] = await rows<{ id: string }>(
      sql`select id from message_attachments where message_id = ${messageId}`,
    );
    expect(html).toContain(`/admin/orders/${order.orderId}/files/${file!.id}`);
    const [read] = await rows<{ read_at: Date | null }>(
      sql`select read_at from order_messages where id = ${messageId}`,
    );
    expect(read!.read_at).not.toBeNull();

    const sent = await postMultipart(
      admin,
      path,
      reply("Thanks, we start on Monday.\nSee the plan attached.", [
        { name: "plan.png", type: "image/png", bytes: SAMPLE_PNG },
      ]),
    );
    expect(sent.status).toBe(200);
    const after = text(await sent.text());
    expect(after).toContain("Message sent.");
    expect(after).toContain("plan.png");
    const [stored] = await rows<{ author_role: string; author_id: string; body: string; id: string }>(
      sql`select id, author_role, author_id, body from order_messages where order_id = ${order.orderId} order by created_at desc limit 1`,
    );
    expect(stored).toMatchObject({
      author_role: "owner",
      author_id: adminId,
      body: "Thanks, we start on Monday.\nSee the plan attached.",
    });
    const [attached] = await rows<{ filename: string; content_type: string; size: number }>(
      sql`select filename, content_type, size from message_attachments where message_id = ${stored!.id}`,
    );
    expect(attached).toEqual({ filename: "plan.png", content_type: "image/png", size: SAMPLE_PNG.length });

    // The client: a bell notification, an email with the text and a link to the order, a live event.
    const [note] = await rows<{ title: string; message: string; href: string }>(
      sql`select title, message, href from notifications where user_id = ${clientId} order by created_at desc limit 1`,
    );
    expect(note).toMatchObject({
      message: "New message on your order: Email Migration & Setup",
      href: `/client/orders/${order.orderId}`,
    });
    const [mail] = await rows<{ subject: string; text: string }>(
      sql`select subject, text from outbox_emails where to_address = 'ada.orders@example.com' and kind = 'order-message' order by created_at desc limit 1`,
    );
    expect(mail!.subject).toBe("New message on your order: Email Migration & Setup");
    expect(mail!.text).toContain("Thanks, we start on Monday.");
    expect(mail!.text).toContain("plan.png");
    expect(mail!.text).toContain(`/client/orders/${order.orderId}`);
    const events = await rows<{ kind: string; status: string }>(
      sql`select kind, status from live_events where user_id = ${clientId} and entity_id = ${order.orderId} order by id`,
    );
    expect(events).toEqual(
      expect.arrayContaining([
        { kind: "message", status: "read" },
        { kind: "message", status: "new" },
      ]),
    );

    // Replying and moving the order on are one screen: the status form still posts as it always did.
    const started = await admin.post(path, { intent: "transition", to: "in_progress", note: "" });
    expect(started.status).toBe(200);
    expect(text(await started.text())).toContain("The order is now in progress.");
    // A message without files may be sent as a plain form too.
    expect((await admin.post(path, { intent: "message", body: "No files this time." })).status).toBe(200);
  });

  it("refuses an empty or too long reply, bad or too many files, and too large bodies, storing nothing", async () => {
    const order = await orderWithBrief(clientId);
    const path = `/admin/orders/${order.orderId}`;
    const count = async () => {
      const [row] = await rows<{ n: number }>(
        sql`select count(*)::int as n from order_messages where order_id = ${order.orderId}`,
      );
      return row!.n;
    };

    const empty = await postMultipart(admin, path, reply("   "));
    expect(empty.status).toBe(400);
    const emptyHtml = text(await empty.text());
    expect(emptyHtml).toContain("Write a message.");
    expect(emptyHtml).toMatch(/<textarea[^>]*aria-invalid="true"[^>]*aria-describedby="reply-body-error"/);
    const long = await postMultipart(admin, path, reply("x".repeat(10_001)));
    expect(long.status).toBe(400);
    expect(text(await long.text())).toContain("A message may be at most 10,000 characters.");
    const exe = await postMultipart(
      admin,
      path,
      reply("See file", [{ name: "setup.exe", bytes: SAMPLE_EXE }]),
    );
    expect(exe.status).toBe(400);
    expect(text(await exe.text())).toContain("setup.exe cannot be attached");
    const fake = await postMultipart(
      admin,
      path,
      reply("See file", [{ name: "shot.png", bytes: SAMPLE_PDF }]),
    );
    expect(fake.status).toBe(400);
    expect(text(await fake.text())).toContain("shot.png is not a real PNG file");
    const six = Array.from({ length: 6 }, (_, i) => ({ name: `${i}.png`, bytes: SAMPLE_PNG }));
    const many = await postMultipart(admin, path, reply("Six", six));
    expect(many.status).toBe(400);
    expect(text(await many.text())).toContain("Attach at most 5 files to one message.");
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(SAMPLE_PDF);
    const large = await postMultipart(admin, path, reply("Big", [{ name: "big.pdf", bytes: big }]));
    expect(large.status).toBe(413);
    expect(text(await large.text())).toContain("big.pdf is larger than 10 MB.");
    expect((await admin.post(path, { intent: "nonsense" })).status).toBe(400);

    // A declared size over five files' worth is answered before the body is read: the page's 413.
    const declared = await rawPost(path, MESSAGE_POST_MAX_BYTES + 1, admin.cookieHeader);
    expect(declared.status).toBe(413);
    expect(declared.body).toContain("The request is too large: attach at most 5 files");
    // Far larger: the server's own limit for this path answers.
    const huge = await rawPost(path, 65 * 1024 * 1024, admin.cookieHeader);
    expect(huge.status).toBe(413);
    expect(huge.body).toContain("The request is too large");
    expect(await count()).toBe(0);
  });

  it("serves a file of an order to the owner only, and only under its own order", async () => {
    const order = await orderWithBrief(clientId);
    const other = await orderWithBrief(clientId);
    const messageId = await clientWrites(clientId, order.orderId, "The invoice", 0, [
      { name: "facture été.pdf", type: "application/pdf", bytes: SAMPLE_PDF },
    ]);
    const [file] = await rows<{ id: string }>(
      sql`select id from message_attachments where message_id = ${messageId}`,
    );
    const url = `/admin/orders/${order.orderId}/files/${file!.id}`;

    const res = await admin.get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toContain("attachment;");
    expect(res.headers.get("content-disposition")).toContain("filename*=UTF-8''facture%20%C3%A9t%C3%A9.pdf");
    // (The server's own nosniff comes first: the route's copy is appended to it.)
    expect(res.headers.get("x-content-type-options")).toMatch(/^nosniff(, nosniff)?$/);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'; sandbox");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(SAMPLE_PDF);

    for (const wrong of [
      `/admin/orders/${other.orderId}/files/${file!.id}`,
      `/admin/orders/${order.orderId}/files/00000000-0000-4000-8000-000000000000`,
      `/admin/orders/${order.orderId}/files/not-an-id`,
      `/admin/orders/not-an-id/files/${file!.id}`,
    ]) {
      const answer = await admin.get(wrong);
      expect(answer.status, wrong).toBe(404);
      expect(await answer.text()).not.toContain("%PDF");
    }
    // The order's own client and a visitor get the back office's 404, as on every admin route.
    for (const [who, session] of [
      ["client", client],
      ["visitor", newSession()],
    ] as const) {
      const answer = await session.get(url);
      expect(answer.status, who).toBe(404);
      expect(await answer.text()).not.toContain("%PDF");
    }
  });

  it("lists unread client messages in the inbox, newest first, each linking to its order, and counts them in the sidebar", async () => {
    await db().update(contactMessages).set({ readAt: new Date() });
    const zoe = await createAccount(db(), { email: "zoe.orders@example.com", name: "Zoe Inbox" });
    const first = await orderWithBrief(zoe);
    const second = await orderWithBrief(zoe);
    await clientWrites(zoe, first.orderId, "Older question about mailboxes", 30);
    await clientWrites(zoe, second.orderId, "Newer question about the cutover", 2, [
      { name: "list.csv", type: "text/csv", bytes: new TextEncoder().encode("a,b\n1,2\n") },
    ]);
    await db().insert(contactMessages).values({
      name: "Vi",
      email: "vi@example.com",
      subject: "Contact hello",
      message: "Hi",
      source: "site",
    });
    const [unread] = await rows<{ n: number }>(
      sql`select count(*)::int as n from order_messages where author_role = 'client' and read_at is null`,
    );

    const html = text(await (await admin.get("/admin/messages")).text());
    const newer = html.indexOf("Newer question about the cutover");
    const older = html.indexOf("Older question about mailboxes");
    expect(newer).toBeGreaterThan(0);
    expect(older).toBeGreaterThan(newer);
    expect(html).toContain(`href="/admin/orders/${second.orderId}"`);
    expect(html).toContain(`href="/admin/orders/${first.orderId}"`);
    expect(html).toContain("1 file attached");
    expect(html).toContain("Zoe Inbox");
    expect(html).toContain(`Unread messages on orders (${unread!.n})`);
    // The contact messages are listed as before, and the sidebar counts both kinds.
    expect(html).toContain("Contact hello");
    expect(html).toContain(`${unread!.n + 1}<span class="sr-only"> unread</span>`);

    // Opening the order reads its messages: they leave the inbox.
    expect((await admin.get(`/admin/orders/${second.orderId}`)).status).toBe(200);
    const later = text(await (await admin.get("/admin/messages")).text());
    expect(later).not.toContain("Newer question about the cutover");
    expect(later).toContain("Older question about mailboxes");
  });

  it("streams the client's messages and briefs to the owner's open page", async () => {
    const order = await createOrder(db(), clientId, { status: "paid", serviceSlug: "email-migration" });
    const page = text(await (await admin.get(`/admin/orders/${order.orderId}`)).text());
    expect(page).toContain("Brief missing");
    const stream = new EventReader(await openEvents(server.url, admin));
    try {
      await clientWrites(clientId, order.orderId, "Are you there?");
      await stream.until(
        () => stream.data().some((e) => e.kind === "message" && e.entityId === order.orderId),
        "the client's message on the owner's stream",
      );
      const saved = await saveBrief(deps(), {
        clientId,
        orderId: order.orderId,
        answers: {
          current_provider: "A",
          new_provider: "B",
          domains: "c.example",
          mailboxes: "1",
          cutover_window: "Any",
        },
      });
      expect(saved.ok).toBe(true);
      await stream.until(
        () => stream.data().some((e) => e.kind === "brief" && e.entityId === order.orderId),
        "the client's brief on the owner's stream",
      );
    } finally {
      await stream.close();
    }
  });

  it("marks paid and in-progress orders without a brief 'Brief missing' in the orders list", async () => {
    const id = await createAccount(db(), { email: "brief.list@example.com", name: "Brief Lister" });
    const missing = await createOrder(db(), id, { status: "in_progress", serviceSlug: "email-migration" });
    const answered = await orderWithBrief(id);
    const pending = await createOrder(db(), id, { status: "pending", serviceSlug: "email-migration" });
    const html = await (await admin.get("/admin/orders?q=brief.list%40example.com")).text();
    const rowOf = (orderId: string) => html.split("<tr").find((r) => r.includes(`/admin/orders/${orderId}`))!;
    expect(rowOf(missing.orderId)).toContain("Brief missing");
    expect(rowOf(answered.orderId)).not.toContain("Brief missing");
    expect(rowOf(pending.orderId)).not.toContain("Brief missing");
    for (const head of ["Date", "Client", "Service", "Amount", "Status", "Invoice"]) {
      expect(html).toContain(`>${head}</th>`);
    }
  });

  describe("the catalogue's intake questions", () => {
    const fieldsOf = (questions: IntakeQuestion[]) => {
      const f: Record<string, string> = { intent: "questions" };
      questions.forEach((q, i) => {
        f[`question.${i}.label`] = q.label;
        f[`question.${i}.key`] = q.key;
        f[`question.${i}.kind`] = q.kind;
        f[`question.${i}.maxLength`] = String(q.maxLength);
        f[`question.${i}.hint`] = q.hint ?? "";
        if (q.required) f[`question.${i}.required`] = "on";
      });
      return f;
    };

    it("saves edited, removed and added questions with an audit row; blank rows are ignored", async () => {
      const [service] = await db().select().from(services).where(eq(services.slug, "acronis-setup"));
      const s = service!;
      const before = s.intakeQuestions!;
      expect(before.length).toBeGreaterThanOrEqual(3);
      const page = text(await (await admin.get(`/admin/catalogue/${s.id}`)).text());
      expect(page).toContain("Questions after payment");
      expect(page).toContain(before[0]!.label);
      expect(page).toContain(`name="question.${before.length + 1}.label"`);
      expect(page).not.toContain(`name="question.${before.length + 2}.label"`);

      const n = before.length;
      const fields = fieldsOf(before);
      fields["question.0.label"] = "How many machines, servers included?";
      fields["question.1.remove"] = "on";
      fields[`question.${n}.label`] = "Anything else we should know?";
      fields[`question.${n}.kind`] = "textarea";
      fields[`question.${n}.key`] = "";
      fields[`question.${n}.maxLength`] = "";
      fields[`question.${n + 1}.label`] = "";
      fields[`question.${n + 1}.key`] = "";
      const res = await admin.post(`/admin/catalogue/${s.id}`, fields);
      expect(res.status).toBe(200);
      expect(text(await res.text())).toContain(`${s.name} asks ${n} questions after payment.`);

      const [saved] = await db().select().from(services).where(eq(services.id, s.id));
      const after = saved!.intakeQuestions!;
      expect(after.map((q) => q.key)).toEqual([
        before[0]!.key,
        ...before.slice(2).map((q) => q.key),
        "anything_else_we_should_know",
      ]);
      expect(after[0]!.label).toBe("How many machines, servers included?");
      expect(after.at(-1)).toEqual({
        key: "anything_else_we_should_know",
        label: "Anything else we should know?",
        kind: "textarea",
        required: false,
        maxLength: 2000,
      });
      // The prices are untouched.
      expect(saved!.pricing).toEqual(s.pricing);
      const [audit] = await rows<{ action: string; actor_email: string; before: unknown; after: unknown }>(
        sql`select action, actor_email, before, after from audit_log where entity_id = ${s.id} and action = 'catalogue.intake'`,
      );
      expect(audit).toEqual({
        action: "catalogue.intake",
        actor_email: "owner.orders@example.com",
        before: { intakeQuestions: before },
        after: { intakeQuestions: after },
      });
    });

    it("shows each refused question's message on its field, and saves nothing", async () => {
      const [service] = await db().select().from(services).where(eq(services.slug, "ssl-setup"));
      const s = service!;
      const before = s.intakeQuestions!;
      const fields = fieldsOf(before);
      fields["question.1.key"] = "Bad Key";
      fields["question.2.maxLength"] = "lots";
      const res = await admin.post(`/admin/catalogue/${s.id}`, fields);
      expect(res.status).toBe(400);
      const html = text(await res.text());
      expect(html).toContain(
        "A key uses lower-case letters, digits and underscores, and starts with a letter",
      );
      expect(html).toContain("Enter a whole number of characters");
      // The sent values are shown again.
      expect(html).toContain('value="Bad Key"');
      expect(html).toContain('value="lots"');
      const dup = fieldsOf([...before, { ...before[0]!, label: "Again" }]);
      const twice = await admin.post(`/admin/catalogue/${s.id}`, dup);
      expect(twice.status).toBe(400);
      expect(text(await twice.text())).toContain(`Two questions have the key "${before[0]!.key}"`);

      const [after] = await db().select().from(services).where(eq(services.id, s.id));
      expect(after!.intakeQuestions).toEqual(before);
      const audits = await rows(
        sql`select id from audit_log where entity_id = ${s.id} and action = 'catalogue.intake'`,
      );
      expect(audits).toHaveLength(0);
    });
  });

  /** A post that declares `length` bytes and sends none: the answer must come before the body. */
  function rawPost(path: string, length: number, cookie: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(new URL(path, server.url), {
        method: "POST",
        headers: {
          cookie,
          origin: new URL(server.url).origin,
          "x-forwarded-for": "198.51.101.201",
          "content-type": "multipart/form-data; boundary=----portico",
          "content-length": String(length),
        },
      });
      req.on("response", (res) => {
        let body = "";
        res.on("data", (c: Buffer) => {
          body += c.toString();
        });
        res.on("end", () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on("error", reject);
      req.flushHeaders();
    });
  }
});
