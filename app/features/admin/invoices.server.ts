/**
 * Invoices in the back office: list (status filters including overdue, SQL paging), one invoice, mark
 * paid by hand (bank transfer with a reference), resend by email, void. A voided invoice keeps its
 * number: numbers are never reused, so the sequence keeps no gaps.
 */
import { and, count, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog, clients, type Invoice, invoices, orders } from "~/db/schema";
import { formatMoney } from "~/features/currency/currency";
import type { InvoiceFilter } from "~/features/invoices/invoice-filters";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { enqueueEmail } from "~/features/mail/mail.server";
import { formatDate } from "~/ui/format";
import { escapeLike, recordAudit } from "./audit.server";
import { noticeEmail } from "./emails.server";
import { type AdminDeps, applyPayment, type ChangeResult, type Tx } from "./orders.server";
import { type Paged, pageOffset } from "./paging";

/** Unpaid and past its due date: stored as overdue, or still 'sent' after the due date. */
export const isOverdue = sql<boolean>`(${invoices.status} = 'overdue' or (${invoices.status} = 'sent' and ${invoices.dueDate} < now()))`;
const isOutstanding = inArray(invoices.status, ["sent", "overdue"]);

function filterWhere(filter: InvoiceFilter) {
  switch (filter) {
    case "outstanding":
      return isOutstanding;
    case "overdue":
      return isOverdue;
    case "sent":
      return and(eq(invoices.status, "sent"), sql`${invoices.dueDate} >= now()`);
    case "paid":
      return eq(invoices.status, "paid");
    case "void":
      return eq(invoices.status, "void");
    default:
      return undefined;
  }
}

export interface InvoiceListRow {
  id: string;
  invoiceNumber: string;
  status: string;
  overdue: boolean;
  currency: string;
  totalAmount: number;
  amountUsd: number;
  dueDate: Date;
  paidAt: Date | null;
  createdAt: Date;
  clientId: string;
  clientName: string | null;
  clientEmail: string | null;
  orderId: string;
  serviceName: string | null;
}

export async function listInvoices(
  db: Database,
  filter: { q: string; filter: InvoiceFilter; clientId?: string; page: number },
): Promise<Paged<InvoiceListRow> & { counts: Record<InvoiceFilter, number> }> {
  const like = `%${escapeLike(filter.q)}%`;
  const search = filter.q
    ? or(ilike(invoices.invoiceNumber, like), ilike(clients.name, like), ilike(clients.email, like))
    : undefined;
  const scope = filter.clientId ? eq(invoices.clientId, filter.clientId) : undefined;
  const { limit, offset } = pageOffset(filter.page);
  const [rows, [c]] = await Promise.all([
    db
      .select({
        id: invoices.id,
        invoiceNumber: invoices.invoiceNumber,
        status: invoices.status,
        overdue: isOverdue,
        currency: invoices.currency,
        totalAmount: invoices.totalAmount,
        amountUsd: invoices.amountUsd,
        dueDate: invoices.dueDate,
        paidAt: invoices.paidAt,
        createdAt: invoices.createdAt,
        clientId: invoices.clientId,
        clientName: clients.name,
        clientEmail: clients.email,
        orderId: invoices.orderId,
        serviceName: orders.serviceName,
      })
      .from(invoices)
      .leftJoin(clients, eq(clients.id, invoices.clientId))
      .leftJoin(orders, eq(orders.id, invoices.orderId))
      .where(and(search, scope, filterWhere(filter.filter)))
      .orderBy(desc(invoices.createdAt), desc(invoices.id))
      .limit(limit)
      .offset(offset),
    // Every chip's count in one pass.
    db
      .select({
        all: count(),
        outstanding: sql<number>`count(*) filter (where ${isOutstanding})`.mapWith(Number),
        overdue: sql<number>`count(*) filter (where ${isOverdue})`.mapWith(Number),
        sent: sql<number>`count(*) filter (where ${invoices.status} = 'sent' and ${invoices.dueDate} >= now())`.mapWith(
          Number,
        ),
        paid: sql<number>`count(*) filter (where ${invoices.status} = 'paid')`.mapWith(Number),
        void: sql<number>`count(*) filter (where ${invoices.status} = 'void')`.mapWith(Number),
      })
      .from(invoices)
      .leftJoin(clients, eq(clients.id, invoices.clientId))
      .where(and(search, scope)),
  ]);
  const counts = c ?? { all: 0, outstanding: 0, overdue: 0, sent: 0, paid: 0, void: 0 };
  return { rows: rows as InvoiceListRow[], total: counts[filter.filter], page: filter.page, counts };
}

export async function getInvoiceDetail(db: Database, id: string) {
  const [row] = await db
    .select({ invoice: invoices, overdue: isOverdue, client: clients, order: orders })
    .from(invoices)
    .leftJoin(clients, eq(clients.id, invoices.clientId))
    .leftJoin(orders, eq(orders.id, invoices.orderId))
    .where(eq(invoices.id, id))
    .limit(1);
  if (!row) return null;
  const history = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, "invoice"), eq(auditLog.entityId, id)))
    .orderBy(desc(auditLog.at))
    .limit(50);
  return { ...row, history };
}

async function lockInvoice(tx: Tx, id: string): Promise<Invoice | null> {
  const [row] = await tx.select().from(invoices).where(eq(invoices.id, id)).for("update").limit(1);
  return row ?? null;
}

async function emailClient(
  tx: Tx,
  deps: AdminDeps,
  invoice: Invoice,
  kind: string,
  subject: string,
  lines: string[],
) {
  const [c] = await tx
    .select({ name: clients.name, email: clients.email })
    .from(clients)
    .where(eq(clients.id, invoice.clientId))
    .limit(1);
  if (!c) return;
  await enqueueEmail(tx as unknown as Database, {
    kind,
    to: c.email,
    ...noticeEmail({
      business: deps.config.business,
      publicUrl: deps.config.publicUrl,
      subject,
      greetingName: c.name,
      lines,
      link: { path: `/client/invoice/${invoice.id}`, label: "View the invoice" },
    }),
  });
}

/** A bank transfer received: the invoice (and its order, if still pending) become paid. */
export async function markInvoicePaid(deps: AdminDeps, id: string, reference: string): Promise<ChangeResult> {
  return deps.db.transaction(async (tx) => {
    const invoice = await lockInvoice(tx, id);
    if (!invoice) return { ok: false, status: 404, error: "Invoice not found." };
    if (invoice.status !== "sent" && invoice.status !== "overdue")
      return {
        ok: false,
        status: 409,
        error: `Invoice ${invoice.invoiceNumber} is ${invoice.status}; only an unpaid invoice can be marked paid.`,
      };
    const [order] = await tx.select().from(orders).where(eq(orders.id, invoice.orderId)).for("update");
    const paymentReference = `Bank transfer: ${reference}`;
    if (order) {
      const result = await applyPayment(tx, order, invoice, {
        provider: "manual",
        reference: paymentReference,
      });
      if (result.order.status !== order.status) {
        await recordAudit(tx, deps.actor, {
          action: "order.status",
          entity: "order",
          entityId: order.id,
          before: { status: order.status },
          after: { status: "paid", via: `invoice ${invoice.invoiceNumber} paid by bank transfer` },
        });
      }
    }
    await recordAudit(tx, deps.actor, {
      action: "invoice.paid",
      entity: "invoice",
      entityId: invoice.id,
      before: { status: invoice.status, paymentReference: invoice.paymentReference },
      after: { status: "paid", method: "bank transfer", paymentReference },
    });
    await emailClient(
      tx,
      deps,
      invoice,
      "invoice-paid",
      `Payment received: invoice ${invoice.invoiceNumber}`,
      [
        `Payment Confirmed: Invoice ${invoice.invoiceNumber} has been paid.`,
        `We received your bank transfer of ${formatMoney(invoice.totalAmount, invoice.currency)} (reference ${reference}). Thank you.`,
      ],
    );
    return { ok: true, message: `Invoice ${invoice.invoiceNumber} is marked paid.` };
  });
}

/** Voids an unpaid invoice; it keeps its number. */
export async function voidInvoice(deps: AdminDeps, id: string, reason: string | null): Promise<ChangeResult> {
  return deps.db.transaction(async (tx) => {
    const invoice = await lockInvoice(tx, id);
    if (!invoice) return { ok: false, status: 404, error: "Invoice not found." };
    if (invoice.status !== "sent" && invoice.status !== "overdue")
      return {
        ok: false,
        status: 409,
        error: `Invoice ${invoice.invoiceNumber} is ${invoice.status}; only an unpaid invoice can be voided.`,
      };
    await tx.update(invoices).set({ status: "void" }).where(eq(invoices.id, id));
    await publishLiveEvent(tx, { userId: invoice.clientId, kind: "invoice", entityId: id, status: "void" });
    await recordAudit(tx, deps.actor, {
      action: "invoice.void",
      entity: "invoice",
      entityId: id,
      before: { status: invoice.status },
      after: { status: "void", ...(reason ? { reason } : {}) },
    });
    await emailClient(tx, deps, invoice, "invoice-void", `Invoice ${invoice.invoiceNumber} has been voided`, [
      `Invoice ${invoice.invoiceNumber} has been voided: nothing is due on it.`,
      ...(reason ? [reason] : []),
    ]);
    return { ok: true, message: `Invoice ${invoice.invoiceNumber} is void. It keeps its number.` };
  });
}

/** Emails the invoice to its client again. */
export async function resendInvoice(deps: AdminDeps, id: string): Promise<ChangeResult> {
  return deps.db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, id)).limit(1);
    if (!invoice) return { ok: false, status: 404, error: "Invoice not found." };
    if (invoice.status === "void")
      return {
        ok: false,
        status: 409,
        error: `Invoice ${invoice.invoiceNumber} is void; there is nothing to send.`,
      };
    const overdue =
      invoice.status === "overdue" || (invoice.status === "sent" && invoice.dueDate < new Date());
    const lines =
      invoice.status === "paid"
        ? [
            `Here is a copy of invoice ${invoice.invoiceNumber}, paid on ${formatDate(invoice.paidAt, "iso")}.`,
          ]
        : [
            `Here is invoice ${invoice.invoiceNumber} for ${formatMoney(invoice.totalAmount, invoice.currency)}, due ${formatDate(invoice.dueDate, "iso")}.`,
            ...(overdue ? ["It is past its due date; please pay it at your earliest convenience."] : []),
          ];
    await emailClient(tx, deps, invoice, "invoice-resend", `Invoice ${invoice.invoiceNumber}`, lines);
    await recordAudit(tx, deps.actor, {
      action: "invoice.resend",
      entity: "invoice",
      entityId: id,
      after: { status: invoice.status },
    });
    return { ok: true, message: `Invoice ${invoice.invoiceNumber} was sent to the client again.` };
  });
}

/** Outstanding (unpaid) and overdue totals in USD, for the dashboard. */
export async function invoiceTotals(db: Database) {
  const [row] = await db
    .select({
      outstandingUsd:
        sql<number>`coalesce(sum(${invoices.amountUsd}) filter (where ${isOutstanding}), 0)`.mapWith(Number),
      outstandingCount: sql<number>`count(*) filter (where ${isOutstanding})`.mapWith(Number),
      overdueUsd: sql<number>`coalesce(sum(${invoices.amountUsd}) filter (where ${isOverdue}), 0)`.mapWith(
        Number,
      ),
      overdueCount: sql<number>`count(*) filter (where ${isOverdue})`.mapWith(Number),
    })
    .from(invoices)
    .where(isOutstanding);
  return row ?? { outstandingUsd: 0, outstandingCount: 0, overdueUsd: 0, overdueCount: 0 };
}
