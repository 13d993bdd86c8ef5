/**
 * Orders and invoices made directly in the database, for tests (integration tests call it; browser tests
 * reach it through /api/test-hooks/*, served only with TEST_HOOKS=true). The real purchase flow makes them
 * through checkout; these rows have the same shape, with invoice numbers from the same counter.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, type OrderStatus, orders, services } from "~/db/schema";
import { clientInvoicePath } from "~/features/invoices/invoice-paths";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { NOTIFICATIONS } from "~/features/notifications/messages";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { clientOrderPath } from "~/features/orders/order-access.server";
import { reachedAt } from "~/features/orders/order-timeline";

export interface FixtureOrder {
  orderId: string;
  invoiceId: string;
  invoiceNumber: string;
}

export interface MakeOrdersOptions {
  count?: number;
  status?: OrderStatus;
  currency?: string;
  /** Units of `currency` per USD. */
  rate?: number;
  amountUsd?: number;
  /** Service slug; default the first service. */
  serviceSlug?: string;
  package?: string;
  /** Days until the invoice is due (negative: already past due). */
  dueInDays?: number;
  /** Raise the 'New Invoice' notification and live events, as checkout does. */
  announce?: boolean;
  /** When the last order was placed (ISO 8601; the others a second apart before it); default now. */
  placedAt?: string;
}

/** Makes `count` orders with one invoice each for a client, in one transaction (set-based SQL). */
export async function makeOrders(
  db: Database,
  clientId: string,
  options: MakeOrdersOptions = {},
): Promise<FixtureOrder[]> {
  const count = options.count ?? 1;
  const status = options.status ?? "pending";
  const currency = options.currency ?? "USD";
  const rate = options.rate ?? 1;
  const amountUsd = options.amountUsd ?? 25;
  const amountInCurrency = Math.round(amountUsd * rate * 100) / 100;
  const invoiceStatus =
    status === "paid" || status === "completed" || status === "in_progress"
      ? "paid"
      : status === "cancelled"
        ? "void"
        : "sent";
  const dueInDays = options.dueInDays ?? 14;
  return db.transaction(async (tx) => {
    const [service] = await tx
      .select()
      .from(services)
      .where(options.serviceSlug ? eq(services.slug, options.serviceSlug) : sql`true`)
      .orderBy(services.sortOrder)
      .limit(1);
    if (!service) throw new Error("no service to order");
    const pkg =
      options.package ?? (("basic" in service.pricing ? "basic" : service.packageOrder[0]) as string);
    const year = new Date().getUTCFullYear();
    const counter = (await tx.execute(sql`
      insert into invoice_counters (year, last_seq) values (${year}, ${count})
      on conflict (year) do update set last_seq = invoice_counters.last_seq + ${count}
      returning last_seq`)) as unknown as { rows: Array<{ last_seq: number }> };
    const firstSeq = Number(counter.rows[0]!.last_seq) - count + 1;
    // Created one second apart, newest last, so "newest first" is well defined.
    const made = (await tx.execute(sql`
      with made as (
        insert into orders (client_id, service_id, service_name, service_category, package, package_name,
          quantity, unit_price_usd, amount_usd, currency, amount_in_currency, exchange_rate, status, provider,
          paid_at, started_at, completed_at, cancelled_at, created_at, updated_at)
        select ${clientId}, ${service.id}, ${service.name}, ${service.category}, ${pkg},
          ${service.packageNames[pkg] ?? pkg}, 1, ${amountUsd}, ${amountUsd}, ${currency}, ${amountInCurrency},
          ${rate}, ${status}, 'sandbox',
          case when ${invoiceStatus} = 'paid' then now() else null end,
          case when ${status} in ('in_progress', 'completed') then now() else null end,
          case when ${status} = 'completed' then now() else null end,
          case when ${status} = 'cancelled' then now() else null end,
          coalesce(${options.placedAt ?? null}::timestamptz, now()) - make_interval(secs => ${count} - g), now()
        from generate_series(1, ${count}) g
        returning id, created_at
      ), numbered as (
        select id, created_at, row_number() over (order by created_at, id) as n from made
      )
      insert into invoices (invoice_number, invoice_year, invoice_seq, client_id, order_id, status, currency,
        subtotal, tax_amount, total_amount, amount_usd, exchange_rate, due_date, paid_at, created_at, updated_at)
      select 'INV-' || ${year} || '-' || lpad((${firstSeq} + n - 1)::text, greatest(4, length((${firstSeq} + n - 1)::text)), '0'), ${year}, ${firstSeq} + n - 1,
        ${clientId}, id, ${invoiceStatus}, ${currency}, ${amountInCurrency}, 0, ${amountInCurrency}, ${amountUsd},
        ${rate}, created_at + make_interval(days => ${dueInDays}),
        case when ${invoiceStatus} = 'paid' then now() else null end, created_at, now()
      from numbered
      returning id as invoice_id, order_id, invoice_number`)) as unknown as {
      rows: Array<{ invoice_id: string; order_id: string; invoice_number: string }>;
    };
    const result = made.rows.map((r) => ({
      orderId: r.order_id,
      invoiceId: r.invoice_id,
      invoiceNumber: r.invoice_number,
    }));
    if (options.announce) {
      for (const r of result) {
        await publishLiveEvent(tx, { userId: clientId, kind: "order", entityId: r.orderId, status });
        await raiseNotification(tx, clientId, {
          ...NOTIFICATIONS.newInvoice(r.invoiceNumber),
          href: clientInvoicePath(r.invoiceId),
        });
      }
    }
    return result;
  });
}

/**
 * Changes an order's status as the payment webhook and the back office do: invoice paid with it, the
 * spec's notifications raised, live events published, all in one transaction. Scoped by client.
 */
export async function changeOrderStatus(
  db: Database,
  clientId: string,
  orderId: string,
  status: OrderStatus,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .update(orders)
      .set({
        status,
        ...(status === "paid" ? { paidAt: new Date() } : {}),
        ...reachedAt(status, new Date()),
      })
      .where(and(eq(orders.id, orderId), eq(orders.clientId, clientId)))
      .returning({ id: orders.id });
    if (!order) return false;
    await publishLiveEvent(tx, { userId: clientId, kind: "order", entityId: orderId, status });
    if (status === "paid") {
      const [invoice] = await tx
        .update(invoices)
        .set({ status: "paid", paidAt: new Date() })
        .where(and(eq(invoices.orderId, orderId), eq(invoices.clientId, clientId)))
        .returning({ id: invoices.id, invoiceNumber: invoices.invoiceNumber });
      if (invoice) {
        await publishLiveEvent(tx, {
          userId: clientId,
          kind: "invoice",
          entityId: invoice.id,
          status: "paid",
        });
      }
      // One payment, one notice (ADR 0515), as recordPayment raises it.
      await raiseNotification(tx, clientId, {
        ...NOTIFICATIONS.paymentReceived(invoice?.invoiceNumber ?? null, true),
        href: clientOrderPath(orderId),
      });
    } else if (status === "completed") {
      await raiseNotification(tx, clientId, {
        ...NOTIFICATIONS.orderCompleted,
        href: clientOrderPath(orderId),
      });
    } else if (status === "cancelled") {
      await raiseNotification(tx, clientId, {
        ...NOTIFICATIONS.orderCancelled,
        href: clientOrderPath(orderId),
      });
    }
    return true;
  });
}
