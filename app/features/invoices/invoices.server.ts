/**
 * Invoices: created with their order (gap-free yearly numbers from invoice_counters, ADR 0500), and
 * read back only for the client they belong to.
 */

import { randomUUID } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  type Client,
  clients,
  type Invoice,
  type InvoiceKind,
  invoiceCounters,
  invoices,
  notifications,
  type Order,
  orders,
} from "~/db/schema";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { NOTIFICATIONS } from "~/features/notifications/messages";
import type { DocumentTax } from "~/features/tax/document-tax";
import { dueDateFor, invoiceNumberFor } from "./invoice-number";
import { buyerSnapshot, type InvoiceSeller } from "./invoice-parties";
import { clientInvoicePath } from "./invoice-paths";

/**
 * The next number of a year. The upsert takes the counter row's lock until the transaction ends, so
 * concurrent checkouts queue here; a rolled-back checkout gives its number back.
 */
export async function nextInvoiceSeq(tx: Database, year: number): Promise<number> {
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ year, lastSeq: 1 })
    .onConflictDoUpdate({
      target: invoiceCounters.year,
      set: { lastSeq: sql`${invoiceCounters.lastSeq} + 1` },
    })
    .returning({ seq: invoiceCounters.lastSeq });
  return row!.seq;
}

/**
 * What an invoice bills: the figures it freezes when it is issued (ADR 0504). An order's price
 * (`OrderPrice`, orders/pricing.ts) is one, with its lines; a quote's deposit or balance is another.
 * It is declared here, below orders (ADR 0012): an invoice does not depend on how a price is made.
 */
export interface InvoicePrice {
  currency: string;
  /** Units of `currency` per USD (1 for USD). */
  exchangeRate: number;
  /** Before tax, in `currency`. */
  subtotal: number;
  taxRatePercent: number;
  /** The VAT treatment the invoice freezes (issue 40): its rate is `taxRatePercent`. */
  tax: DocumentTax;
  taxAmount: number;
  /** What is due, in `currency`. */
  total: number;
  /** What is due, in USD. */
  totalUsd: number;
}

/**
 * Inside the order's transaction, as its last statements: its invoice (sent) and, when `announce`, the
 * 'New Invoice' notification (an invoice issued to the client, as a quote's balance; not the one the
 * client's own checkout makes and pays at once, whose payment raises the one notice: ADR 0515). Every checkout queues on the counter row's lock until the transaction ends, so what does
 * not need the number (the live events, with ids made here) goes first, and the lock is held for two
 * inserts and the commit only (ADR 0900: under load, holding it across nine round trips timed
 * checkouts out).
 *
 * The invoice keeps a copy of its buyer (the client's profile, read in this transaction) and of its
 * seller (the business settings the caller passes): what it prints for ever (ADR 0504).
 */
export async function createInvoiceForOrder(
  tx: Database,
  input: {
    order: Order;
    price: InvoicePrice;
    dueDays: number;
    seller: InvoiceSeller;
    now?: Date;
    /** What it bills of the order: all of it (default), or a quote's deposit or balance. */
    kind?: InvoiceKind;
    /** Raise the 'New Invoice' notification (default: yes). */
    announce?: boolean;
  },
): Promise<Invoice> {
  const { order, price } = input;
  const [client] = await tx
    .select({
      name: clients.name,
      email: clients.email,
      phone: clients.phone,
      company: clients.company,
      address: clients.address,
      country: clients.country,
      countryCode: clients.countryCode,
      taxId: clients.taxId,
      buyerReference: clients.buyerReference,
    })
    .from(clients)
    .where(eq(clients.id, order.clientId))
    .limit(1);
  if (!client) throw new Error("createInvoiceForOrder: the order's client is missing");
  const issuedAt = input.now ?? new Date();
  const year = issuedAt.getUTCFullYear();
  const invoiceId = randomUUID();
  const notificationId = randomUUID();
  await publishLiveEvent(tx, {
    userId: order.clientId,
    kind: "invoice",
    entityId: invoiceId,
    status: "sent",
  });
  const announce = input.announce ?? true;
  if (announce) {
    await publishLiveEvent(tx, {
      userId: order.clientId,
      kind: "notification",
      entityId: notificationId,
      status: "unread",
    });
  }
  const seq = await nextInvoiceSeq(tx, year);
  const invoiceNumber = invoiceNumberFor(year, seq);
  const [invoice] = await tx
    .insert(invoices)
    .values({
      id: invoiceId,
      invoiceNumber,
      invoiceYear: year,
      invoiceSeq: seq,
      clientId: order.clientId,
      orderId: order.id,
      status: "sent",
      kind: input.kind ?? "full",
      currency: price.currency,
      subtotal: price.subtotal,
      taxRatePercent: price.taxRatePercent,
      tax: price.tax,
      taxAmount: price.taxAmount,
      totalAmount: price.total,
      amountUsd: price.totalUsd,
      exchangeRate: price.exchangeRate,
      dueDate: dueDateFor(issuedAt, input.dueDays),
      buyer: buyerSnapshot(client),
      seller: input.seller,
      createdAt: issuedAt,
    })
    .returning();
  if (announce) {
    const text = NOTIFICATIONS.newInvoice(invoiceNumber);
    await tx.insert(notifications).values({
      id: notificationId,
      userId: order.clientId,
      title: text.title,
      message: text.message,
      type: text.type,
      href: clientInvoicePath(invoiceId),
    });
  }
  return invoice!;
}

export interface InvoiceDocument {
  invoice: Invoice;
  order: Order;
  /** The client as they are now: what an invoice without a stored buyer prints (ADR 0504). */
  client: Pick<Client, "id" | "name" | "email" | "phone" | "company" | "address" | "country" | "taxId">;
  /** Its credit notes, oldest first, where the reader added them (a refunded invoice prints them). */
  creditNotes?: Array<{ id: string; creditNoteNumber: string }>;
}

/** The client's identity as a document without a frozen buyer prints it (ADR 0504). */
export const clientIdentityColumns = {
  id: clients.id,
  name: clients.name,
  email: clients.email,
  phone: clients.phone,
  company: clients.company,
  address: clients.address,
  country: clients.country,
  countryCode: clients.countryCode,
  taxId: clients.taxId,
};

/** One invoice by id with its order and client, for the owner (null: missing or malformed id). */
export async function getInvoiceDocument(db: Database, invoiceId: string): Promise<InvoiceDocument | null> {
  if (!/^[0-9a-f-]{36}$/i.test(invoiceId)) return null;
  const [row] = await db
    .select({ invoice: invoices, order: orders, client: clientIdentityColumns })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .innerJoin(clients, eq(clients.id, invoices.clientId))
    .where(eq(invoices.id, invoiceId))
    .limit(1);
  return row ?? null;
}

/**
 * One invoice of one client with its order and the client's identity, or null (missing, or someone
 * else's: the caller answers 'Invoice Not Found' either way). `latest` is the client's newest invoice.
 */
export async function getClientInvoice(
  db: Database,
  clientId: string,
  invoiceId: string | "latest",
): Promise<InvoiceDocument | null> {
  if (invoiceId !== "latest" && !/^[0-9a-f-]{36}$/i.test(invoiceId)) return null;
  const [row] = await db
    .select({
      invoice: invoices,
      order: orders,
      client: clientIdentityColumns,
    })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .innerJoin(clients, eq(clients.id, invoices.clientId))
    .where(
      invoiceId === "latest"
        ? eq(invoices.clientId, clientId)
        : and(eq(invoices.clientId, clientId), eq(invoices.id, invoiceId)),
    )
    .orderBy(desc(invoices.createdAt), desc(invoices.invoiceSeq))
    .limit(1);
  return row ?? null;
}
