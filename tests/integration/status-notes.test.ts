/**
 * Issue 37 through the built server: the owner's note with a status change reaches the client's order
 * page (under that step of the timeline, escaped, with the live event that makes an open page read it
 * again) and no other client; and a new client's first steps: "Welcome" rather than "Welcome back", no
 * "Premium Client", and an empty Recent Orders that offers Purchase Services.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsOn } from "../support/accounts";
import { createOrder, type FixtureOrder } from "../support/admin-fixtures";
import { type Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { EventReader, openEvents } from "../support/portal";
import { startTestServer, type TestServer } from "../support/server";

const NOTE = 'DNS is switched <b>tonight</b> & "mail" may pause.';

describe.each(testDatabases)("status notes and first steps on $name", (database) => {
  let server: TestServer;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.102.${n}`,
  );
  let admin: Session;
  let ada: { id: string; session: Session };
  let bo: { id: string; session: Session };
  let order: FixtureOrder;

  const html = async (session: Session, path: string, status = 200) => {
    const res = await session.get(path);
    expect(res.status, path).toBe(status);
    return res.text();
  };

  /** The rendered page, without the data it hydrates from. */
  const markup = (page: string) => page.slice(0, page.indexOf("<script"));
  /** The dashboard's Recent Orders card. */
  const recentOrders = (page: string) =>
    page.slice(page.indexOf('id="recent-orders-heading"'), page.indexOf('id="quick-actions-heading"'));

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
    ({ session: admin } = await signedIn({ email: "owner.notes@example.com", name: "Owner", role: "admin" }));
    ada = await signedIn({ email: "ada.notes@example.com", name: "Ada Notes" });
    bo = await signedIn({ email: "bo.notes@example.com", name: "Bo Notes" });
    order = await createOrder(db(), ada.id, { status: "paid" });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("shows the owner's note under its step on the client's order page, escaped, and to no one else", async () => {
    const path = `/client/orders/${order.orderId}`;
    expect(await html(ada.session, path)).not.toContain("DNS is switched");

    const events = new EventReader(await openEvents(server.url, ada.session));
    try {
      const moved = await admin.post(`/admin/orders/${order.orderId}`, {
        intent: "transition",
        to: "in_progress",
        note: `  ${NOTE}  `,
      });
      expect(moved.status).toBe(200);
      // The client's open page is told, and reads the page (with the note) again.
      await events.until(
        () => events.data().some((e) => e.kind === "order" && e.entityId === order.orderId),
        "the order event",
      );
    } finally {
      await events.close();
    }

    const page = await html(ada.session, path);
    // Under the "In progress" step (the next step's item starts after it), as text: never markup.
    const step = page.slice(page.indexOf('data-step="in_progress"'), page.indexOf('data-step="completed"'));
    expect(step).toContain("DNS is switched &lt;b&gt;tonight&lt;/b&gt; &amp; &quot;mail&quot; may pause.");
    expect(page).not.toContain("<b>tonight</b>");
    // Only one step carries it (the markup, before the page's data for hydration).
    expect(markup(page).match(/DNS is switched/g)).toHaveLength(1);
    // The owner's timeline shows what the client was told.
    expect(await html(admin, `/admin/orders/${order.orderId}`)).toContain("DNS is switched &lt;b&gt;");

    // Another client: the order is not found, and the note is on none of their pages.
    const theirs = await html(bo.session, path, 404);
    expect(theirs).not.toContain("DNS is switched");
    for (const other of ["/client/dashboard", "/client/orders"]) {
      expect(await html(bo.session, other), other).not.toContain("DNS is switched");
    }
  });

  it("a change without a note adds none; a later note for a step replaces nothing else", async () => {
    const moved = await admin.post(`/admin/orders/${order.orderId}`, {
      intent: "transition",
      to: "completed",
      note: "",
    });
    expect(moved.status).toBe(200);
    const page = await html(ada.session, `/client/orders/${order.orderId}`);
    const completed = page.slice(page.indexOf('data-step="completed"'));
    expect(completed).not.toContain("Note:");
    expect(markup(page).match(/DNS is switched/g)).toHaveLength(1);
  });

  it("greets a new client with Welcome, offers Purchase Services, and labels no one Premium Client", async () => {
    const carl = await signedIn({ email: "carl.new@example.com", name: "Carl New" });
    const fresh = text(await html(carl.session, "/client/dashboard"));
    expect(fresh).toContain("Welcome, Carl New!");
    expect(fresh).not.toContain("Welcome back");
    expect(fresh).not.toContain("Premium Client");
    expect(fresh).toMatch(/Client since [A-Z][a-z]+ \d{4}/);
    const recent = recentOrders(fresh);
    expect(recent).toContain("No recent orders");
    expect(recent).toMatch(/<a[^>]*href="\/client\/services"[^>]*>(<svg.*?<\/svg>)?Purchase Services<\/a>/);

    // A client with an order is welcomed back, and their Recent Orders lists it instead.
    const known = text(await html(ada.session, "/client/dashboard"));
    expect(known).toContain("Welcome back, Ada Notes!");
    expect(known).not.toContain("Premium Client");
    expect(known).toMatch(/Client since [A-Z][a-z]+ \d{4}/);
    expect(recentOrders(known)).not.toContain("No recent orders");
    expect(recentOrders(known)).not.toContain("Purchase Services");
    expect(recentOrders(known)).toContain(`href="/client/orders/${order.orderId}"`);
  });
});
