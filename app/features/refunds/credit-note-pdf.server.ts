/**
 * The credit note as a real PDF, drawn with the invoice PDF's own pieces (invoice-pdf.server.ts): the
 * same fonts (every currency symbol `formatMoney` writes), the same heading, buyer and totals, so the
 * two documents look alike. The content is the credit note page's (`creditNoteView`).
 */
import type { BusinessIdentity } from "~/features/business/business";
import {
  drawBillTo,
  drawDocumentHeading,
  drawFacts,
  drawFooter,
  drawNote,
  drawRule,
  drawTotals,
  openPdf,
  type PdfOptions,
} from "~/features/invoices/invoice-pdf.server";
import { type CreditNoteViewInput, creditNoteView } from "./credit-note-view";

/** The credit note's PDF; with `options.facturX` a Factur-X PDF/A-3b carrying that CII XML (ADR 0544). */
export async function renderCreditNotePdf(
  input: CreditNoteViewInput,
  business: BusinessIdentity,
  options: PdfOptions = {},
): Promise<Buffer> {
  const v = creditNoteView(input, business);
  const c = await openPdf(
    {
      title: `Credit note ${v.number}`,
      author: v.business.name,
      createdAt: new Date(input.creditNote.createdAt),
    },
    options,
  );
  const { doc, safe, left, width } = c;

  const top = drawDocumentHeading(c, v.business, {
    kind: "CREDIT NOTE",
    number: v.number,
    lines: [{ text: `for invoice ${v.invoice.number}` }],
  });
  const billToBottom = drawBillTo(c, v.billTo, top);
  const factsBottom = drawFacts(
    c,
    [
      ["Date", v.issued],
      ["Invoice", v.invoice.number],
      ["Currency", v.currency],
    ],
    top,
  );

  let y = Math.max(billToBottom, factsBottom) + 30;
  doc.font("Bold").fontSize(10).text("Reason", left, y);
  doc.font("Body").text(safe(v.reason), { width });
  y = doc.y + 10;
  drawRule(c, y);
  y += 10;

  y = drawTotals(
    c,
    [
      ["Amount before tax", v.subtotal, false],
      [v.taxLabel, v.tax, false],
      ["Total credited", v.total, true],
    ],
    y,
  );
  if (v.usdNote) y = drawNote(c, `Total credited in USD: ${v.usdNote}`, y);
  for (const note of v.taxNotes) y = drawNote(c, note, y);
  drawFooter(c, `This credit note records a refund of invoice ${v.invoice.number}.`, y);
  return c.finish();
}
