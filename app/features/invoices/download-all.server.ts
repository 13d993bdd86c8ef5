/**
 * "Download All" (client-portal.md, Invoices): one zip with a PDF of each of the client's invoices,
 * streamed: invoices are read 200 at a time (keyset paging on the client's index) and each PDF is
 * added to the zip as it is rendered, so 10,000 invoices never sit in memory at once.
 */
import { and, asc, desc, eq, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { clients, creditNotes, invoices, orders } from "~/db/schema";
import type { InvoiceDocument } from "./invoices.server";

/** Renders one invoice's PDF: the invoice page's own renderer (`renderInvoicePdf`), so both downloads match. */
export type InvoicePdfRenderer = (doc: InvoiceDocument) => Uint8Array | Promise<Uint8Array>;

const BATCH = 200;

async function invoiceBatch(
  db: Database,
  clientId: string,
  after: { createdAt: Date; id: string } | null,
): Promise<InvoiceDocument[]> {
  // The last row's time as the database keeps it (microseconds): a JS Date has milliseconds only, and
  // two invoices within the same millisecond would be skipped at a batch's edge.
  const lastAt = after
    ? sql`(select ${invoices.createdAt} from ${invoices} where ${invoices.id} = ${after.id})`
    : null;
  const keyset: SQL | undefined =
    after && lastAt
      ? or(lt(invoices.createdAt, lastAt), and(eq(invoices.createdAt, lastAt), lt(invoices.id, after.id)))
      : undefined;
  const docs: InvoiceDocument[] = await db
    .select({
      invoice: invoices,
      order: orders,
      client: {
        id: clients.id,
        name: clients.name,
        email: clients.email,
        phone: clients.phone,
        company: clients.company,
        address: clients.address,
        country: clients.country,
        countryCode: clients.countryCode,
        taxId: clients.taxId,
      },
    })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .innerJoin(clients, eq(clients.id, invoices.clientId))
    .where(and(eq(invoices.clientId, clientId), keyset))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(BATCH);
  // A refunded invoice prints its credit notes, as its own PDF does: one query for the batch's.
  const refunded = docs.filter((d) => d.invoice.refundedAmount > 0).map((d) => d.invoice.id);
  if (refunded.length === 0) return docs;
  const notes = await db
    .select({
      id: creditNotes.id,
      creditNoteNumber: creditNotes.creditNoteNumber,
      invoiceId: creditNotes.invoiceId,
    })
    .from(creditNotes)
    .where(inArray(creditNotes.invoiceId, refunded))
    .orderBy(asc(creditNotes.createdAt), asc(creditNotes.creditNoteSeq));
  return docs.map((d) => ({
    ...d,
    creditNotes: notes
      .filter((n) => n.invoiceId === d.invoice.id)
      .map((n) => ({ id: n.id, creditNoteNumber: n.creditNoteNumber })),
  }));
}

/** A zip file name that is safe everywhere. */
export function pdfFileName(invoiceNumber: string): string {
  return `${invoiceNumber.replace(/[^A-Za-z0-9._-]+/g, "_")}.pdf`;
}

/** fflate's streaming zip, as `import("fflate")` gives it (loaded on the first download: ADR 0803). */
type Fflate = typeof import("fflate");

/**
 * Adds a PDF of every invoice of a client (newest first) to an open zip, one batch at a time, under
 * `folder` (e.g. "invoices/"). Stops early when `cancelled()` says the reader went away.
 */
export async function addInvoicePdfs(
  fflate: Pick<Fflate, "ZipPassThrough">,
  zip: InstanceType<Fflate["Zip"]>,
  db: Database,
  clientId: string,
  render: InvoicePdfRenderer,
  cancelled: () => boolean,
  folder = "",
  /** Resolves when the reader has room for more (backpressure); by default always. */
  room: () => Promise<void> = async () => {},
): Promise<void> {
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const batch: InvoiceDocument[] = await invoiceBatch(db, clientId, after);
    for (const doc of batch) {
      await room();
      if (cancelled()) return;
      const file = new fflate.ZipPassThrough(`${folder}${pdfFileName(doc.invoice.invoiceNumber)}`);
      file.mtime = doc.invoice.createdAt;
      zip.add(file);
      file.push(await render(doc), true);
    }
    if (batch.length < BATCH) return;
    const last = batch[batch.length - 1]!;
    after = { createdAt: last.invoice.createdAt, id: last.invoice.id };
  }
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
      // Loaded on the first download, not at start (ADR 0803).
      const fflate = await import("fflate");
      const zip = new fflate.Zip((error, chunk, final) => {
        if (error) {
          onError(error);
          controller.error(error);
          return;
        }
        if (!cancelled) controller.enqueue(chunk);
        if (final && !cancelled) controller.close();
      });
      try {
        await addInvoicePdfs(fflate, zip, db, clientId, render, () => cancelled);
        if (cancelled) return;
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
