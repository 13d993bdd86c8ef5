/**
 * The back office through the real HTTP server: the admin gate (404 for clients and visitors on every
 * route and action), order transitions with their notifications, live events, emails and audit rows,
 * invoices paid by hand / resent / voided, the contact inbox, the catalogue, ADMIN_EMAILS, and lists
 * at 10,000 rows.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { contactMessages, services } from "~/db/schema";
import { formatMoney } from "~/features/money/format";
import { accountsOn, backOfficePages, backOfficeRecords } from "../support/accounts";
import { createAccount, createOrder, FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { location, type Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

describe.each(testDatabases)("back office on $name", (database) => {
  let server: TestServer;
  const { db, newSession, signIn, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.100.${n}`,
  );
  let admin: Session;
  let client: Session;
  let clientId: string;

  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);
  const auditFor = (entityId: string) =>
    rows<{ action: string; actor_email: string; before: unknown; after: unknown }>(
      sql`select action, actor_email, before, after from audit_log where entity_id = ${entityId} order by at, id`,
    );
  const notificationsOf = (userId: string) =>
    rows<{ title: string; message: string; type: string }>(
      sql`select title, message, type from notifications where user_id = ${userId} order by created_at, id`,
    );

  beforeAll(async () => {
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      ADMIN_EMAILS: "listed@example.com, other@example.com",
    });
    admin = (await signedIn({ email: "owner@example.com", name: "Owner", role: "admin" })).session;
    ({ id: clientId, session: client } = await signedIn({ email: "ada@example.com", name: "Ada Lovelace" }));
  });
  afterAll(async () => {
    await server?.close();
  });

  describe("the admin gate", () => {
    it("gives clients and visitors 404 on every admin page and action, and changes nothing", async () => {
      const records = await backOfficeRecords(db(), clientId);
      const { order, service, message } = records;
      const pages = [
        ...backOfficePages(records),
        "/admin/orders?_data=routes/admin/orders",
        "/admin/orders.data",
        `/admin/orders/${order.orderId}.data`,
      ];
      const actions: [string, Record<string, string>][] = [
        [`/admin/orders/${order.orderId}`, { to: "paid", note: "" }],
        [`/admin/invoices/${order.invoiceId}`, { intent: "mark-paid", reference: "BANK-1" }],
        [`/admin/invoices/${order.invoiceId}`, { intent: "void" }],
        [`/admin/invoices/${order.invoiceId}`, { intent: "resend" }],
        [`/admin/messages/${message!.id}`, { intent: "reply", subject: "Re", body: "x" }],
        [`/admin/messages/${message!.id}`, { intent: "read" }],
        [
          `/admin/catalogue/${service!.id}`,
          { name: "Hacked", description: "Hacked description", [`price.${service!.packageOrder[0]}`]: "1" },
        ],
        [`/admin/orders/${order.orderId}.data`, { to: "paid" }],
      ];
      for (const [who, session] of [
        ["visitor", newSession()],
        ["client", client],
      ] as const) {
        for (const path of pages) {
          const res = await session.get(path);
          expect(res.status, `${who} GET ${path}`).toBe(404);
        }
        for (const [path, fields] of actions) {
          const res = await session.post(path, fields);
          expect(res.status, `${who} POST ${path}`).toBe(404);
        }
      }
      const [after] = await rows<{ status: string }>(
        sql`select status from orders where id = ${order.orderId}`,
      );
      expect(after!.status).toBe("pending");
      const [inv] = await rows<{ status: string }>(
        sql`select status from invoices where id = ${order.invoiceId}`,
      );
      expect(inv!.status).toBe("sent");
      const [svc] = await db().select().from(services).where(eq(services.id, service!.id));
      expect(svc!.name).toBe(service!.name);
      expect(await auditFor(order.orderId)).toEqual([]);
      const [msg] = await db().select().from(contactMessages).where(eq(contactMessages.id, message!.id));
      expect(msg!.readAt).toBeNull();
      const replies = await rows(sql`select id from outbox_emails where kind = 'contact-reply'`);
      expect(replies).toHaveLength(0);
    });

    it("lets the admin in: every page renders", async () => {
      const order = await createOrder(db(), clientId);
      for (const path of [
        "/admin/dashboard",
        "/admin/orders",
        `/admin/orders/${order.orderId}`,
        "/admin/invoices",
        `/admin/invoices/${order.invoiceId}`,
        "/admin/messages",
        "/admin/clients",
        `/admin/clients/${clientId}`,
        "/admin/catalogue",
        "/admin/audit",
      ]) {
        const res = await admin.get(path);
        expect(res.status, path).toBe(200);
      }
      expect(location(await admin.get("/admin"))).toBe("/admin/dashboard");
      // Unknown ids are 404s, malformed ones too.
      expect((await admin.get("/admin/orders/00000000-0000-4000-8000-000000000000")).status).toBe(404);
      expect((await admin.get("/admin/orders/not-an-id")).status).toBe(404);
      expect((await admin.get("/admin/clients/no%20such")).status).toBe(404);
    });
  });

  describe("orders", () => {
    it("moves an order pending → paid → in progress → completed with notifications, live events, emails and audit rows", async () => {
      const id = await createAccount(db(), { email: "grace@example.com", name: "Grace Hopper" });
      const order = await createOrder(db(), id);
      const path = `/admin/orders/${order.orderId}`;

      const paid = await admin.post(path, { to: "paid", note: "" });
      expect(paid.status).toBe(200);
      expect(text(await paid.text())).toContain("The order is now paid.");
      // One payment, one notice (ADR 0515); marked paid by the owner, the owner is not told.
      let notes = await notificationsOf(id);
      expect(notes).toEqual([
        {
          title: "Payment Received",
          message: `Payment Confirmed: Invoice ${order.invoiceNumber} has been paid. Your order is being processed.`,
          type: "success",
        },
      ]);
      const [inv] = await rows<{ status: string }>(
        sql`select status from invoices where id = ${order.invoiceId}`,
      );
      expect(inv!.status).toBe("paid");

      expect((await admin.post(path, { to: "in_progress", note: "We start on Monday." })).status).toBe(200);
      const done = await admin.post(path, { to: "completed", note: "" });
      expect(done.status).toBe(200);
      notes = await notificationsOf(id);
      expect(notes.at(-1)).toEqual({
        title: "Order Update",
        message: "Service completed successfully!",
        type: "success",
      });

      const events = await rows<{ kind: string; status: string | null }>(
        sql`select kind, status from live_events where user_id = ${id} order by id`,
      );
      expect(events.filter((e) => e.kind === "order").map((e) => e.status)).toEqual([
        "paid",
        "in_progress",
        "completed",
      ]);
      expect(events.filter((e) => e.kind === "invoice").map((e) => e.status)).toEqual(["paid"]);
      // The payment's one notice and the completion's (ADR 0515).
      expect(events.filter((e) => e.kind === "notification")).toHaveLength(2);

      const emails = await rows<{ subject: string; text: string }>(
        sql`select subject, text from outbox_emails where to_address = 'grace@example.com' and kind = 'order-status' order by created_at`,
      );
      expect(emails).toHaveLength(3);
      expect(emails[1]!.text).toContain("We start on Monday.");
      expect(emails[2]!.text).toContain("Service completed successfully!");

      const audit = await auditFor(order.orderId);
      expect(audit.map((a) => a.action)).toEqual(["order.status", "order.status", "order.status"]);
      expect(audit.map((a) => a.actor_email)).toEqual(Array(3).fill("owner@example.com"));
      expect(audit[0]!.before).toEqual({ status: "pending" });
      expect(audit[1]!.after).toEqual({ status: "in_progress", note: "We start on Monday." });
      expect((await auditFor(order.invoiceId)).map((a) => a.action)).toEqual(["invoice.paid"]);

      // A final status is final; a skipped step is refused; bad input is a 400.
      const again = await admin.post(path, { to: "cancelled", note: "" });
      expect(again.status).toBe(409);
      expect(text(await again.text())).toContain("cannot become cancelled");
      expect((await admin.post(path, { to: "shipped", note: "" })).status).toBe(400);
      expect((await admin.post(path, { to: "paid", note: "x".repeat(2001) })).status).toBe(400);
      expect(await auditFor(order.orderId)).toHaveLength(3);
    });

    it("cancels an order: the spec's notification, its unpaid invoice voided (number kept), an email", async () => {
      const id = await createAccount(db(), { email: "linus@example.com", name: "Linus" });
      const order = await createOrder(db(), id);
      const res = await admin.post(`/admin/orders/${order.orderId}`, {
        to: "cancelled",
        note: "As agreed by phone.",
      });
      expect(res.status).toBe(200);
      expect((await notificationsOf(id)).map((n) => n.message)).toEqual(["Order has been cancelled."]);
      const [inv] = await rows<{ status: string; invoice_number: string }>(
        sql`select status, invoice_number from invoices where id = ${order.invoiceId}`,
      );
      expect(inv).toEqual({ status: "void", invoice_number: order.invoiceNumber });
      const [mail] = await rows<{ text: string }>(
        sql`select text from outbox_emails where to_address = 'linus@example.com' and kind = 'order-status'`,
      );
      expect(mail!.text).toContain("Order has been cancelled.");
      expect(mail!.text).toContain("As agreed by phone.");
      expect((await auditFor(order.invoiceId)).map((a) => a.action)).toEqual(["invoice.void"]);
    });

    it("searches, filters by status and pages in SQL, fast at 10,000 orders", async () => {
      const id = await createAccount(db(), { email: "bulk@example.com", name: "Bulk Buyer" });
      const { orderId } = await createOrder(db(), id);
      await db().execute(sql`
        insert into orders (client_id, service_id, service_name, service_category, package, package_name, quantity,
                            unit_price_usd, amount_usd, currency, amount_in_currency, exchange_rate, status, created_at)
        select client_id, service_id, service_name, service_category, package, package_name, 1, 10, 10, 'USD', 10, 1,
               (array['pending','paid','in_progress','completed','cancelled'])[1 + g % 5],
               now() - (g || ' minutes')::interval
          from orders, generate_series(1, 10000) as g where orders.id = ${orderId}`);
      const started = Date.now();
      const res = await admin.get("/admin/orders?q=bulk%40example.com&status=completed&page=3");
      const html = text(await res.text());
      expect(res.status).toBe(200);
      expect(html).toContain("2000 results · page 3 of 40");
      const search = text(await (await admin.get("/admin/orders?q=bulk%40example")).text());
      expect(search).toContain("10001 results · page 1 of 201");
      const clientsPage = text(await (await admin.get(`/admin/clients/${id}`)).text());
      expect(clientsPage).toContain("Orders (10001)");
      const dashboard = await admin.get("/admin/dashboard");
      expect(dashboard.status).toBe(200);
      // Generous: four pages over 10,000 rows on a shared test machine.
      expect(Date.now() - started).toBeLessThan(10_000);
    });
  });

  describe("invoices", () => {
    it("marks an invoice paid by bank transfer: invoice and order paid, the client told, audit rows", async () => {
      const id = await createAccount(db(), { email: "barbara@example.com", name: "Barbara" });
      const order = await createOrder(db(), id, { dueInDays: -3 });
      const listed = text(await (await admin.get("/admin/invoices?status=overdue")).text());
      expect(listed).toContain(order.invoiceNumber);
      expect(
        (await admin.post(`/admin/invoices/${order.invoiceId}`, { intent: "mark-paid", reference: "" }))
          .status,
      ).toBe(400);
      const res = await admin.post(`/admin/invoices/${order.invoiceId}`, {
        intent: "mark-paid",
        reference: "BANK-2026-77",
      });
      expect(res.status).toBe(200);
      expect(text(await res.text())).toContain(`Invoice ${order.invoiceNumber} is marked paid.`);
      const [inv] = await rows<{ status: string; payment_reference: string }>(
        sql`select status, payment_reference from invoices where id = ${order.invoiceId}`,
      );
      expect(inv).toEqual({ status: "paid", payment_reference: "Bank transfer: BANK-2026-77" });
      const [o] = await rows<{ status: string; provider: string }>(
        sql`select status, provider from orders where id = ${order.orderId}`,
      );
      expect(o).toEqual({ status: "paid", provider: "manual" });
      expect((await notificationsOf(id)).map((n) => n.message)).toContain(
        `Payment Confirmed: Invoice ${order.invoiceNumber} has been paid. Your order is being processed.`,
      );
      expect((await auditFor(order.invoiceId)).map((a) => a.action)).toEqual(["invoice.paid"]);
      expect((await auditFor(order.orderId)).map((a) => a.action)).toEqual(["order.status"]);
      const [mail] = await rows<{ subject: string }>(
        sql`select subject from outbox_emails where to_address = 'barbara@example.com' and kind = 'invoice-paid'`,
      );
      expect(mail!.subject).toContain(order.invoiceNumber);
      // Paying twice is refused.
      expect(
        (await admin.post(`/admin/invoices/${order.invoiceId}`, { intent: "mark-paid", reference: "X-1" }))
          .status,
      ).toBe(409);
    });

    it("writes a EUR amount in its emails and back-office pages as the portal does (1.234,50 €)", async () => {
      const id = await createAccount(db(), { email: "emmy@example.com", name: "Emmy" });
      const inEuro = async () => {
        const order = await createOrder(db(), id);
        await db().execute(
          sql`update orders set currency = 'EUR', amount_in_currency = 1234.5, exchange_rate = 0.92 where id = ${order.orderId}`,
        );
        await db().execute(
          sql`update invoices set currency = 'EUR', subtotal = 1234.5, total_amount = 1234.5, exchange_rate = 0.92 where id = ${order.invoiceId}`,
        );
        return order;
      };
      const page = formatMoney(1234.5, "EUR");
      expect(page).toBe("1.234,50\u00a0€");
      const mail = async (kind: string) => {
        const [row] = await rows<{ text: string; html: string }>(
          sql`select text, html from outbox_emails where to_address = 'emmy@example.com' and kind = ${kind} order by created_at desc limit 1`,
        );
        return row!;
      };

      const resent = await inEuro();
      // The back office's own pages write it the same way.
      for (const path of [`/admin/invoices/${resent.invoiceId}`, `/admin/orders/${resent.orderId}`]) {
        const html = await (await admin.get(path)).text();
        expect(html, path).toContain(page);
        expect(html, path).not.toContain("€1,234.50");
      }
      expect((await admin.post(`/admin/invoices/${resent.invoiceId}`, { intent: "resend" })).status).toBe(
        200,
      );
      expect((await mail("invoice-resend")).text).toContain(
        `Here is invoice ${resent.invoiceNumber} for ${page},`,
      );

      const transfer = await inEuro();
      const paid = await admin.post(`/admin/invoices/${transfer.invoiceId}`, {
        intent: "mark-paid",
        reference: "SEPA-1",
      });
      expect(paid.status).toBe(200);
      const bank = await mail("invoice-paid");
      expect(bank.text).toContain(`We received your bank transfer of ${page} (reference SEPA-1).`);
      expect(bank.html).toContain(page);
      expect(bank.text).not.toContain("€1,234.50");

      const order = await inEuro();
      expect((await admin.post(`/admin/orders/${order.orderId}`, { to: "paid", note: "" })).status).toBe(200);
      expect((await mail("order-status")).text).toContain(`We have received ${page} for `);
    });

    it("resends and voids an invoice; a void invoice keeps its number", async () => {
      const id = await createAccount(db(), { email: "ken@example.com", name: "Ken" });
      const order = await createOrder(db(), id);
      expect((await admin.post(`/admin/invoices/${order.invoiceId}`, { intent: "resend" })).status).toBe(200);
      const voided = await admin.post(`/admin/invoices/${order.invoiceId}`, {
        intent: "void",
        reason: "Duplicate",
      });
      expect(voided.status).toBe(200);
      const [inv] = await rows<{ status: string; invoice_number: string }>(
        sql`select status, invoice_number from invoices where id = ${order.invoiceId}`,
      );
      expect(inv).toEqual({ status: "void", invoice_number: order.invoiceNumber });
      expect((await admin.post(`/admin/invoices/${order.invoiceId}`, { intent: "resend" })).status).toBe(409);
      expect((await admin.post(`/admin/invoices/${order.invoiceId}`, { intent: "nonsense" })).status).toBe(
        400,
      );
      const kinds = await rows<{ kind: string }>(
        sql`select kind from outbox_emails where to_address = 'ken@example.com' order by created_at`,
      );
      expect(kinds.map((k) => k.kind)).toEqual(["invoice-resend", "invoice-void"]);
      expect((await auditFor(order.invoiceId)).map((a) => a.action)).toEqual([
        "invoice.resend",
        "invoice.void",
      ]);
    });
  });

  describe("messages", () => {
    it("shows the inbox with read/unread, marks read and replies by email", async () => {
      const [m] = await db()
        .insert(contactMessages)
        .values({
          name: "Vera",
          email: "vera@example.com",
          subject: "SSL question",
          message: "Do you do wildcards?",
          source: "site",
        })
        .returning();
      const inbox = text(await (await admin.get("/admin/messages?status=unread")).text());
      expect(inbox).toContain("SSL question");
      expect((await admin.post(`/admin/messages/${m!.id}`, { intent: "read" })).status).toBe(200);
      expect(text(await (await admin.get("/admin/messages?status=unread")).text())).not.toContain(
        "SSL question",
      );
      expect(
        (await admin.post(`/admin/messages/${m!.id}`, { intent: "reply", subject: "", body: "x" })).status,
      ).toBe(400);
      const res = await admin.post(`/admin/messages/${m!.id}`, {
        intent: "reply",
        subject: "Re: SSL question",
        body: "Yes, we do wildcard certificates.",
      });
      expect(res.status).toBe(200);
      const [mail] = await rows<{ subject: string; text: string }>(
        sql`select subject, text from outbox_emails where to_address = 'vera@example.com' and kind = 'contact-reply'`,
      );
      expect(mail!.subject).toBe("Re: SSL question");
      expect(mail!.text).toContain("Yes, we do wildcard certificates.");
      expect((await auditFor(m!.id)).map((a) => a.action)).toEqual(["message.read", "message.reply"]);
    });
  });

  describe("catalogue", () => {
    it("saves a price change that the public page shows at once, with a live event and an audit row", async () => {
      const [service] = await db().select().from(services).where(eq(services.slug, "ssl-setup"));
      const s = service!;
      const fields: Record<string, string> = { name: s.name, description: s.description };
      for (const p of s.packageOrder) {
        fields[`price.${p}`] = String(s.pricing[p]);
        fields[`features.${p}`] = (s.features[p] ?? []).join("\n");
      }
      const first = s.packageOrder[0]!;
      const bad = await admin.post(`/admin/catalogue/${s.id}`, { ...fields, [`price.${first}`]: "abc" });
      expect(bad.status).toBe(400);
      expect(text(await bad.text())).toContain("Enter a price in US dollars");
      const res = await admin.post(`/admin/catalogue/${s.id}`, { ...fields, [`price.${first}`]: "1234.5" });
      expect(res.status).toBe(200);
      const page = await (await newSession().get("/services/ssl-setup")).text();
      expect(page).toContain('data-price-usd="1234.5"');
      const [event] = await rows<{ user_id: string | null; entity_id: string }>(
        sql`select user_id, entity_id from live_events where kind = 'catalogue' order by id desc limit 1`,
      );
      expect(event).toEqual({ user_id: null, entity_id: s.id });
      const [audit] = await auditFor(s.id);
      expect(audit!.action).toBe("catalogue.update");
      expect((audit!.before as { pricing: Record<string, number> }).pricing[first]).toBe(s.pricing[first]);
      expect((audit!.after as { pricing: Record<string, number> }).pricing[first]).toBe(1234.5);
      // The audit page lists it.
      expect(text(await (await admin.get("/admin/audit?entity=service")).text())).toContain(
        "catalogue.update",
      );
    });
  });

  describe("admin accounts", () => {
    it("promotes an ADMIN_EMAILS address when it verifies; it lands on the back office", async () => {
      const s = newSession();
      const reg = await s.post("/client/register", {
        name: "Listed",
        email: "listed@example.com",
        password: FIXTURE_PASSWORD,
        confirmPassword: FIXTURE_PASSWORD,
      });
      expect(location(reg)).toBe("/client/verify-email");
      const [mail] = await rows<{ text: string }>(
        sql`select text from outbox_emails where to_address = 'listed@example.com' and kind = 'account-verification'`,
      );
      const link = new URL(mail!.text.match(/https?:\/\/\S+/g)!.find((u) => u.includes("/api/auth/"))!);
      await s.get(`${link.pathname}${link.search}`);
      const [u] = await rows<{ role: string }>(
        sql`select role from "user" where email = 'listed@example.com'`,
      );
      expect(u!.role).toBe("admin");
      const { res } = await signIn("listed@example.com");
      expect(location(res)).toBe("/admin/dashboard");
      const [audit] = await rows<{ action: string; actor_email: string }>(
        sql`select action, actor_email from audit_log where action = 'admin.promote'`,
      );
      expect(audit).toEqual({ action: "admin.promote", actor_email: "ADMIN_EMAILS" });
    });
  });
});
