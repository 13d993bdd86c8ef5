/**
 * The documents and files of "Download my data" beside the invoices (issue 37, item 11): each credit
 * note and each quote sent to the client as its PDF, and every file attached to the messages of the
 * client's orders (both sides'), as it was uploaded. One at a time, each waiting for the reader's room,
 * so a large export never sits whole in memory.
 */
import { asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { creditNotes, messageAttachments, orderMessages, orders } from "~/db/schema";
import type { BusinessIdentity } from "~/features/business/business";
import { pdfFileName } from "~/features/invoices/download-all.server";
import { renderQuotePdf } from "~/features/quotes/quote-pdf.server";
import { listClientQuotes } from "~/features/quotes/quote-queries.server";
import { renderCreditNotePdf } from "~/features/refunds/credit-note-pdf.server";
import { getCreditNoteDocument } from "~/features/refunds/credit-notes.server";

type Fflate = typeof import("fflate");

interface Adding {
  fflate: Pick<Fflate, "ZipPassThrough">;
  zip: InstanceType<Fflate["Zip"]>;
  db: Database;
  client: { id: string; email: string };
  business: BusinessIdentity;
  now: Date;
  cancelled: () => boolean;
  room: () => Promise<void>;
}

/** A file name safe in every zip tool: no path, no control or odd characters. */
const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 120) || "file";

function addFile(a: Adding, name: string, bytes: Uint8Array, at: Date): void {
  const file = new a.fflate.ZipPassThrough(name);
  file.mtime = at;
  a.zip.add(file);
  file.push(bytes, true);
}

/** Adds credit-notes/, quotes/ and attachments/ to an open export zip. */
export async function addExportDocuments(a: Adding): Promise<void> {
  const notes = await a.db
    .select({ id: creditNotes.id })
    .from(creditNotes)
    .where(eq(creditNotes.clientId, a.client.id))
    .orderBy(asc(creditNotes.createdAt), asc(creditNotes.id));
  for (const { id } of notes) {
    await a.room();
    if (a.cancelled()) return;
    const doc = await getCreditNoteDocument(a.db, id, a.client.id);
    if (!doc) continue;
    const pdf = await renderCreditNotePdf(doc, a.business);
    addFile(a, `credit-notes/${pdfFileName(doc.creditNote.creditNoteNumber)}`, pdf, doc.creditNote.createdAt);
  }

  for (const quote of await listClientQuotes(a.db, a.client)) {
    await a.room();
    if (a.cancelled()) return;
    const pdf = await renderQuotePdf(quote, a.business, a.now);
    const name = quote.quoteNumber ?? `quote-${quote.id.slice(0, 8)}`;
    addFile(a, `quotes/${pdfFileName(name)}`, pdf, quote.sentAt ?? quote.createdAt);
  }

  // The files' names first, then each file's bytes alone.
  const files = await a.db
    .select({
      id: messageAttachments.id,
      orderId: orders.id,
      position: messageAttachments.position,
      filename: messageAttachments.filename,
      createdAt: messageAttachments.createdAt,
    })
    .from(messageAttachments)
    .innerJoin(orderMessages, eq(orderMessages.id, messageAttachments.messageId))
    .innerJoin(orders, eq(orders.id, orderMessages.orderId))
    .where(eq(orders.clientId, a.client.id))
    .orderBy(asc(messageAttachments.createdAt), asc(messageAttachments.id));
  for (const f of files) {
    await a.room();
    if (a.cancelled()) return;
    const [row] = await a.db
      .select({ bytes: messageAttachments.bytes })
      .from(messageAttachments)
      .where(eq(messageAttachments.id, f.id))
      .limit(1);
    if (!row) continue;
    // The attachment's id keeps two files of the same name apart.
    const name = `attachments/order-${f.orderId.slice(0, 8)}/${f.id.slice(0, 8)}-${safeName(f.filename)}`;
    addFile(a, name, new Uint8Array(row.bytes), f.createdAt);
  }
}
