/**
 * What a credit note shows, computed once for its pages (the client's, the owner's) and its PDF alike
 * (pure: no React, no I/O). The buyer and the seller are the copies frozen on the note when it was
 * issued (the invoice's own), so it prints them as issued whatever changed since (ADR 0504).
 */

import type { BusinessIdentity } from "~/features/business/business";
import { type BuyerSource, readBuyer, readSeller } from "~/features/invoices/invoice-parties";
import {
  type BillToBlock,
  billToBlock,
  documentDate,
  type SellerBlock,
  sellerBlock,
  usdNoteFor,
} from "~/features/invoices/invoice-view";
import { formatMoney } from "~/features/money/format";
import { readDocumentTax, taxLineLabel, taxNotes } from "~/features/tax/document-tax";

export interface CreditNoteViewInput {
  creditNote: {
    id: string;
    creditNoteNumber: string;
    currency: string;
    /** Positive amounts: what is credited before tax, its tax, the total. */
    subtotal: number;
    taxRatePercent: number;
    taxAmount: number;
    totalAmount: number;
    amountUsd: number;
    exchangeRate: number;
    reason: string;
    createdAt: Date | string;
    /** The copies frozen when issued; null: the client and business as now. */
    buyer?: unknown;
    seller?: unknown;
    /** The VAT treatment of the invoice it credits (issue 40); absent or null: its flat rate. */
    tax?: unknown;
  };
  invoice: { id: string; invoiceNumber: string };
  /** The client as they are now: printed only by a credit note without a frozen buyer. */
  client: BuyerSource;
}

export interface CreditNoteView {
  id: string;
  number: string;
  issued: string;
  currency: string;
  invoice: { id: string; number: string };
  business: SellerBlock;
  billTo: BillToBlock;
  reason: string;
  subtotal: string;
  taxLabel: string;
  /** The words about its VAT, as on its invoice. */
  taxNotes: string[];
  tax: string;
  total: string;
  /** The total credited in USD with the invoice's rate, for a credit note in another currency; else null. */
  usdNote: string | null;
}

export function creditNoteView(
  input: CreditNoteViewInput,
  business: BusinessIdentity,
  format = formatMoney,
): CreditNoteView {
  const { creditNote: n, invoice, client } = input;
  const money = (amount: number) => format(amount, n.currency);
  return {
    id: n.id,
    number: n.creditNoteNumber,
    issued: documentDate(n.createdAt),
    currency: n.currency,
    invoice: { id: invoice.id, number: invoice.invoiceNumber },
    business: sellerBlock(readSeller(n.seller, business)),
    billTo: billToBlock(readBuyer(n.buyer, client)),
    reason: n.reason,
    subtotal: money(n.subtotal),
    taxLabel: taxLineLabel(readDocumentTax(n.tax, Number(n.taxRatePercent))),
    taxNotes: taxNotes(readDocumentTax(n.tax, Number(n.taxRatePercent))),
    tax: money(n.taxAmount),
    total: money(n.totalAmount),
    usdNote: usdNoteFor(n.currency, n.amountUsd, n.exchangeRate, format),
  };
}
