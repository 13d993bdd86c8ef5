/**
 * The invoice counter's lock: every checkout waits for it until the checkout's transaction ends, so
 * the invoice is made last and the lock is held for as few statements as possible (ADR 0900; under
 * the load test, holding it across nine round trips timed checkouts out with 503s).
 */
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/client.server";
import * as schema from "~/db/schema";
import { priceOrder } from "~/features/orders/pricing";
import { openSeededMemoryDatabase } from "~/features/testing/memory-database.server";
import { createInvoiceForOrder } from "./invoices.server";

const SELLER = {
  name: "Portico",
  legalName: "Portico Ltd",
  address: "1 Main St",
  email: "billing@portico.example",
  phone: "+1 555 0100",
  taxId: "US-12-3456789",
};

describe("createInvoiceForOrder", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openSeededMemoryDatabase();
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
  });

  it("takes the counter's lock only for its last two statements, and makes the invoice and notification", async () => {
    const statements: string[] = [];
    const db = drizzle({
      client: handle.pglite!,
      schema,
      logger: { logQuery: (query) => statements.push(query) },
    }) as unknown as Database;
    await db.insert(schema.user).values({ id: "u1", name: "Ada", email: "ada@example.com" });
    await db.insert(schema.clients).values({
      id: "u1",
      name: "Ada",
      email: "ada@example.com",
      address: "1 Analytical Way, London",
      country: "United Kingdom",
      taxId: "GB123456789",
    });
    const [service] = await db.select().from(schema.services).limit(1);
    const price = priceOrder({ unitPriceUsd: 40, quantity: 2, currency: "USD", rate: 1, taxRatePercent: 0 });
    const invoice = await db.transaction(async (tx) => {
      const [order] = await tx
        .insert(schema.orders)
        .values({
          clientId: "u1",
          serviceId: service!.id,
          serviceName: service!.name,
          serviceCategory: service!.category,
          package: "basic",
          packageName: "Basic",
          quantity: 2,
          unitPriceUsd: price.unitPriceUsd,
          amountUsd: price.amountUsd,
          currency: "USD",
          amountInCurrency: price.subtotal,
          exchangeRate: 1,
        })
        .returning();
      statements.length = 0;
      return createInvoiceForOrder(tx, { order: order!, price, dueDays: 7, seller: SELLER });
    });

    const counter = statements.findIndex((s) => s.includes('"invoice_counters"'));
    expect(counter).toBeGreaterThan(0);
    const afterLock = statements.slice(counter + 1);
    expect(afterLock).toHaveLength(2);
    expect(afterLock[0]).toMatch(/^insert into "invoices"/);
    expect(afterLock[1]).toMatch(/^insert into "notifications"/);

    // And what it made is whole: the invoice, its notification, and live events naming both.
    expect(invoice.invoiceNumber).toMatch(/^INV-\d{4}-0001$/);
    // The buyer (read in the transaction, before the lock) and the seller, frozen on the row (ADR 0504).
    expect(invoice.buyer).toEqual({
      name: "Ada",
      email: "ada@example.com",
      company: null,
      address: "1 Analytical Way, London",
      country: "United Kingdom",
      taxId: "GB123456789",
      phone: null,
      countryCode: null,
      reference: null,
    });
    expect(invoice.seller).toEqual(SELLER);
    const [note] = await db.select().from(schema.notifications);
    expect(note).toMatchObject({
      title: "New Invoice",
      message: `Invoice ${invoice.invoiceNumber} has been created.`,
      href: `/client/invoice/${invoice.id}`,
    });
    // (Seeding the fresh database announced its catalogue: not this function's.)
    const events = (await db.select().from(schema.liveEvents)).filter((e) => e.kind !== "catalogue");
    expect(events.map((e) => [e.kind, e.entityId]).sort()).toEqual(
      [
        ["invoice", invoice.id],
        ["notification", note!.id],
      ].sort(),
    );
  });

  it("an issued invoice keeps its amounts, rates, number and copies: the database refuses the update", async () => {
    const db = handle.db;
    const [invoice] = await db.select().from(schema.invoices).limit(1);
    expect(invoice!.buyer).not.toBeNull();
    const refused = async (set: Partial<typeof schema.invoices.$inferInsert>) => {
      const error = await db
        .update(schema.invoices)
        .set(set)
        .where(eq(schema.invoices.id, invoice!.id))
        .then(() => null)
        .catch((e: unknown) => e);
      expect(String((error as { cause?: unknown })?.cause ?? error)).toMatch(
        /was issued and cannot be changed/,
      );
    };
    await refused({ totalAmount: 1 });
    await refused({ subtotal: 1, taxAmount: 0 });
    await refused({ taxRatePercent: 20 });
    await refused({ exchangeRate: 2 });
    await refused({ currency: "EUR" });
    await refused({ invoiceNumber: "INV-1999-0001" });
    await refused({ buyer: { ...invoice!.buyer!, address: "Elsewhere" } });
    await refused({ seller: null });
    // Its status, payment and reminder change as before (paid, void, overdue).
    await db
      .update(schema.invoices)
      .set({ status: "paid", paidAt: new Date(), paymentReference: "ref-1", overdueNotifiedAt: new Date() })
      .where(eq(schema.invoices.id, invoice!.id));
    const [after] = await db.select().from(schema.invoices).where(eq(schema.invoices.id, invoice!.id));
    expect(after).toMatchObject({ status: "paid", totalAmount: invoice!.totalAmount, buyer: invoice!.buyer });
  });
});
