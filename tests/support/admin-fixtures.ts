/**
 * Test data for the back office, written straight into a database (the tests' own Drizzle handle):
 * accounts with a password, and orders with their invoice, as the purchase flow would make them.
 */
import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { asc, sql } from "drizzle-orm";
import { type Database, queryRows } from "~/db/client.server";
import { account, clients, invoices, type OrderStatus, orders, services, user } from "~/db/schema";

export const FIXTURE_PASSWORD = "Str0ng!Passw0rd";

/** A verified account (client by default) that can sign in with FIXTURE_PASSWORD. */
export async function createAccount(
  db: Database,
  input: { email: string; name: string; role?: "client" | "admin"; verified?: boolean },
): Promise<string> {
  const id = randomUUID().replace(/-/g, "");
  const verified = input.verified ?? true;
  await db.insert(user).values({
    id,
    name: input.name,
    email: input.email,
    emailVerified: verified,
    role: input.role ?? "client",
  });
  await db.insert(account).values({
    id: randomUUID(),
    accountId: id,
    providerId: "credential",
    userId: id,
    password: await hashPassword(FIXTURE_PASSWORD),
  });
  if (verified && (input.role ?? "client") === "client") {
    await db.insert(clients).values({
      id,
      name: input.name,
      email: input.email,
      emailVerified: true,
      emailVerifiedAt: new Date(),
    });
  }
  return id;
}

export interface FixtureOrder {
  orderId: string;
  invoiceId: string;
  invoiceNumber: string;
}

/** An order of the first catalogue service with its invoice (sent, due in `dueInDays`). */
export async function createOrder(
  db: Database,
  clientId: string,
  options: { status?: OrderStatus; amountUsd?: number; dueInDays?: number; serviceSlug?: string } = {},
): Promise<FixtureOrder> {
  const [service] = options.serviceSlug
    ? await db.select().from(services).where(sql`${services.slug} = ${options.serviceSlug}`)
    : await db.select().from(services).orderBy(asc(services.sortOrder)).limit(1);
  const pkg = service!.packageOrder[0]!;
  const amount = options.amountUsd ?? service!.pricing[pkg]!;
  const status = options.status ?? "pending";
  const [order] = await db
    .insert(orders)
    .values({
      clientId,
      serviceId: service!.id,
      serviceName: service!.name,
      serviceCategory: service!.category,
      package: pkg,
      packageName: service!.packageNames[pkg] ?? pkg,
      quantity: 1,
      unitPriceUsd: amount,
      amountUsd: amount,
      currency: "USD",
      amountInCurrency: amount,
      exchangeRate: 1,
      status,
      paidAt: status === "pending" ? null : new Date(),
    })
    .returning({ id: orders.id });
  const year = new Date().getUTCFullYear();
  const [counter] = await queryRows<{ last_seq: number }>(
    db,
    sql`insert into invoice_counters (year, last_seq) values (${year}, 1)
        on conflict (year) do update set last_seq = invoice_counters.last_seq + 1 returning last_seq`,
  );
  const seq = counter!.last_seq;
  const invoiceNumber = `INV-${year}-${String(seq).padStart(4, "0")}`;
  const [invoice] = await db
    .insert(invoices)
    .values({
      invoiceNumber,
      invoiceYear: year,
      invoiceSeq: seq,
      clientId,
      orderId: order!.id,
      status: status === "pending" ? "sent" : status === "cancelled" ? "void" : "paid",
      currency: "USD",
      subtotal: amount,
      totalAmount: amount,
      amountUsd: amount,
      exchangeRate: 1,
      dueDate: new Date(Date.now() + (options.dueInDays ?? 14) * 86_400_000),
      paidAt: status === "pending" || status === "cancelled" ? null : new Date(),
    })
    .returning({ id: invoices.id });
  return { orderId: order!.id, invoiceId: invoice!.id, invoiceNumber };
}
