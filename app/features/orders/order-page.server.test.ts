/** The order page's data on a real database (PGlite, and PostgreSQL with TEST_DATABASE_URL). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/client.server";
import { clients, user } from "~/db/schema";
import { changeOrderStatus, makeOrders } from "~/features/testing/fixtures.server";
import { openSeededTestDatabase, TEST_DATABASE_KINDS } from "~/features/testing/test-databases.server";
import type { Viewer } from "./order-access.server";
import { getClientOrder, getOrderPage } from "./order-page.server";

describe.each(TEST_DATABASE_KINDS)("order page on %s", (kind) => {
  let handle: DatabaseHandle;
  let db: Database;
  let n = 0;
  const owner: Viewer = { id: `page-owner-${kind}`, role: "admin" };

  beforeAll(async () => {
    handle = await openSeededTestDatabase(kind);
    db = handle.db;
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
  });

  async function aClient(name = "Grace Hopper") {
    const id = `page-${kind}-${++n}`;
    await db.insert(user).values({ id, name, email: `${id}@example.com` });
    await db.insert(clients).values({ id, name, email: `${id}@example.com` });
    return id;
  }
  async function anOrder(clientId: string, options: Parameters<typeof makeOrders>[2] = {}) {
    const [made] = await makeOrders(db, clientId, { serviceSlug: "per-incident-support", ...options });
    return made!;
  }

  it("gives the client their order page: what was bought, the invoice link, the timeline; null for anyone else's", async () => {
    const grace = await aClient();
    const eve = await aClient("Eve");
    const { orderId, invoiceId, invoiceNumber } = await anOrder(grace, {
      amountUsd: 40,
      currency: "EUR",
      rate: 0.5,
    });
    await changeOrderStatus(db, grace, orderId, "paid");
    await changeOrderStatus(db, grace, orderId, "in_progress");
    const page = await getClientOrder(db, grace, orderId);
    expect(page).toMatchObject({
      order: {
        id: orderId,
        serviceName: "Per Incident Support",
        packageName: "Per Incident",
        quantity: 1,
        amountUsd: 40,
        currency: "EUR",
        amountInCurrency: 20,
        status: "in_progress",
      },
      serviceSlug: "per-incident-support",
      invoice: { id: invoiceId, invoiceNumber, status: "paid", href: `/client/invoice/${invoiceId}` },
      brief: { state: "missing", badge: "Waiting for your details" },
      conversation: { open: true },
    });
    expect(page!.timeline.map((s) => [s.key, s.state, s.at instanceof Date])).toEqual([
      ["placed", "done", true],
      ["paid", "done", true],
      ["in_progress", "done", true],
      ["completed", "upcoming", false],
    ]);
    expect((await getOrderPage(db, owner, orderId))!.invoice!.href).toBe(`/admin/invoices/${invoiceId}`);
    expect(await getClientOrder(db, eve, orderId)).toBeNull();
    expect(await getClientOrder(db, grace, "../orders")).toBeNull();
  });
});
