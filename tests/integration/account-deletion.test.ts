/**
 * "Delete my account" and the owner's "Delete client" (issue 25, ADR 0520) through the built server, on
 * each database: the checks that refuse it with nothing changed (password, DELETE, an order in
 * progress, an admin's account, rate limit), then a client with a paid purchase (a real invoice with
 * its frozen buyer), a pending one, messages with files, a brief, contact messages, a newsletter
 * subscription, a quote request, quotes, audit rows, rate-limit counters and emails deletes the
 * account: signed out (the live stream ends), can't sign in, the confirmation reaches the old address
 * and is erased after, the late payment of the cancelled order needs attention, and a search of EVERY
 * text, json and bytea column of EVERY table (from information_schema, so a new table is covered)
 * finds the old email, name and phone only in the documents the law keeps. The same email registers
 * again as a new, empty client. The owner deletes another client, re-authenticating.
 */
import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, queryRows } from "~/db/client.server";
import {
  auditLog,
  clients,
  contactMessages,
  messageAttachments,
  newsletterSubscriptions,
  orderBriefs,
  orderMessages,
  orders,
  outboxEmails,
  paymentEvents,
  paymentIssues,
  quoteRequests,
  quotes,
  twoFactor,
  user,
} from "~/db/schema";
import { SANDBOX_SIGNATURE_HEADER, signSandboxPayload } from "~/features/payments/sandbox.server";
import { DELETION_MESSAGES } from "~/features/privacy/account-deletion";
import { createAccount, FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { location, Session, text } from "../support/browserless";
import { checkoutTokenIn, PASSWORD, signedInClient } from "../support/clients";
import { testDatabases } from "../support/databases";
import { EventReader, openEvents } from "../support/portal";
import { freePort, startTestServer, type TestServer } from "../support/server";
import { eventually, startTestSmtp, type TestSmtp } from "../support/smtp";
import { backupCodesIn, secretIn, totp, wrongCode } from "../support/totp";

const SECRET = "sandbox-test-secret-0123456789";

/**
 * The only places the old email, name or phone may stay after a deletion: the buyer copies frozen on
 * the documents tax law keeps (ADR 0504, 0505; quotes once sent, their trigger), each only on rows of
 * the deleted client. Anything else is a leak.
 */
const KEPT_BY_LAW: Record<string, (clientId: string) => ReturnType<typeof sql>> = {
  "invoices.buyer": (id) => sql`client_id = ${id}`,
  "credit_notes.buyer": (id) => sql`client_id = ${id}`,
  "quotes.name": (id) => sql`client_id = ${id} and quote_number is not null`,
  "quotes.email": (id) => sql`client_id = ${id} and quote_number is not null`,
  "quotes.company": (id) => sql`client_id = ${id} and quote_number is not null`,
  "quotes.accepted_name": (id) => sql`client_id = ${id} and status = 'accepted'`,
};

/** Every table.column (text, varchar, json, jsonb, arrays, bytea) holding one of `needles`, with row counts. */
async function whereFound(
  db: Database,
  needles: string[],
  clientId: string,
): Promise<{ leaks: string[]; kept: string[] }> {
  const columns = await queryRows<{ table_name: string; column_name: string; data_type: string }>(
    db,
    sql`select c.table_name, c.column_name, c.data_type from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
          and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'bytea')
        order by c.table_name, c.column_name`,
  );
  // Tables of every kind the schema has: a new one is searched without changing this test.
  expect(new Set(columns.map((c) => c.table_name)).size).toBeGreaterThan(25);
  const leaks: string[] = [];
  const kept: string[] = [];
  for (const c of columns) {
    const col = sql.identifier(c.column_name);
    const table = sql.identifier(c.table_name);
    for (const needle of needles) {
      // In JSON a quote or a backslash of the needle is written escaped.
      const escaped = JSON.stringify(needle).slice(1, -1).toLowerCase();
      const hit =
        c.data_type === "bytea"
          ? sql`strpos(lower(encode(${col}, 'escape')), ${needle.toLowerCase()}) > 0`
          : c.data_type === "json" || c.data_type === "jsonb"
            ? sql`(strpos(lower(${col}::text), ${needle.toLowerCase()}) > 0 or strpos(lower(${col}::text), ${escaped}) > 0)`
            : sql`strpos(lower(${col}::text), ${needle.toLowerCase()}) > 0`;
      const key = `${c.table_name}.${c.column_name}`;
      const allowed = KEPT_BY_LAW[key];
      const [row] = await queryRows<{ n: number; outside: number }>(
        db,
        sql`select count(*)::int as n, count(*) filter (where not (${allowed ? allowed(clientId) : sql`false`}))::int as outside
            from ${table} where ${hit}`,
      );
      if (row!.outside > 0) leaks.push(`${key} (${row!.outside} rows hold "${needle}")`);
      else if (row!.n > 0) kept.push(key);
    }
  }
  return { leaks, kept: [...new Set(kept)] };
}

describe.each(testDatabases)("account deletion on $name", (database) => {
  let server: TestServer;
  let smtp: TestSmtp;
  const db = () => server.portico.runtime.database.db;
  let ips = 0;
  const newSession = () => new Session(server.url, `198.51.110.${++ips}`);
  let owner: { id: string; session: Session };

  function sendWebhook(event: unknown) {
    const body = JSON.stringify(event);
    return fetch(`${server.url}/api/payments/sandbox/webhook`, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(SECRET, body),
      },
    });
  }

  /** A real purchase (the invoice is issued with its frozen buyer), paid by the sandbox's webhook or not. */
  async function purchase(
    session: Session,
    clientId: string,
    pay: boolean,
  ): Promise<{ orderId: string; amount: number }> {
    const page = await session.get("/client/purchase/email-migration");
    const res = await session.post("/client/purchase/email-migration", {
      checkoutToken: checkoutTokenIn(await page.text()),
      package: "basic",
      quantity: "20",
      currency: "USD",
    });
    expect(res.status).toBe(302);
    const [order] = await queryRows<{ id: string; amount_in_currency: string }>(
      db(),
      sql`select id, amount_in_currency from orders where client_id = ${clientId} order by created_at desc limit 1`,
    );
    const amount = Number(order!.amount_in_currency);
    if (pay) {
      const id = `evt_${order!.id.slice(0, 8)}_${Date.now()}`;
      const hook = await sendWebhook({
        id,
        type: "checkout.completed",
        data: { session_id: `cs_${id}`, order_id: order!.id, amount, currency: "USD" },
      });
      expect(hook.status).toBe(200);
    }
    return { orderId: order!.id, amount };
  }

  async function signInFails(email: string, password = PASSWORD) {
    const res = await newSession().post("/client/login", { email, password });
    expect(res.status).toBe(401);
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    const port = await freePort();
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SANDBOX_WEBHOOK_SECRET: SECRET,
      SMTP_URL: smtp.url,
      MAIL_POLL_INTERVAL_MS: "100",
      RETENTION_YEARS: "7",
    });
    const ownerId = await createAccount(db(), {
      email: "owner.deletion@example.com",
      name: "Owner",
      role: "admin",
    });
    const s = newSession();
    const login = await s.post("/client/login", {
      email: "owner.deletion@example.com",
      password: FIXTURE_PASSWORD,
    });
    expect(location(login)).toBe("/admin/dashboard");
    owner = { id: ownerId, session: s };
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it("refuses a wrong password, a missing DELETE and an order in progress, changing nothing", async () => {
    const c = await signedInClient(server.url, db(), "Wanda Keepsake");
    const { orderId } = await purchase(c.session, c.id, true);
    const del = (fields: Record<string, string>) =>
      c.session.post("/client/profile", { intent: "deleteAccount", ...fields });

    const wrong = await del({ password: "not-my-password", confirm: "DELETE" });
    expect(wrong.status).toBe(400);
    expect(text(await wrong.text())).toContain(DELETION_MESSAGES.passwordWrong);
    const noConfirm = await del({ password: PASSWORD, confirm: "delete" });
    expect(noConfirm.status).toBe(400);
    expect(text(await noConfirm.text())).toContain(DELETION_MESSAGES.confirmRequired);

    // A paid order is work we owe: finish or cancel it first, the message names it.
    const blocked = await del({ password: PASSWORD, confirm: "DELETE" });
    expect(blocked.status).toBe(409);
    const page = text(await blocked.text());
    // Issue 37, item 11: named by what blocks (work owed), not by a status list.
    expect(page).toMatch(
      /Your account cannot be deleted yet: order Email Migration[^(<]*\(paid, work not started\)/,
    );
    expect(page).toMatch(/wait until the work is completed \(or ask us to cancel it\)/);
    // In progress too.
    await db().update(orders).set({ status: "in_progress" }).where(eq(orders.id, orderId));
    expect((await del({ password: PASSWORD, confirm: "DELETE" })).status).toBe(409);

    // Nothing changed: still signed in, same email, can sign in again.
    expect((await c.session.get("/client/dashboard")).status).toBe(200);
    const [row] = await db().select().from(clients).where(eq(clients.id, c.id));
    expect(row).toMatchObject({ email: c.email, deletedAt: null });
    const again = await newSession().post("/client/login", { email: c.email, password: PASSWORD });
    expect(location(again)).toBe("/client/dashboard");
    const audited = await db().select().from(auditLog).where(eq(auditLog.action, "client.delete"));
    expect(audited.filter((a) => a.entityId === c.id)).toHaveLength(0);
  }, 60_000);

  it("limits the password checks like the other password forms (429 after 10 in 10 minutes)", async () => {
    const c = await signedInClient(server.url, db(), "Rita Ratelimit");
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await c.session.post("/client/profile", {
        intent: "deleteAccount",
        password: `wrong-${i}`,
        confirm: "DELETE",
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await db().select().from(clients).where(eq(clients.id, c.id)))[0]!.deletedAt).toBeNull();
  }, 60_000);

  it("deletes the account in one go: signed out, can't sign in, nothing personal left but the kept documents", async () => {
    const name = "Quillon Vantreese";
    const c = await signedInClient(server.url, db(), name);
    const other = await signedInClient(server.url, db(), "Ottilie Bystander");
    // Profile details, then a real purchase (paid, completed) and a pending one.
    const saved = await c.session.post("/client/profile", {
      intent: "profile",
      name,
      phone: "+1 415 555 0199",
      company: "Vantreese Cartography",
      address: "12 Map Lane",
      country: "Iceland",
      taxId: "",
    });
    expect(saved.status).toBe(200);
    const phone = (await db().select().from(clients).where(eq(clients.id, c.id)))[0]!.phone!;
    expect(phone).toBeTruthy();
    const paid = await purchase(c.session, c.id, true);
    await db().update(orders).set({ status: "completed" }).where(eq(orders.id, paid.orderId));
    const pending = await purchase(c.session, c.id, false);
    const otherOrder = await purchase(other.session, other.id, true);

    // Things that carry the client's identity, the ways the site makes them.
    const file = new TextEncoder().encode(`Notes from ${name}, ${c.email}`);
    const [m] = await db()
      .insert(orderMessages)
      .values({
        orderId: paid.orderId,
        authorId: c.id,
        authorRole: "client",
        body: `Hi, ${name} here. Call me on ${phone} or write to ${c.email}.`,
      })
      .returning();
    await db()
      .insert(messageAttachments)
      .values({
        messageId: m!.id,
        filename: "notes.txt",
        contentType: "text/plain",
        size: file.byteLength,
        bytes: file,
        sha256: createHash("sha256").update(file).digest("hex"),
      });
    await db()
      .insert(orderBriefs)
      .values({
        orderId: paid.orderId,
        questions: [{ key: "contact", label: "Who", kind: "text", required: true, maxLength: 200 }],
        answers: { contact: `${name}, ${phone}` },
        answeredBy: c.id,
      });
    await db().insert(contactMessages).values({
      name,
      email: c.email.toUpperCase(),
      subject: "Earlier",
      message: "An earlier question",
      source: "site",
    });
    await db().insert(newsletterSubscriptions).values({ email: c.email.toLowerCase() }).onConflictDoNothing();
    const [request] = await db()
      .insert(quoteRequests)
      .values({
        clientId: c.id,
        name,
        email: c.email,
        company: "Vantreese Cartography",
        description: `Please call ${phone}`,
        source: "portal",
        ipAddress: "203.0.113.9",
      })
      .returning();
    const quoteNumber = `Q-2026-${Math.floor(Math.random() * 90000) + 10000}`;
    await db()
      .insert(quotes)
      .values([
        {
          quoteNumber,
          requestId: request!.id,
          clientId: c.id,
          name,
          email: c.email,
          status: "sent",
          lines: [{ kind: "free", description: "Survey", quantity: 1, unitPriceUsd: 100 }],
          subtotalUsd: 100,
          totalUsd: 100,
          validUntil: "2099-01-01",
          sentAt: new Date(),
        },
        {
          clientId: c.id,
          name,
          email: c.email,
          status: "draft",
          validUntil: "2099-01-01",
        },
      ]);
    // The client's own export: an audit row with the email in it.
    expect((await c.session.post("/client/profile/export", {})).status).toBe(200);
    // A failed sign-in counter keyed by the address.
    await signInFails(c.email, "wrong-password");

    // A live stream of the client's session is open.
    const events = new EventReader(await openEvents(server.url, c.session));
    await events.until(() => events.comments.some((x) => x.includes("connected")), "connected");

    // The profile's saved choices (ADR 0521) go with the other preferences.
    await db()
      .update(clients)
      .set({ timeZone: "America/Denver", language: "fr" })
      .where(eq(clients.id, c.id));

    const res = await c.session.post("/client/profile", {
      intent: "deleteAccount",
      password: PASSWORD,
      code: "",
      confirm: "DELETE",
    });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/client/account-deleted");
    const [gone] = await db().select().from(clients).where(eq(clients.id, c.id));
    expect(gone).toMatchObject({ timeZone: null, language: null });
    expect(res.headers.getSetCookie().some((h) => /Max-Age=0/.test(h))).toBe(true);
    // The page saying so, not the login form.
    const done = await c.session.get("/client/account-deleted");
    expect(done.status).toBe(200);
    expect(text(await done.text())).toContain("Your account has been deleted");

    // Signed out everywhere: the stream ends, the old cookie is nobody's, the password is gone.
    await events.until(() => events.ended, "stream ended");
    expect(events.events.some((e) => e.event === "signed-out")).toBe(true);
    const after = await c.session.get("/client/dashboard");
    expect(after.status).toBe(302);
    expect(location(after)).toMatch(/^\/client\/login/);

    // The pending order is cancelled and its invoice void; the paid one kept.
    const mine = await db().select().from(orders).where(eq(orders.clientId, c.id));
    expect(mine.find((o) => o.id === pending.orderId)!.status).toBe("cancelled");
    expect(mine.find((o) => o.id === paid.orderId)!.status).toBe("completed");
    const invoiceRows = await queryRows<{
      id: string;
      status: string;
      order_id: string;
      invoice_number: string;
    }>(db(), sql`select id, status, order_id, invoice_number from invoices where client_id = ${c.id}`);
    expect(invoiceRows.find((i) => i.order_id === pending.orderId)!.status).toBe("void");
    const paidInvoice = invoiceRows.find((i) => i.order_id === paid.orderId)!;
    expect(paidInvoice.status).toBe("paid");

    // The confirmation reaches the old address, then its outbox row forgets it.
    const mail = await eventually(() =>
      smtp.received.find((x) => x.subject?.includes("account has been deleted")),
    );
    expect(mail.to && "text" in mail.to ? mail.to.text : "").toContain(c.email);
    expect(mail.text).toContain("7 years");
    const [confirmation] = await db()
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.kind, "account-deleted"));
    await eventually(async () => {
      const [row] = await db().select().from(outboxEmails).where(eq(outboxEmails.id, confirmation!.id));
      // The recipient's name goes with the address.
      return row!.status === "sent" && row!.toAddress === "erased@deleted.invalid" && row!.toName === null;
    });

    // A late payment of the cancelled order: "Needs attention", never applied.
    const late = `evt_late_${Date.now()}`;
    const hook = await sendWebhook({
      id: late,
      type: "checkout.completed",
      data: { session_id: `cs_${late}`, order_id: pending.orderId, amount: pending.amount, currency: "USD" },
    });
    expect(hook.status).toBe(200);
    const issues = await db().select().from(paymentIssues).where(eq(paymentIssues.orderId, pending.orderId));
    expect(issues.map((i) => i.kind)).toEqual(["order-cancelled"]);
    expect((await db().select().from(orders).where(eq(orders.id, pending.orderId)))[0]!.status).toBe(
      "cancelled",
    );

    // The search: every text/json/bytea column of every table, for the old email, name and phone.
    const { leaks, kept } = await whereFound(db(), [c.email, name, phone], c.id);
    expect(leaks).toEqual([]);
    // The kept documents are exactly the law's: the invoice's buyer and the sent quote's recipient.
    expect(kept.sort()).toEqual(["invoices.buyer", "quotes.email", "quotes.name"]);

    // What was deleted is gone, what is kept is redacted; the owner's invoice still shows its buyer.
    expect(
      await db().select().from(messageAttachments).where(eq(messageAttachments.messageId, m!.id)),
    ).toEqual([]);
    const [kept1] = await db().select().from(orderMessages).where(eq(orderMessages.id, m!.id));
    expect(kept1!.body).toBe("Hi, [removed] here. Call me on [removed] or write to [removed].");
    const [q] = await db().select().from(quotes).where(eq(quotes.quoteNumber, quoteNumber));
    expect(q!.status).toBe("expired");
    const invoicePage = text(await (await owner.session.get(`/admin/invoices/${paidInvoice.id}`)).text());
    expect(invoicePage).toContain(paidInvoice.invoice_number);
    expect(invoicePage).toContain(name);
    expect(invoicePage).toContain(c.email);
    // The other client is untouched.
    const [o] = await db().select().from(clients).where(eq(clients.id, other.id));
    expect(o!.name).toBe("Ottilie Bystander");
    expect((await db().select().from(orders).where(eq(orders.id, otherOrder.orderId)))[0]!.status).toBe(
      "paid",
    );

    // Audit: the deletion by the account's id, no address in it.
    const [row] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "client.delete"), eq(auditLog.entityId, c.id)));
    expect(row).toMatchObject({
      actorId: c.id,
      after: { requestedBy: "client", cancelledOrders: [pending.orderId] },
    });
    expect(row!.actorEmail).toMatch(/@deleted\.invalid$/);

    // The password is gone: no sign-in (after the search: a sign-in attempt keys a short-lived counter
    // by the address typed, whoever types it).
    await signInFails(c.email);

    // The owner can no longer export it: refused with a clear message.
    const exported = await owner.session.post(`/admin/clients/${c.id}/export`, {});
    expect(exported.status).toBe(410);
    expect(await exported.text()).toBe(DELETION_MESSAGES.exportOfDeleted);

    // The same address registers again as a new, empty client.
    const again = await signedInClient(server.url, db(), "Quillon Again", c.email);
    expect(again.id).not.toBe(c.id);
    const dash = text(await (await again.session.get("/client/orders")).text());
    expect(dash).not.toContain(paid.orderId.slice(0, 8));
    expect(await db().select().from(orders).where(eq(orders.clientId, again.id))).toEqual([]);
  }, 180_000);

  it("lets the owner delete a client, re-authenticating, with the client's rules, audited with the owner", async () => {
    const c = await signedInClient(server.url, db(), "Petronella Byemail");
    const pending = await purchase(c.session, c.id, false);
    const url = `/admin/clients/${c.id}`;
    const page = text(await (await owner.session.get(url)).text());
    expect(page).toContain("Delete client");

    const wrong = await owner.session.post(url, {
      intent: "deleteClient",
      confirm: "DELETE",
      password: "nope",
    });
    expect(wrong.status).toBe(400);
    expect(text(await wrong.text())).toContain(DELETION_MESSAGES.ownerPasswordWrong);
    const noConfirm = await owner.session.post(url, {
      intent: "deleteClient",
      confirm: "",
      password: FIXTURE_PASSWORD,
    });
    expect(noConfirm.status).toBe(400);
    // Never an admin's account, nor through a client's session.
    const admin = await owner.session.post(`/admin/clients/${owner.id}`, {
      intent: "deleteClient",
      confirm: "DELETE",
      password: FIXTURE_PASSWORD,
    });
    expect([403, 404]).toContain(admin.status);
    expect((await db().select().from(user).where(eq(user.id, owner.id)))[0]!.email).toBe(
      "owner.deletion@example.com",
    );
    expect(
      (await c.session.post(url, { intent: "deleteClient", confirm: "DELETE", password: PASSWORD })).status,
    ).toBe(404);

    const ok = await owner.session.post(url, {
      intent: "deleteClient",
      confirm: "DELETE",
      password: FIXTURE_PASSWORD,
    });
    expect(ok.status).toBe(302);
    expect(location(ok)).toBe(`${url}?deleted=1`);
    const shown = text(await (await owner.session.get(`${url}?deleted=1`)).text());
    expect(shown).toContain("The client's account has been deleted.");
    expect(shown).not.toContain(c.email);
    // The client's own session ended.
    expect(location(await c.session.get("/client/dashboard"))).toMatch(/^\/client\/login/);
    expect((await db().select().from(orders).where(eq(orders.id, pending.orderId)))[0]!.status).toBe(
      "cancelled",
    );
    const [row] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "client.delete"), eq(auditLog.entityId, c.id)));
    expect(row).toMatchObject({
      actorId: owner.id,
      actorEmail: "owner.deletion@example.com",
      after: { requestedBy: "owner" },
    });
    // A second time: already deleted.
    const twice = await owner.session.post(url, {
      intent: "deleteClient",
      confirm: "DELETE",
      password: FIXTURE_PASSWORD,
    });
    expect(twice.status).toBe(409);
    // The confirmation to the client's address is erased once sent: search after that.
    await eventually(async () => {
      const rows = await db().select().from(outboxEmails).where(eq(outboxEmails.kind, "account-deleted"));
      return rows.every((r) => r.toAddress.toLowerCase() !== c.email.toLowerCase());
    });
    const { leaks } = await whereFound(db(), [c.email, "Petronella Byemail"], c.id);
    expect(leaks).toEqual([]);
    await signInFails(c.email);
  }, 120_000);

  it("never lets a chosen name, company or address rewrite anyone else's records; regex characters are literal", async () => {
    const n = Date.now();
    const attackerEmail = `mal${n}@example.com`;
    // The victim's address holds the attacker's inside it; the attacker's company is the owner's address.
    const victim = await signedInClient(server.url, db(), "Victor Victim", `x${attackerEmail}`);
    const c = await signedInClient(server.url, db(), "Mallory", attackerEmail);
    // Regular-expression characters, and a quote and a backslash (written escaped inside JSON).
    const name = 'Mal "the (a.k.a. *Nan*)" [x]+? $1 \\d';
    await db().update(user).set({ name }).where(eq(user.id, c.id));
    await db()
      .update(clients)
      .set({ name, company: "owner.deletion@example.com", phone: "Victor" })
      .where(eq(clients.id, c.id));
    const { orderId } = await purchase(c.session, c.id, true);
    await db().update(orders).set({ status: "completed" }).where(eq(orders.id, orderId));
    const [m] = await db()
      .insert(orderMessages)
      .values({ orderId, authorId: c.id, authorRole: "client", body: `From ${name} (${attackerEmail}).` })
      .returning();
    // The name inside JSON the client's records keep: a brief's answers, an audit row about the
    // client, a payment event's payload.
    await db()
      .insert(orderBriefs)
      .values({
        orderId,
        questions: [{ key: "contact", label: "Who", kind: "text", required: true, maxLength: 200 }],
        answers: { contact: `${name} <${attackerEmail}>` },
        answeredBy: c.id,
      })
      .onConflictDoUpdate({
        target: orderBriefs.orderId,
        set: { answers: { contact: `${name} <${attackerEmail}>` } },
      });
    await db()
      .insert(auditLog)
      .values({
        actorId: c.id,
        actorEmail: attackerEmail,
        action: "client.profile",
        entity: "client",
        entityId: c.id,
        after: { name, nested: [{ note: `call ${name}` }] },
      });
    await db()
      .insert(paymentEvents)
      .values({
        provider: "sandbox",
        eventId: `evt_json_${n}`,
        type: "checkout.note",
        orderId,
        payload: { customer: { name }, note: `for ${name}` },
      });
    // Records of others holding those strings: the victim's own export, the owner's export of the victim.
    expect((await victim.session.post("/client/profile/export", {})).status).toBe(200);
    expect((await owner.session.post(`/admin/clients/${victim.id}/export`, {})).status).toBe(200);

    const others = async () => {
      const audit = (await db().select().from(auditLog)).filter(
        (a) => a.actorId !== c.id && a.entityId !== c.id && a.entityId !== orderId,
      );
      const mail = (await db().select().from(outboxEmails))
        .filter((e) => e.toAddress.toLowerCase() !== attackerEmail && e.kind !== "account-deleted")
        .map(({ id, toAddress, replyTo, subject, html, text }) => ({
          id,
          toAddress,
          replyTo,
          subject,
          html,
          text,
        }));
      return {
        audit: audit.sort((a, b) => a.id.localeCompare(b.id)),
        mail: mail.sort((a, b) => a.id.localeCompare(b.id)),
      };
    };
    const before = await others();
    expect(before.audit.some((a) => a.actorEmail === "owner.deletion@example.com")).toBe(true);
    expect(before.audit.some((a) => JSON.stringify(a.after ?? a.before).includes(victim.email))).toBe(true);

    const res = await c.session.post("/client/profile", {
      intent: "deleteAccount",
      password: PASSWORD,
      confirm: "DELETE",
    });
    expect(location(res)).toBe("/client/account-deleted");
    expect(await others()).toEqual(before);
    // The client's own text is redacted, the name's regex characters taken literally.
    const [kept] = await db().select().from(orderMessages).where(eq(orderMessages.id, m!.id));
    expect(kept!.body).toBe("From [removed] ([removed]).");
    // And inside the JSON, string by string, the JSON kept whole.
    const [brief] = await db().select().from(orderBriefs).where(eq(orderBriefs.orderId, orderId));
    expect(brief!.answers).toEqual({ contact: "[removed] <[removed]>" });
    const [audited] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "client.profile"), eq(auditLog.entityId, c.id)));
    expect(audited!.after).toEqual({ name: "[removed]", nested: [{ note: "call [removed]" }] });
    const [event] = await db()
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, `evt_json_${n}`));
    expect(event!.payload).toEqual({ customer: { name: "[removed]" }, note: "for [removed]" });
    // Once the confirmation is sent (and erased), the name is nowhere (the address is a part of the
    // victim's, which stays: compared above).
    await eventually(async () => {
      const rows = await db().select().from(outboxEmails).where(eq(outboxEmails.kind, "account-deleted"));
      return rows.every((r) => r.toAddress !== attackerEmail);
    });
    const { leaks } = await whereFound(db(), [name], c.id);
    expect(leaks).toEqual([]);
  }, 60_000);

  it("refuses a cross-site deletion; a second submit or the old cookie gets the sign-in page, never a 500", async () => {
    const c = await signedInClient(server.url, db(), "Dora Doubleclick");
    const body = new URLSearchParams({ intent: "deleteAccount", password: PASSWORD, confirm: "DELETE" });
    const post = (headers: Record<string, string> = {}) =>
      fetch(`${server.url}/client/profile`, {
        method: "POST",
        redirect: "manual",
        headers: {
          cookie: c.session.cookieHeader,
          "content-type": "application/x-www-form-urlencoded",
          "x-forwarded-for": "203.0.113.77",
          ...headers,
        },
        body,
      });
    const crossSite = await post({ origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(crossSite.status).toBe(403);
    expect((await db().select().from(clients).where(eq(clients.id, c.id)))[0]!.deletedAt).toBeNull();

    // Two submits at once with the same cookie: one deletes, the other is told the account is gone or
    // sent to sign in.
    const [a, b] = await Promise.all([post(), post()]);
    const answers = [a, b].map((r) => ({ status: r.status, to: r.headers.get("location") ?? "" }));
    expect(answers.filter((x) => x.to === "/client/account-deleted")).toHaveLength(1);
    const other = answers.find((x) => x.to !== "/client/account-deleted")!;
    if (other.status === 302) expect(other.to).toMatch(/^\/client\/login/);
    else expect(other.status).toBe(409);
    // Later, the old cookie: a page or the same form sends to sign in.
    expect(location(await c.session.get("/client/profile?tab=privacy"))).toMatch(/^\/client\/login/);
    const late = await post();
    expect(late.status).toBe(302);
    expect(late.headers.get("location")).toMatch(/^\/client\/login/);
    expect(
      await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "client.delete"), eq(auditLog.entityId, c.id))),
    ).toHaveLength(1);
  }, 60_000);

  /** Turns two-factor on from the client's profile; the key and the backup codes shown. */
  async function enableTwoFactor(session: Session): Promise<{ secret: string; backupCodes: string[] }> {
    const started = await session.post("/client/profile", { intent: "twoFactorStart", password: PASSWORD });
    expect(started.status).toBe(200);
    const secret = secretIn(await started.text());
    const confirmed = await session.post("/client/profile", {
      intent: "twoFactorConfirm",
      code: totp(secret),
    });
    expect(confirmed.status).toBe(200);
    const backupCodes = backupCodesIn(await confirmed.text());
    expect(backupCodes).toHaveLength(10);
    return { secret, backupCodes };
  }

  async function stillThere(id: string) {
    const [row] = await db().select().from(clients).where(eq(clients.id, id));
    expect(row!.deletedAt).toBeNull();
    expect(await db().select().from(twoFactor).where(eq(twoFactor.userId, id))).toHaveLength(1);
  }

  async function deletedWithSecrets(id: string) {
    const [row] = await db().select().from(clients).where(eq(clients.id, id));
    expect(row!.deletedAt).not.toBeNull();
    expect(await db().select().from(twoFactor).where(eq(twoFactor.userId, id))).toEqual([]);
    expect((await db().select().from(user).where(eq(user.id, id)))[0]!.twoFactorEnabled).toBe(false);
  }

  describe("with two-factor on", () => {
    it("asks for a code, refuses a wrong one and one already used to sign in, and deletes with a fresh one", async () => {
      const c = await signedInClient(server.url, db(), "Tobias Twofactor");
      const { secret } = await enableTwoFactor(c.session);
      const pending = await purchase(c.session, c.id, false);
      const del = (code?: string) =>
        c.session.post("/client/profile", {
          intent: "deleteAccount",
          password: PASSWORD,
          confirm: "DELETE",
          ...(code === undefined ? {} : { code }),
        });

      for (const missing of [undefined, "", "12 34", "not-a-code"]) {
        const res = await del(missing);
        expect(res.status).toBe(400);
        expect(text(await res.text())).toContain(DELETION_MESSAGES.codeRequired);
      }
      const wrong = await del(wrongCode(secret));
      expect(wrong.status).toBe(400);
      expect(text(await wrong.text())).toContain(DELETION_MESSAGES.codeWrong);
      const wrongBackup = await del("zzzzz-zzzzz");
      expect(wrongBackup.status).toBe(400);
      expect(text(await wrongBackup.text())).toContain(DELETION_MESSAGES.codeWrong);

      // A code just used to sign in (a second device) is refused here too, as a second sign-in would.
      // The codes of this step and the next: both valid while the server is in either.
      const t = Date.now();
      const code = totp(secret, t, 1);
      const fresh = totp(secret, t, 0);
      const other = newSession();
      expect(location(await other.post("/client/login", { email: c.email, password: PASSWORD }))).toMatch(
        /^\/client\/two-factor/,
      );
      expect(location(await other.post("/client/two-factor", { code }))).toBe("/client/dashboard");
      const replayed = await del(code);
      expect(replayed.status).toBe(400);
      expect(text(await replayed.text())).toContain(DELETION_MESSAGES.codeWrong);

      // Nothing changed by any of these.
      await stillThere(c.id);
      expect((await c.session.get("/client/dashboard")).status).toBe(200);
      expect((await db().select().from(orders).where(eq(orders.id, pending.orderId)))[0]!.status).toBe(
        "pending",
      );

      // A code not used yet deletes; the key and backup codes go with the account.
      const ok = await del(fresh);
      expect(ok.status).toBe(302);
      expect(location(ok)).toBe("/client/account-deleted");
      await deletedWithSecrets(c.id);
      // The second device is signed out too.
      expect(location(await other.get("/client/dashboard"))).toMatch(/^\/client\/login/);
    }, 90_000);

    it("takes a backup code once, even when the deletion is then refused", async () => {
      const c = await signedInClient(server.url, db(), "Bella Backup");
      const { backupCodes } = await enableTwoFactor(c.session);
      const { orderId } = await purchase(c.session, c.id, true);
      const del = (code: string) =>
        c.session.post("/client/profile", {
          intent: "deleteAccount",
          password: PASSWORD,
          confirm: "DELETE",
          code,
        });

      // Right code, but a paid order blocks it: the code is spent all the same.
      const blocked = await del(backupCodes[0]!);
      expect(blocked.status).toBe(409);
      await stillThere(c.id);
      await db().update(orders).set({ status: "completed" }).where(eq(orders.id, orderId));
      const again = await del(backupCodes[0]!);
      expect(again.status).toBe(400);
      expect(text(await again.text())).toContain(DELETION_MESSAGES.codeWrong);
      await stillThere(c.id);

      // Another one (typed without its dash) deletes.
      const ok = await del(backupCodes[1]!.replace("-", ""));
      expect(ok.status).toBe(302);
      expect(location(ok)).toBe("/client/account-deleted");
      await deletedWithSecrets(c.id);
    }, 60_000);

    it("limits wrong codes per account, whatever the address they come from", async () => {
      const c = await signedInClient(server.url, db(), "Ivo Manyaddresses");
      const { secret } = await enableTwoFactor(c.session);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await fetch(`${server.url}/client/profile`, {
          method: "POST",
          redirect: "manual",
          headers: {
            cookie: c.session.cookieHeader,
            "content-type": "application/x-www-form-urlencoded",
            "x-forwarded-for": `203.0.113.${100 + i}`,
          },
          body: new URLSearchParams({
            intent: "deleteAccount",
            password: PASSWORD,
            confirm: "DELETE",
            code: wrongCode(secret, i),
          }),
        });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
      expect(statuses[10]).toBe(429);
      await stillThere(c.id);
    }, 60_000);
  });

  it("refuses an admin's own deletion from the profile", async () => {
    const res = await owner.session.post("/client/profile", {
      intent: "deleteAccount",
      password: FIXTURE_PASSWORD,
      confirm: "DELETE",
    });
    expect(res.status).toBe(403);
    expect(text(await res.text())).toContain(DELETION_MESSAGES.admin);
    expect((await db().select().from(user).where(eq(user.id, owner.id)))[0]!.email).toBe(
      "owner.deletion@example.com",
    );
  });

  it("links a quote sent to the address before it had an account to the deleted account: the address's next account starts empty", async () => {
    // Issue 35, item 6. The owner quotes an address that has no account (no client id, found by email).
    const email = `nora.before.${Date.now()}@example.com`;
    const validUntil = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const sent = await owner.session.post("/admin/quotes/new", {
      intent: "send",
      requestId: "",
      clientId: "",
      name: "Nora Before",
      email,
      company: "",
      discount: "",
      depositPercent: "",
      validUntil,
      terms: "All on completion.",
      "lines.0.kind": "free",
      "lines.0.item": "",
      "lines.0.description": "Mailbox audit",
      "lines.0.quantity": "1",
      "lines.0.unitPrice": "120",
    });
    expect(sent.status).toBe(302);
    const [quote] = await db().select().from(quotes).where(eq(quotes.email, email));
    expect(quote).toMatchObject({ clientId: null, status: "sent" });
    const quoteNumber = quote!.quoteNumber!;

    // The address registers: its account sees the quote (matched by email), then deletes itself.
    const first = await signedInClient(server.url, db(), "Nora Before", email);
    expect(await (await first.session.get("/client/quotes")).text()).toContain(quoteNumber);
    const deleted = await first.session.post("/client/profile", {
      intent: "deleteAccount",
      password: PASSWORD,
      confirm: "DELETE",
    });
    expect(location(deleted)).toBe("/client/account-deleted");

    // The address registers again: a new, empty client, who sees no quote and cannot open the old one.
    const second = await signedInClient(server.url, db(), "Nora After", email);
    expect(second.id).not.toBe(first.id);
    expect(await (await second.session.get("/client/quotes")).text()).not.toContain(quoteNumber);
    expect((await second.session.get(`/client/quotes/${quote!.id}`)).status).toBe(404);
    expect((await second.session.get(`/client/quotes/${quote!.id}/pdf`)).status).toBe(404);

    // The owner's books keep the quote as sent, under the deleted client.
    const [kept] = await db().select().from(quotes).where(eq(quotes.id, quote!.id));
    expect(kept).toMatchObject({ clientId: first.id, quoteNumber, email, status: "expired" });
    const [was] = await db().select().from(clients).where(eq(clients.id, first.id));
    expect(was!.deletedAt).not.toBeNull();
  });
});
