/**
 * Issue 37, item 8: the back office reads like a product. Through the real HTTP server: the order's
 * history and the audit log as plain sentences with formatted dates (no raw JSON, no ISO dates), the
 * statuses in the client's words, the amount without a USD part for a USD order, one unread-messages
 * count for the sidebar and the dashboard, recent sign-ups without deleted clients, and a deleted
 * client's order without a reply box, whose reply post is refused (409).
 */
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { clients, contactMessages, user } from "~/db/schema";
import { postMessage } from "~/features/orders/conversation.server";
import { accountsOn } from "../support/accounts";
import { createAccount, createOrder } from "../support/admin-fixtures";
import { type Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

/** The page's words, without tags (nor the hydration data's scripts). */
const words = (html: string) =>
  text(html.replace(/<script\b[\s\S]*?<\/script>/g, " ").replace(/<[^>]*>/g, " "))
    .replace(/\s+/g, " ")
    .trim();

const FORMATTED = /[A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d UTC/;

describe.each(testDatabases)("the back office's words on $name", (database) => {
  let server: TestServer;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.103.${n}`,
  );
  let admin: Session;
  const unique = () => randomUUID().slice(0, 8);

  async function client(name = "Grace Wording") {
    return createAccount(db(), { email: `grace.${unique()}@example.com`, name });
  }

  /** Deletes the account's identity as ADR 0520 leaves it (the rows stay, marked deleted). */
  async function markDeleted(id: string) {
    const email = `deleted-${id}@deleted.invalid`;
    await db().update(user).set({ name: "Deleted client", email }).where(eq(user.id, id));
    await db()
      .update(clients)
      .set({ name: "Deleted client", email, deletedAt: new Date() })
      .where(eq(clients.id, id));
  }

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
    ({ session: admin } = await signedIn({
      email: `owner.wording.${unique()}@example.com`,
      name: "Owner",
      role: "admin",
    }));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("writes the order's history and the audit log as sentences with formatted dates, statuses in the client's words", async () => {
    const order = await createOrder(db(), await client(), { status: "paid" });
    const moved = await admin.post(`/admin/orders/${order.orderId}`, {
      intent: "transition",
      to: "in_progress",
      note: 'Starting Monday with the "DNS" records',
    });
    expect(moved.status).toBe(200);

    const page = await (await admin.get(`/admin/orders/${order.orderId}`)).text();
    const history = [...page.matchAll(/<li[^>]*data-testid="history-entry"[^>]*>([\s\S]*?)<\/li>/g)].map(
      (m) => words(m[1]!),
    );
    expect(history).toHaveLength(1);
    expect(history[0]).toMatch(FORMATTED);
    expect(history[0]).toContain(
      'Status changed from Paid to In Progress — note: Starting Monday with the "DNS" records',
    );
    expect(history[0]).not.toContain("order.status");
    expect(page).not.toContain("{&quot;");
    // The badge says what the client's page says.
    expect(page).toMatch(/data-status="in_progress"[^>]*>In Progress</);
    expect(page).not.toMatch(/data-status="[a-z_]+"[^>]*>[a-z]/);
    // A USD order: its amount once, no "($10.00 at 1)".
    expect(words(page)).not.toMatch(/Amount \$[\d.,]+ \(\$[\d.,]+ at 1\)/);

    const audit = words(await (await admin.get(`/admin/audit?q=${order.orderId}`)).text());
    expect(audit).toContain(
      'Status changed from Paid to In Progress — note: Starting Monday with the "DNS" records',
    );
    expect(audit).toMatch(FORMATTED);
    expect(audit).not.toMatch(/\d{4}-\d\d-\d\d/);
    expect(audit).not.toContain("order.status");
  });

  it("counts unread messages once: the sidebar's badge and the dashboard's card say the same number", async () => {
    const id = await client();
    const order = await createOrder(db(), id, { status: "paid" });
    const sent = await postMessage(
      { db: db(), config: server.portico.runtime.config },
      { author: { id, role: "client" }, orderId: order.orderId, body: "Any news?" },
    );
    expect(sent.ok).toBe(true);
    await db()
      .insert(contactMessages)
      .values({
        name: "Visitor",
        email: `visitor.${unique()}@example.com`,
        subject: "Hello",
        message: "A question about hosting.",
        source: "site",
      });

    const html = await (await admin.get("/admin/dashboard")).text();
    const sidebar = html.match(/>(\d+)<span class="sr-only"> unread<\/span>/)?.[1];
    const card = html.match(/Unread messages<\/p><p[^>]*>(\d+)<\/p>/)?.[1];
    expect(sidebar).toBeDefined();
    expect(card).toBe(sidebar);
    const [counted] = await queryRows<{ n: number }>(
      db(),
      sql`select ((select count(*) from contact_messages where read_at is null)
                + (select count(*) from order_messages where author_role = 'client' and read_at is null))::int as n`,
    );
    expect(Number(card)).toBe(counted!.n);
  });

  it("lists recent sign-ups without deleted clients", async () => {
    const gone = await client("Gone Soon");
    const stays = await client("Still Here");
    await markDeleted(gone);

    const html = await (await admin.get("/admin/dashboard")).text();
    const signups = html.slice(html.indexOf("Recent sign-ups"));
    expect(signups).toContain(`/admin/clients/${stays}`);
    expect(signups).not.toContain(`/admin/clients/${gone}`);
    expect(words(signups)).not.toContain("Deleted client");
  });

  it("offers no reply box on a deleted client's order, and refuses a reply posted to it", async () => {
    const id = await client();
    const order = await createOrder(db(), id, { status: "completed" });
    await markDeleted(id);

    const page = await (await admin.get(`/admin/orders/${order.orderId}`)).text();
    expect(page).not.toContain('name="body"');
    expect(words(page)).toContain(
      "This client deleted their account, so there is no one to send a reply to.",
    );

    const form = new FormData();
    form.set("intent", "message");
    form.set("body", "Are you still there?");
    const res = await fetch(new URL(`/admin/orders/${order.orderId}`, server.url), {
      method: "POST",
      redirect: "manual",
      body: form,
      headers: {
        cookie: admin.cookieHeader,
        origin: new URL(server.url).origin,
        "x-forwarded-for": "198.51.103.99",
      },
    });
    expect(res.status).toBe(409);
    expect(words(await res.text())).toContain(
      "This client deleted their account, so there is no one to send a reply to.",
    );
    const [row] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from order_messages where order_id = ${order.orderId}`,
    );
    expect(row!.n).toBe(0);
  });
});
