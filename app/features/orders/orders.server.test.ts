/** checkout and payInvoice: the server prices, stores, then calls the provider, within the checkout budget. */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/client.server";
import { clients, invoices, orders, services, user } from "~/db/schema";
import { type PaymentProvider, PaymentProviderError } from "~/features/payments/provider";
import {
  openSeededMemoryDatabase,
  TEST_BUSINESS,
  TEST_PUBLIC_URL,
} from "~/features/testing/memory-database.server";
import { savedCardsNotUsed } from "../../../tests/support/saved-card-stubs";
import { CHECKOUTS_PER_HOUR } from "./checkout-limit.server";
import type { CheckoutRequest } from "./checkout-provider";
import { SERVICE_NOT_FOUND, TOO_MANY_ORDERS, TOO_MANY_PAYMENTS } from "./messages";
import { checkout, newCheckoutToken, type OrderDeps, payInvoice } from "./orders.server";
import { recordPayment } from "./payment.server";

/** A provider that records what it is asked, and fails when told to. */
function fakeProvider() {
  const calls: CheckoutRequest[] = [];
  const state = { failure: null as string | null };
  const active: PaymentProvider = {
    ...savedCardsNotUsed,
    name: "sandbox",
    async createCheckout(request) {
      calls.push(request);
      if (state.failure) throw new PaymentProviderError(state.failure);
      return { url: `https://pay.example/${request.idempotencyKey}`, reference: `cs_${calls.length}` };
    },
    async retrieveCheckout() {
      return { status: "unknown", amount: null, currency: null };
    },
    async expireCheckout() {
      throw new Error("not used here");
    },
    async refund() {
      throw new Error("not used here");
    },
    verifyWebhook() {
      throw new Error("not used here");
    },
  };
  return { calls, state, providers: { active, sandbox: null, forWebhook: () => null } };
}

describe("checkout and Pay Now", () => {
  let handle: DatabaseHandle;
  let db: Database;
  let provider: ReturnType<typeof fakeProvider>;
  let deps: OrderDeps;
  let n = 0;
  beforeAll(async () => {
    handle = await openSeededMemoryDatabase();
    db = handle.db;
    provider = fakeProvider();
    const quiet = () => {};
    deps = {
      db,
      config: {
        publicUrl: TEST_PUBLIC_URL,
        invoices: { taxRatePercent: 0, dueDays: 14 },
        business: TEST_BUSINESS,
      },
      providers: provider.providers,
      rates: async () => ({ USD: 1, EUR: 0.5 }),
      logger: { info: quiet, warn: quiet, error: quiet },
    };
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
  });

  async function newClient() {
    const id = `buyer-${++n}`;
    const email = `${id}@example.com`;
    await db.insert(user).values({ id, name: "Ada", email });
    await db.insert(clients).values({ id, name: "Ada", email });
    return { id, email };
  }
  const buy = (client: { id: string; email: string }, fields: Partial<Parameters<typeof checkout>[1]> = {}) =>
    checkout(deps, {
      client,
      serviceRouteId: "email-migration",
      packageKey: "basic",
      quantity: "20",
      currency: "USD",
      checkoutToken: newCheckoutToken(),
      ...fields,
    });
  const ordersOf = (clientId: string) => db.select().from(orders).where(eq(orders.clientId, clientId));
  const invoicesOf = (clientId: string) => db.select().from(invoices).where(eq(invoices.clientId, clientId));

  it("prices on the server, stores a pending order and its sent invoice, then asks the provider", async () => {
    const client = await newClient();
    const before = provider.calls.length;
    const outcome = await buy(client, { currency: "EUR" });
    expect(outcome.ok).toBe(true);
    const [order] = await ordersOf(client.id);
    const [invoice] = await invoicesOf(client.id);
    expect(order).toMatchObject({ status: "pending", amountUsd: 80, currency: "EUR", amountInCurrency: 40 });
    expect(invoice).toMatchObject({ status: "sent", orderId: order!.id, totalAmount: 40, currency: "EUR" });
    expect(provider.calls.slice(before)).toEqual([
      expect.objectContaining({
        orderId: order!.id,
        invoiceId: invoice!.id,
        invoiceNumber: invoice!.invoiceNumber,
        amount: 40,
        currency: "EUR",
        customerEmail: client.email,
        idempotencyKey: order!.id,
      }),
    ]);
    expect(outcome).toMatchObject({ redirectTo: `https://pay.example/${order!.id}`, orderId: order!.id });
    expect(order!.providerReference).toBe(`cs_${provider.calls.length}`);
  });

  it("makes one order of a form posted twice, and refuses what cannot be bought without calling the provider", async () => {
    const client = await newClient();
    const checkoutToken = newCheckoutToken();
    const first = await buy(client, { checkoutToken });
    const second = await buy(client, { checkoutToken });
    expect(second).toMatchObject({ ok: true, orderId: first.ok ? first.orderId : "" });
    expect(await ordersOf(client.id)).toHaveLength(1);

    const before = provider.calls.length;
    expect(await buy(client, { serviceRouteId: "no-such-service" })).toEqual({
      ok: false,
      status: 404,
      error: SERVICE_NOT_FOUND("no-such-service"),
    });
    expect(await buy(client, { quantity: "0" })).toMatchObject({ ok: false, status: 400 });
    expect(await buy(client, { packageKey: "platinum" })).toMatchObject({ ok: false, status: 400 });
    expect(await buy(client, { packageKey: "constructor" })).toMatchObject({ ok: false, status: 400 });
    expect(provider.calls.length).toBe(before);
    expect(await ordersOf(client.id)).toHaveLength(1);
  });

  it("sells only a package the service offers: a price outside its packageOrder is not for sale", async () => {
    const client = await newClient();
    const [service] = await db.select().from(services).where(eq(services.slug, "email-migration"));
    await db
      .update(services)
      .set({ pricing: { ...service!.pricing, premium: 1 } })
      .where(eq(services.id, service!.id));
    try {
      expect(await buy(client, { packageKey: "premium" })).toEqual({
        ok: false,
        status: 400,
        error: 'This service has no package "premium".',
      });
    } finally {
      await db.update(services).set({ pricing: service!.pricing }).where(eq(services.id, service!.id));
    }
    expect(await ordersOf(client.id)).toHaveLength(0);
  });

  it("keeps the order pending when the provider fails, and says why", async () => {
    const client = await newClient();
    provider.state.failure = "the card network is down";
    try {
      const outcome = await buy(client);
      expect(outcome).toMatchObject({
        ok: false,
        status: 502,
        error: "Failed to create payment: the card network is down",
      });
    } finally {
      provider.state.failure = null;
    }
    expect((await ordersOf(client.id)).map((o) => o.status)).toEqual(["pending"]);
    expect((await invoicesOf(client.id)).map((i) => i.status)).toEqual(["sent"]);
  });

  it("Pay Now makes a new checkout for the same invoice; 404 for another's, 409 once paid", async () => {
    const ada = await newClient();
    const bob = await newClient();
    await buy(ada);
    const [invoice] = await invoicesOf(ada.id);
    const [order] = await ordersOf(ada.id);

    const payNow = await payInvoice(deps, { client: ada, invoiceId: invoice!.id });
    expect(payNow.ok).toBe(true);
    expect(provider.calls.at(-1)).toMatchObject({
      invoiceId: invoice!.id,
      amount: 80,
      idempotencyKey: expect.stringMatching(new RegExp(`^${order!.id}:pay:\\d+$`)),
    });
    expect(await invoicesOf(ada.id)).toHaveLength(1);
    expect(await payInvoice(deps, { client: bob, invoiceId: invoice!.id })).toMatchObject({ status: 404 });
    expect(await payInvoice(deps, { client: ada, invoiceId: "not-an-id" })).toMatchObject({ status: 404 });

    await db.transaction((tx) =>
      recordPayment(tx, order!, invoice!, { provider: "sandbox", reference: "x" }),
    );
    const before = provider.calls.length;
    expect(await payInvoice(deps, { client: ada, invoiceId: invoice!.id })).toEqual({
      ok: false,
      status: 409,
      error: `Invoice ${invoice!.invoiceNumber} cannot be paid: it is already paid.`,
    });
    expect(provider.calls.length).toBe(before);
  });

  it("limits provider checkouts per client: purchases and Pay Now draw on one hourly budget", async () => {
    const client = await newClient();
    const other = await newClient();
    expect((await buy(client)).ok).toBe(true);
    const [invoice] = await invoicesOf(client.id);
    for (let i = 1; i < CHECKOUTS_PER_HOUR; i++) {
      expect((await payInvoice(deps, { client, invoiceId: invoice!.id })).ok).toBe(true);
    }
    const before = provider.calls.length;
    expect(await payInvoice(deps, { client, invoiceId: invoice!.id })).toEqual({
      ok: false,
      status: 429,
      error: TOO_MANY_PAYMENTS,
    });
    expect(await buy(client)).toEqual({ ok: false, status: 429, error: TOO_MANY_ORDERS });
    expect(provider.calls.length).toBe(before);
    expect(await ordersOf(client.id)).toHaveLength(1);
    // Another client's budget is their own.
    expect((await buy(other)).ok).toBe(true);
  });
});
