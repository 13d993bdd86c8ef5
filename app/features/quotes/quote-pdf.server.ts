/**
 * The quote as a real PDF (issue "quotes"), drawn with the invoice PDF's own pieces
 * (invoice-pdf.server.ts): the same fonts, heading, facts and totals, so the documents look alike. The
 * content is the quote page's (`quoteView`): its lines, amounts, deposit and balance, then its terms in
 * full, and the acceptance once it was given.
 */
import type { BusinessIdentity } from "~/features/business/business";
import {
  drawDocumentHeading,
  drawFacts,
  drawFooter,
  drawNote,
  drawRule,
  drawTotals,
  openPdf,
} from "~/features/invoices/invoice-pdf.server";
import type { TimeZone } from "~/ui/format";
import { type QuoteViewInput, quoteView } from "./quote-view";

const INK = "#0f172a";
const GREY = "#475569";

export async function renderQuotePdf(
  input: QuoteViewInput,
  business: BusinessIdentity,
  now: Date = new Date(),
  /** The client's zone, for the time of an acceptance (ADR 0521); the seller's otherwise. */
  timeZone?: TimeZone,
): Promise<Buffer> {
  const v = quoteView(input, business, now, undefined, timeZone);
  const c = await openPdf({ title: `Quote ${v.number}`, author: v.business.name });
  const { doc, safe, left, right, width } = c;

  const top = drawDocumentHeading(c, v.business, {
    kind: "QUOTE",
    number: v.number,
    lines: [{ text: v.statusLabel.toUpperCase(), bold: true }],
  });

  // Who it is for, on the left; its dates on the right.
  doc.font("Bold").fontSize(10).text("Prepared For", left, top);
  doc.font("Body").text(safe(v.preparedFor.name));
  if (v.preparedFor.company) doc.text(safe(v.preparedFor.company));
  doc.text(safe(v.preparedFor.email));
  const forBottom = doc.y;
  const factsBottom = drawFacts(
    c,
    [
      ["Quote Date", v.issued],
      ["Valid Until", v.validUntil],
      ["Currency", "USD"],
    ],
    top,
  );

  // The lines.
  let y = Math.max(forBottom, factsBottom) + 30;
  const cols = {
    desc: left,
    qty: left + width * 0.55,
    unit: left + width * 0.67,
    amount: left + width * 0.82,
  };
  const header = () => {
    doc.rect(left, y - 5, width, 20).fill("#f1f5f9");
    doc.fillColor(INK).font("Bold").fontSize(10);
    doc.text("Description", cols.desc + 5, y);
    doc.text("Qty", cols.qty, y, { width: 50, align: "right" });
    doc.text("Unit Price", cols.unit, y, { width: 70, align: "right" });
    doc.text("Amount", cols.amount, y, { width: right - cols.amount, align: "right" });
    y += 25;
    doc.font("Body");
  };
  header();
  const bottom = doc.page.height - doc.page.margins.bottom;
  for (const line of v.lines) {
    if (y > bottom - 60) {
      doc.addPage();
      y = doc.page.margins.top;
      header();
    }
    doc
      .fontSize(10)
      .fillColor(INK)
      .text(safe(line.description), cols.desc + 5, y, { width: width * 0.5 });
    if (line.detail)
      doc
        .fontSize(8)
        .fillColor(GREY)
        .text(safe(line.detail), { width: width * 0.5 });
    const textBottom = doc.y;
    doc.fontSize(10).fillColor(INK);
    doc.text(String(line.quantity), cols.qty, y, { width: 50, align: "right" });
    doc.text(safe(line.unitPrice), cols.unit, y, { width: 70, align: "right" });
    doc.text(safe(line.amount), cols.amount, y, { width: right - cols.amount, align: "right" });
    y = Math.max(textBottom, y + 16) + 10;
  }
  drawRule(c, y);
  y += 10;
  if (y > bottom - 140) {
    doc.addPage();
    y = doc.page.margins.top;
  }
  y = drawTotals(
    c,
    [
      ["Subtotal", v.subtotal, false],
      ...(v.discount ? ([["Discount", v.discount, false]] as Array<[string, string, boolean]>) : []),
      [v.taxLabel, v.tax, false],
      ["Total", v.total, true],
      ...(v.deposit
        ? ([
            [`Deposit on acceptance (${v.deposit.percent}%)`, v.deposit.amount, false],
            ["Balance on completion", v.deposit.balance, false],
          ] as Array<[string, string, boolean]>)
        : []),
    ],
    y,
  );

  for (const note of v.taxNotes) y = drawNote(c, note, y);

  // The terms, in full.
  y += 20;
  if (y > bottom - 60) {
    doc.addPage();
    y = doc.page.margins.top;
  }
  doc.fillColor(INK).font("Bold").fontSize(11).text("Terms", left, y);
  doc
    .font("Body")
    .fontSize(9)
    .text(safe(v.terms), left, doc.y + 4, { width });
  y = doc.y + 10;
  if (v.accepted) {
    doc
      .font("Bold")
      .fontSize(10)
      .text(
        safe(
          `Accepted by ${v.accepted.name}${v.accepted.company ? ` for ${v.accepted.company}` : ""} on ${v.accepted.at}.`,
        ),
        left,
        y,
        { width },
      );
    y = doc.y;
  } else if (v.closedNote) {
    doc.font("Body").fontSize(10).fillColor(GREY).text(safe(v.closedNote), left, y, { width });
    doc.fillColor(INK);
    y = doc.y;
  }
  drawFooter(
    c,
    v.open
      ? `This quote is valid until ${v.validUntil}. Accept it in your client portal.`
      : "Thank you for your business.",
    y,
  );
  return c.finish();
}
