/**
 * Credit notes (docs/decisions/0505-refunds-and-credit-notes.md): the document every recorded refund
 * leaves. Issued in the transaction that records the refund, numbered from its own gap-free series
 * (the counter row's lock serialises issuers; a rolled-back refund gives its number back), with the
 * invoice's frozen buyer and seller, and never changed after (a trigger refuses updates).
 */
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import {
  type Client,
  type CreditNote,
  clients,
  creditNoteCounters,
  creditNotes,
  type Invoice,
  invoices,
  type Refund,
} from "~/db/schema";
import type { BusinessIdentity } from "~/features/business/business";
import { isUuid } from "~/features/ids/ids";
import { creditNoteNumberFor } from "~/features/invoices/credit-note-number";
import { buyerSnapshot, sellerSnapshot } from "~/features/invoices/invoice-parties";
import { clientIdentityColumns } from "~/features/invoices/invoices.server";
import { ilikeContains } from "~/features/lists/search.server";
import { fromMinorUnits } from "~/features/money/minor-units";
import type { RefundShares } from "./refund-math";

async function nextCreditNoteSeq(tx: Tx, year: number): Promise<number> {
  const [row] = await tx
    .insert(creditNoteCounters)
    .values({ year, lastSeq: 1 })
    .onConflictDoUpdate({
      target: creditNoteCounters.year,
      set: { lastSeq: sql`${creditNoteCounters.lastSeq} + 1` },
    })
    .returning({ seq: creditNoteCounters.lastSeq });
  return row!.seq;
}

/** Issues the credit note of a refund being recorded (the caller holds the order and invoice locks). */
export async function issueCreditNote(
  tx: Tx,
  input: { refund: Refund; invoice: Invoice; shares: RefundShares; business: BusinessIdentity; now: Date },
): Promise<CreditNote> {
  const { refund, invoice, shares } = input;
  let buyer = invoice.buyer;
  if (!buyer) {
    // An invoice made outside the issuing path (fixtures) has no frozen buyer: the client as they are.
    const [client] = await tx.select().from(clients).where(eq(clients.id, invoice.clientId)).limit(1);
    buyer = client ? buyerSnapshot(client) : null;
  }
  const year = input.now.getUTCFullYear();
  // The number last, so the counter's lock is held for one insert and the commit.
  const seq = await nextCreditNoteSeq(tx, year);
  const [note] = await tx
    .insert(creditNotes)
    .values({
      creditNoteNumber: creditNoteNumberFor(year, seq),
      creditNoteYear: year,
      creditNoteSeq: seq,
      refundId: refund.id,
      invoiceId: invoice.id,
      orderId: invoice.orderId,
      clientId: invoice.clientId,
      currency: invoice.currency,
      subtotal: fromMinorUnits(shares.subtotalMinor, invoice.currency),
      taxRatePercent: invoice.taxRatePercent,
      taxAmount: fromMinorUnits(shares.taxMinor, invoice.currency),
      totalAmount: refund.amount,
      amountUsd: fromMinorUnits(shares.usdMinor, "USD"),
      exchangeRate: invoice.exchangeRate,
      reason: refund.reason,
      buyer,
      seller: invoice.seller ?? sellerSnapshot(input.business),
      // The invoice's VAT treatment, as it was issued (issue 40).
      tax: invoice.tax,
      createdAt: input.now,
    })
    .returning();
  return note!;
}

/** An invoice's credit notes, oldest first. */
export async function creditNotesOfInvoice(db: Database, invoiceId: string): Promise<CreditNote[]> {
  return db
    .select()
    .from(creditNotes)
    .where(eq(creditNotes.invoiceId, invoiceId))
    .orderBy(asc(creditNotes.createdAt), asc(creditNotes.creditNoteSeq));
}

/** A credit note as its pages and PDF print it: the note, its invoice's number, and the client as now. */
export interface CreditNoteDocument {
  creditNote: CreditNote;
  invoice: { id: string; invoiceNumber: string; createdAt: Date };
  /** The client as they are now: what a note without a frozen buyer prints. */
  client: Pick<Client, "id" | "name" | "email" | "phone" | "company" | "address" | "country" | "taxId">;
}

/**
 * One credit note with what it prints, or null (missing, malformed id, or, with `clientId`, another
 * client's: the caller answers not found either way).
 */
export async function getCreditNoteDocument(
  db: Database,
  id: string,
  clientId?: string,
): Promise<CreditNoteDocument | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({
      creditNote: creditNotes,
      invoice: { id: invoices.id, invoiceNumber: invoices.invoiceNumber, createdAt: invoices.createdAt },
      client: clientIdentityColumns,
    })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .innerJoin(clients, eq(clients.id, creditNotes.clientId))
    .where(
      and(eq(creditNotes.id, id), clientId === undefined ? undefined : eq(creditNotes.clientId, clientId)),
    )
    .limit(1);
  return row ?? null;
}

/** The credit notes an invoice prints (none asked for when nothing was refunded). */
export async function creditNotesToPrint(
  db: Database,
  invoice: Pick<Invoice, "id" | "refundedAmount">,
): Promise<Array<{ id: string; creditNoteNumber: string }>> {
  if (!(invoice.refundedAmount > 0)) return [];
  const rows = await creditNotesOfInvoice(db, invoice.id);
  return rows.map((n) => ({ id: n.id, creditNoteNumber: n.creditNoteNumber }));
}

/** Only a text made of C, N, digits and dashes can be part of a credit note's number (`CN-2026-0003`). */
const PART_OF_CREDIT_NOTE_NUMBER = /^[cn0-9-]+$/i;

/** A credit note as the header search lists it. */
export interface CreditNoteHit {
  id: string;
  creditNoteNumber: string;
  invoiceNumber: string;
  currency: string;
  totalAmount: number;
  createdAt: Date;
}

/**
 * The header search: a client's credit notes whose number contains `q`, newest first, with their
 * invoice's number. A text that cannot be in such a number (such as "SSL") asks the database nothing.
 */
export async function searchClientCreditNotes(
  db: Database,
  clientId: string,
  q: string,
  limit: number,
): Promise<CreditNoteHit[]> {
  if (!q || !PART_OF_CREDIT_NOTE_NUMBER.test(q)) return [];
  return db
    .select({
      id: creditNotes.id,
      creditNoteNumber: creditNotes.creditNoteNumber,
      invoiceNumber: invoices.invoiceNumber,
      currency: creditNotes.currency,
      totalAmount: creditNotes.totalAmount,
      createdAt: creditNotes.createdAt,
    })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .where(and(eq(creditNotes.clientId, clientId), ilikeContains(creditNotes.creditNoteNumber, q)))
    .orderBy(desc(creditNotes.createdAt), desc(creditNotes.creditNoteSeq))
    .limit(limit);
}
