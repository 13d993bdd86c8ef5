/**
 * Invoices in the back office: list (status filters including overdue, SQL paging), one invoice,
 * resend by email, the dashboard's totals. Voiding is the invoice's state change
 * (invoices/invoice-lifecycle.server.ts), marking paid by bank transfer the payment's, which pays the
 * order too (orders/payment.server.ts).
 */
import { and, count, desc, eq, ilike, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { auditLog, clients, invoices, orders } from "~/db/schema";
import { type ChangeDeps, type ChangeResult, recordAudit } from "~/features/audit/audit.server";
import { emailInvoiceClient } from "~/features/invoices/invoice-email.server";
import type { InvoiceFilter } from "~/features/invoices/invoice-filters";
import { voidInvoice } from "~/features/invoices/invoice-lifecycle.server";
import { isOverdue, type ShownInvoiceStatus } from "~/features/invoices/invoice-status";
import {
  overdueInvoiceSql,
  shownInvoiceStatusSql,
  unpaidInvoiceSql,
} from "~/features/invoices/invoice-status.server";
import { formatMoney } from "~/features/money/format";
import { fromMinorUnits, toMinorUnits } from "~/features/money/minor-units";
import { markInvoicePaid } from "~/features/orders/payment.server";
import { creditNotesOfInvoice } from "~/features/refunds/credit-notes.server";
import type { RefundFormAnswer } from "~/features/refunds/refund-form";
import { type RefundFormDeps, refundFormAction } from "~/features/refunds/refund-form.server";
import { refundableMinor } from "~/features/refunds/refund-math";
import { refundsOfInvoice, refundVia } from "~/features/refunds/refund-queries.server";
import { type FormFailure, parseForm } from "~/ui/form";
import { formatDate } from "~/ui/format";
import { escapeLike } from "./audit.server";
import { type Paged, pageOffset } from "./paging";

function filterWhere(filter: InvoiceFilter) {
  switch (filter) {
    case "outstanding":
      return unpaidInvoiceSql;
    case "overdue":
      return overdueInvoiceSql;
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
  /** The status it is shown with (overdue, refunds counted): shownInvoiceStatus, in SQL. */
  shownStatus: ShownInvoiceStatus;
  currency: string;
  totalAmount: number;
  /** What came back through refunds: the status column shows it (ADR 0505). */
  refundedAmount: number;
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
        shownStatus: shownInvoiceStatusSql,
        currency: invoices.currency,
        totalAmount: invoices.totalAmount,
        refundedAmount: invoices.refundedAmount,
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
        outstanding: sql<number>`count(*) filter (where ${unpaidInvoiceSql})`.mapWith(Number),
        overdue: sql<number>`count(*) filter (where ${overdueInvoiceSql})`.mapWith(Number),
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
    .select({ invoice: invoices, shownStatus: shownInvoiceStatusSql, client: clients, order: orders })
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
  const [refundRows, creditNoteRows] = await Promise.all([
    refundsOfInvoice(db, id),
    creditNotesOfInvoice(db, id),
  ]);
  const { invoice, order } = row;
  const pending = refundRows
    .filter((r) => r.status === "pending")
    .reduce((sum, r) => sum + toMinorUnits(r.amount, invoice.currency), 0);
  const refundable =
    invoice.status === "paid"
      ? fromMinorUnits(
          refundableMinor(
            toMinorUnits(invoice.totalAmount, invoice.currency),
            toMinorUnits(invoice.refundedAmount, invoice.currency),
            pending,
          ),
          invoice.currency,
        )
      : 0;
  const creditNoteByRefund = new Map(creditNoteRows.map((n) => [n.refundId, n]));
  return {
    ...row,
    history,
    refunds: refundRows.map((r) => ({
      ...r,
      creditNote: creditNoteByRefund.get(r.id) ?? null,
    })),
    /** What may still be refunded, and how (ADR 0505). */
    refundable,
    refundVia: order ? refundVia(order, invoice) : "manual",
  };
}

/** Emails the invoice to its client again. */
export async function resendInvoice(deps: ChangeDeps, id: string): Promise<ChangeResult> {
  return deps.db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, id)).limit(1);
    if (!invoice) return { ok: false, status: 404, error: "Invoice not found." };
    if (invoice.status === "void")
      return {
        ok: false,
        status: 409,
        error: `Invoice ${invoice.invoiceNumber} is void; there is nothing to send.`,
      };
    const overdue = isOverdue(invoice.status, invoice.dueDate);
    const lines =
      invoice.status === "paid"
        ? [
            `Here is a copy of invoice ${invoice.invoiceNumber}, paid on ${formatDate(invoice.paidAt, "iso")}.`,
          ]
        : [
            `Here is invoice ${invoice.invoiceNumber} for ${formatMoney(invoice.totalAmount, invoice.currency)}, due ${formatDate(invoice.dueDate, "iso")}.`,
            ...(overdue ? ["It is past its due date; please pay it at your earliest convenience."] : []),
          ];
    await emailInvoiceClient(tx, deps.config, invoice, {
      kind: "invoice-resend",
      subject: `Invoice ${invoice.invoiceNumber}`,
      lines,
    });
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
        sql<number>`coalesce(sum(${invoices.amountUsd}) filter (where ${unpaidInvoiceSql}), 0)`.mapWith(
          Number,
        ),
      outstandingCount: sql<number>`count(*) filter (where ${unpaidInvoiceSql})`.mapWith(Number),
      overdueUsd:
        sql<number>`coalesce(sum(${invoices.amountUsd}) filter (where ${overdueInvoiceSql}), 0)`.mapWith(
          Number,
        ),
      overdueCount: sql<number>`count(*) filter (where ${overdueInvoiceSql})`.mapWith(Number),
    })
    .from(invoices)
    .where(unpaidInvoiceSql);
  return row ?? { outstandingUsd: 0, outstandingCount: 0, overdueUsd: 0, overdueCount: 0 };
}

const invoiceActionForm = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("mark-paid"),
    reference: z
      .string()
      .trim()
      .min(2, { message: "Enter the bank transfer's reference" })
      .max(200, { message: "The reference must be at most 200 characters" }),
  }),
  z.object({ intent: z.literal("resend") }),
  z.object({
    intent: z.literal("void"),
    reason: z
      .string()
      .trim()
      .max(500, { message: "The reason must be at most 500 characters" })
      .optional()
      .transform((v) => v || null),
  }),
]);

/**
 * The invoice page's forms: refund (its steps in refund-form.server.ts), mark paid by bank transfer,
 * resend, or void; a rejected form answers 400.
 */
export async function invoiceAdminAction(
  deps: RefundFormDeps,
  id: string,
  values: Record<string, unknown>,
): Promise<ChangeResult | (FormFailure & { status: 400 }) | (RefundFormAnswer & { status?: number })> {
  if (typeof values.intent === "string" && values.intent.startsWith("refund")) {
    return refundFormAction(deps, id, values);
  }
  const parsed = parseForm(invoiceActionForm, values);
  if (!parsed.ok) return { ...parsed, status: 400 };
  const input = parsed.data;
  if (input.intent === "mark-paid") return markInvoicePaid(deps, id, input.reference);
  if (input.intent === "resend") return resendInvoice(deps, id);
  return voidInvoice(deps, id, input.reason);
}
