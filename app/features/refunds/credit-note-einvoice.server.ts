/**
 * A credit note's e-invoice files (issue 40, item 4): type 381, naming the invoice it corrects (BT-25),
 * with that invoice's VAT treatment as frozen on the note; in the same formats as an invoice's.
 */
import type { Config } from "~/config.server";
import {
  type EInvoiceFormat,
  type EInvoiceOutcome,
  writeEInvoice,
} from "~/features/invoices/einvoice-files.server";
import { creditNoteEInvoice } from "~/features/invoices/einvoice-mapping";
import { readBuyer, readSeller, sellerSnapshot } from "~/features/invoices/invoice-parties";
import { toMinorUnits } from "~/features/money/minor-units";
import { readDocumentTax } from "~/features/tax/document-tax";
import { renderCreditNotePdf } from "./credit-note-pdf.server";
import type { CreditNoteDocument } from "./credit-notes.server";

type TaxConfig = Pick<Config, "business"> & Partial<Pick<Config, "tax">>;

/** The stored credit note as an EN 16931 document, with its stored tax and total to check it against. */
export function creditNoteAsEInvoice(found: CreditNoteDocument, config: TaxConfig) {
  const n = found.creditNote;
  const doc = creditNoteEInvoice(
    {
      number: n.creditNoteNumber,
      issuedAt: n.createdAt,
      dueDate: null,
      currency: n.currency,
      subtotal: n.subtotal,
      taxAmount: n.taxAmount,
      totalAmount: n.totalAmount,
      buyer: readBuyer(n.buyer, found.client),
      seller: n.seller ? readSeller(n.seller, config.business) : sellerSnapshot(config.business, config.tax),
      tax: readDocumentTax(n.tax, Number(n.taxRatePercent)),
      reason: n.reason,
    },
    { number: found.invoice.invoiceNumber, issuedAt: found.invoice.createdAt },
  );
  const stored = {
    taxMinor: toMinorUnits(n.taxAmount, n.currency),
    totalMinor: toMinorUnits(n.totalAmount, n.currency),
  };
  return { doc, stored };
}

export async function creditNoteEInvoiceFile(
  found: CreditNoteDocument,
  format: EInvoiceFormat,
  config: TaxConfig,
): Promise<EInvoiceOutcome> {
  const { doc, stored } = creditNoteAsEInvoice(found, config);
  return writeEInvoice(doc, stored, format, (xml) =>
    renderCreditNotePdf(found, config.business, { facturX: { xml } }),
  );
}
