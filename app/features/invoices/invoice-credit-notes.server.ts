/**
 * The credit notes of a page of a client's invoices (issue 37, item 3): the invoices list shows each
 * under its invoice, so a refund is seen where the invoice is. Read after the page's rows, by their
 * ids (the list's paging and counts stay the invoices'), scoped by the client.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { creditNotes } from "~/db/schema";

export interface InvoiceCreditNote {
  id: string;
  creditNoteNumber: string;
  invoiceId: string;
  currency: string;
  totalAmount: number;
  createdAt: Date;
}

/** The client's credit notes of these invoices, oldest first. */
export async function creditNotesOfInvoices(
  db: Database,
  clientId: string,
  invoiceIds: readonly string[],
): Promise<InvoiceCreditNote[]> {
  if (invoiceIds.length === 0) return [];
  return db
    .select({
      id: creditNotes.id,
      creditNoteNumber: creditNotes.creditNoteNumber,
      invoiceId: creditNotes.invoiceId,
      currency: creditNotes.currency,
      totalAmount: creditNotes.totalAmount,
      createdAt: creditNotes.createdAt,
    })
    .from(creditNotes)
    .where(and(eq(creditNotes.clientId, clientId), inArray(creditNotes.invoiceId, [...invoiceIds])))
    .orderBy(asc(creditNotes.createdAt), asc(creditNotes.creditNoteSeq));
}
