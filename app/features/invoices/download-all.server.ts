/**
 * "Download All" (client-portal.md, Invoices): one zip with a PDF of each of the client's invoices,
 * streamed: invoices are read 200 at a time (keyset paging on the client's index) and each PDF is
 * added to the zip as it is rendered, so 10,000 invoices never sit in memory at once.
 */
import { and, desc, eq, lt, or, type SQL } from "drizzle-orm";
import { Zip, ZipPassThrough } from "fflate";
import type { Database } from "~/db/client.server";
import { clients, invoices, orders } from "~/db/schema";
import { formatDate, statusLabel } from "~/features/portal/listing";
import { simplePdf } from "./simple-pdf";

export interface InvoiceDocument {
  id: string;
  invoiceNumber: string;
  status: string;
  currency: string;
  subtotal: number;
  taxAmount: number;
  totalAmount: number;
  createdAt: Date;
  dueDate: Date;
  paidAt: Date | null;
  serviceName: string;
  packageName: string;
  quantity: number;
  clientName: string;
  clientEmail: string;
  clientCompany: string | null;
}

const money = (amount: number, currency: string) => `${currency} ${amount.toFixed(2)}`;

/** A plain one-page PDF of an invoice. */
export function renderBasicInvoicePdf(doc: InvoiceDocument, businessName: string): Uint8Array {
  return simplePdf(
    [
      { text: businessName, size: 16 },
      { text: `Invoice ${doc.invoiceNumber}`, size: 20, gapBefore: 10 },
      { text: `Status: ${statusLabel(doc.status)}` },
      { text: `Date: ${formatDate(doc.createdAt)}    Due: ${formatDate(doc.dueDate)}` },
      ...(doc.paidAt ? [{ text: `Paid: ${formatDate(doc.paidAt)}` }] : []),
      { text: "Bill to", size: 13, gapBefore: 12 },
      { text: doc.clientName },
      { text: doc.clientEmail },
      ...(doc.clientCompany ? [{ text: doc.clientCompany }] : []),
      { text: "Service", size: 13, gapBefore: 12 },
      { text: `${doc.serviceName}: ${doc.packageName}${doc.quantity > 1 ? ` x ${doc.quantity}` : ""}` },
      { text: `Subtotal: ${money(doc.subtotal, doc.currency)}`, gapBefore: 12 },
      { text: `Tax: ${money(doc.taxAmount, doc.currency)}` },
      { text: `Total: ${money(doc.totalAmount, doc.currency)}`, size: 14 },
    ],
    `Invoice ${doc.invoiceNumber}`,
  );
}

/**
 * The one place the zip takes its PDF renderer from. (The invoice view's renderer from the purchase and
 * payments work is meant to replace renderBasicInvoicePdf here, so both downloads give the same PDF.)
 */
export type InvoicePdfRenderer = (doc: InvoiceDocument) => Uint8Array | Promise<Uint8Array>;

const BATCH = 200;

async function invoiceBatch(
  db: Database,
  clientId: string,
  after: { createdAt: Date; id: string } | null,
): Promise<InvoiceDocument[]> {
  const keyset: SQL | undefined = after
    ? or(
        lt(invoices.createdAt, after.createdAt),
        and(eq(invoices.createdAt, after.createdAt), lt(invoices.id, after.id)),
      )
    : undefined;
  return db
    .select({
      id: invoices.id,
      invoiceNumber: invoices.invoiceNumber,
      status: invoices.status,
      currency: invoices.currency,
      subtotal: invoices.subtotal,
      taxAmount: invoices.taxAmount,
      totalAmount: invoices.totalAmount,
      createdAt: invoices.createdAt,
      dueDate: invoices.dueDate,
      paidAt: invoices.paidAt,
      serviceName: orders.serviceName,
      packageName: orders.packageName,
      quantity: orders.quantity,
      clientName: clients.name,
      clientEmail: clients.email,
      clientCompany: clients.company,
    })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .innerJoin(clients, eq(clients.id, invoices.clientId))
    .where(and(eq(invoices.clientId, clientId), keyset))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(BATCH);
}

/** A zip file name that is safe everywhere. */
export function pdfFileName(invoiceNumber: string): string {
  return `${invoiceNumber.replace(/[^A-Za-z0-9._-]+/g, "_")}.pdf`;
}

/** Streams the zip of every invoice of a client (newest first). */
export function invoicesZipStream(
  db: Database,
  clientId: string,
  render: InvoicePdfRenderer,
  onError: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const zip = new Zip((error, chunk, final) => {
        if (error) {
          onError(error);
          controller.error(error);
          return;
        }
        if (!cancelled) controller.enqueue(chunk);
        if (final && !cancelled) controller.close();
      });
      try {
        let after: { createdAt: Date; id: string } | null = null;
        for (;;) {
          const batch: InvoiceDocument[] = await invoiceBatch(db, clientId, after);
          for (const doc of batch) {
            if (cancelled) return;
            const file = new ZipPassThrough(pdfFileName(doc.invoiceNumber));
            file.mtime = doc.createdAt;
            zip.add(file);
            file.push(await render(doc), true);
          }
          if (batch.length < BATCH) break;
          const last = batch[batch.length - 1]!;
          after = { createdAt: last.createdAt, id: last.id };
        }
        zip.end();
      } catch (error) {
        onError(error);
        controller.error(error);
      }
    },
    cancel() {
      cancelled = true;
    },
  });
}
