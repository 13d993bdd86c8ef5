/**
 * The invoice as a real PDF, made on the server with PDFKit (docs/decisions/0501-invoice-pdf.md): the
 * same content as the invoice page, amounts through the page's own formatter (`formatMoney`: "₹832.50",
 * "1.234,50 €"). `renderInvoicePdf` returns the whole file as a Buffer, so a route can send one and the
 * portal's Download All can zip several. The pieces every document shares (the fonts, the seller's
 * heading, the buyer, the facts, the totals) are exported for the credit note's PDF, so both look alike.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Font } from "fontkit";
import type { BusinessIdentity } from "~/features/business/business";
import type { FacturXOptions } from "~/features/einvoice/factur-x.server";
import { pdfFileName } from "./download-all.server";
import { type BillToBlock, type InvoiceViewInput, invoiceView, type SellerBlock } from "./invoice-view";

/**
 * PDFKit's built-in Helvetica covers Windows-1252 only (no ₹, ₩, ₺, ₽, ฿…), so the PDF embeds DejaVu
 * Sans from the `dejavu-fonts-ttf` package (Bitstream Vera licence: free to embed and redistribute). It
 * draws every symbol `formatMoney` writes for the currencies the site knows (checked against the font's
 * cmap in invoice-pdf.server.test.ts); PDFKit embeds only the glyphs a document uses.
 *
 * The fonts are parsed once per process and handed to every document as fontkit objects (PDFKit takes
 * those as well as files): parsing DejaVu's layout tables per document made each PDF cost 30 ms.
 */
export const PDF_FONT_FILES = {
  regular: "dejavu-fonts-ttf/ttf/DejaVuSans.ttf",
  bold: "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf",
} as const;

export interface PdfFonts {
  regular: Font;
  bold: Font;
  /** Whether both faces have a glyph for a code point. */
  covers(codePoint: number): boolean;
}

let loading: Promise<PdfFonts> | null = null;

/** The fonts, read and indexed once per process on the first PDF (ADR 0803: loaded on first use). */
export function pdfFonts(): Promise<PdfFonts> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const [files, { create }] = await Promise.all([
      Promise.all([
        readFile(require.resolve(PDF_FONT_FILES.regular)),
        readFile(require.resolve(PDF_FONT_FILES.bold)),
      ]),
      import("fontkit"),
    ]);
    const [regular, bold] = files.map((file) => {
      const font = create(file);
      if (!("layout" in font)) throw new Error("the PDF font file is a collection, not one font");
      return font;
    }) as [Font, Font];
    const covers = (codePoint: number) =>
      regular.hasGlyphForCodePoint(codePoint) && bold.hasGlyphForCodePoint(codePoint);
    return { regular, bold, covers };
  })().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/**
 * Text as the fonts can draw it (PDFKit would silently draw an empty .notdef box): a character they
 * lack becomes its compatibility form when they have that (the Japanese locale's full-width ￥ → ¥),
 * else "?". Line breaks and other controls pass through to PDFKit.
 */
export function drawableText(text: string, covers: (codePoint: number) => boolean): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || covers(code)) {
      out += ch;
      continue;
    }
    const compat = ch.normalize("NFKC");
    out += compat !== ch && [...compat].every((c) => covers(c.codePointAt(0)!)) ? compat : "?";
  }
  return out;
}

/** A document being drawn: PDFKit's, the fonts' `safe` text, the margins, and its end. */
export interface PdfCanvas {
  doc: PDFKit.PDFDocument;
  /** Text as the embedded fonts can draw it (`drawableText`). */
  safe(text: string): string;
  left: number;
  right: number;
  width: number;
  /** Ends the document; the whole file. */
  finish(): Promise<Buffer>;
}

const INK = "#0f172a";
const GREY = "#475569";

/** How a document is rendered: `facturX` makes it a Factur-X PDF/A-3b carrying that XML (ADR 0544). */
export interface PdfOptions {
  facturX?: FacturXOptions;
}

/**
 * A new A4 document with the embedded fonts registered as "Body" and "Bold". `createdAt` is the document's
 * own date (an invoice's issue date): PDFKit would otherwise stamp the moment of rendering and derive the
 * file's ID from it, so the same invoice would be a different file at each download (and after a
 * restore, ADR 0902). With `facturX` the document is PDF/A-3b with the XML embedded as factur-x.xml.
 */
export async function openPdf(
  info: { title: string; author: string; createdAt?: Date },
  options: PdfOptions = {},
): Promise<PdfCanvas> {
  // Loaded on the first PDF, not at start: PDFKit and its fonts are tens of MB few requests need (ADR 0803);
  // Factur-X (and the XML library under it) on the first Factur-X PDF.
  const [{ default: PDFDocument }, fonts, facturX] = await Promise.all([
    import("pdfkit"),
    pdfFonts(),
    options.facturX ? import("~/features/einvoice/factur-x.server") : null,
  ]);
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    info: {
      Title: info.title,
      Author: info.author,
      Subject: info.title,
      ...(info.createdAt ? { CreationDate: info.createdAt } : {}),
    },
    ...(facturX ? facturX.FACTUR_X_PDF_OPTIONS : {}),
  });
  if (facturX && options.facturX)
    facturX.makeFacturX(doc, options.facturX, info.createdAt ?? doc.info.CreationDate ?? new Date());
  // PDFKit accepts a parsed fontkit font where its types say only files.
  doc.registerFont("Body", fonts.regular as unknown as Buffer);
  doc.registerFont("Bold", fonts.bold as unknown as Buffer);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const left = 50;
  const right = doc.page.width - 50;
  return {
    doc,
    safe: (text) => drawableText(text, fonts.covers),
    left,
    right,
    width: right - left,
    finish() {
      doc.end();
      return done;
    },
  };
}

/**
 * The top of a document: the seller on the left; on the right the document's kind ("INVOICE"), its
 * number, then each of `lines` (a status in its colour, "for invoice …"). Returns where the next part
 * may start.
 */
export function drawDocumentHeading(
  c: PdfCanvas,
  seller: SellerBlock,
  heading: { kind: string; number: string; lines?: Array<{ text: string; color?: string; bold?: boolean }> },
): number {
  const { doc, safe, left, width } = c;
  doc.font("Bold").fontSize(20).text(safe(seller.name), left, 50);
  doc.font("Body").fontSize(9).fillColor(GREY);
  if (seller.legalName !== seller.name) doc.text(safe(seller.legalName));
  doc.text(safe(seller.address)).text(`${safe(seller.email)}  |  ${safe(seller.phone)}`);
  if (seller.taxLine) doc.text(safe(seller.taxLine));
  const sellerBottom = doc.y;

  doc.fillColor(INK).font("Bold").fontSize(16).text(heading.kind, left, 50, { width, align: "right" });
  doc.font("Body").fontSize(10).text(safe(heading.number), { width, align: "right" });
  for (const line of heading.lines ?? []) {
    doc
      .fillColor(line.color ?? INK)
      .font(line.bold ? "Bold" : "Body")
      .text(safe(line.text), { width, align: "right" });
  }
  doc.fillColor(INK).font("Body");
  doc.moveDown(3);
  return Math.max(doc.y, sellerBottom + 20, 140);
}

/** "Bill To" and the buyer, in the left half from `top`; returns the bottom. */
export function drawBillTo(c: PdfCanvas, billTo: BillToBlock, top: number): number {
  const { doc, safe, left, width } = c;
  doc.font("Bold").fontSize(10).text("Bill To", left, top);
  doc.font("Body").text(safe(billTo.name));
  if (billTo.company) doc.text(safe(billTo.company));
  for (const line of billTo.addressLines) doc.text(safe(line), { width: width / 2 - 10 });
  doc.text(safe(billTo.email));
  if (billTo.phone) doc.text(safe(billTo.phone));
  if (billTo.taxLine) doc.text(safe(billTo.taxLine));
  return doc.y;
}

/** Label and value pairs in the right half from `top`; returns the bottom. */
export function drawFacts(c: PdfCanvas, facts: Array<[string, string]>, top: number): number {
  const { doc, safe, left, width } = c;
  let y = top;
  for (const [label, value] of facts) {
    doc
      .font("Bold")
      .fontSize(10)
      .text(label, left + width / 2, y, { width: width / 4 });
    doc.font("Body").text(safe(value), left + (3 * width) / 4, y, { width: width / 4, align: "right" });
    y += 15;
  }
  return y;
}

/** The amounts, label and value in the right half, the bold ones larger; returns the bottom. */
export function drawTotals(c: PdfCanvas, rows: Array<[string, string, boolean]>, top: number): number {
  const { doc, safe, left, width } = c;
  let y = top;
  for (const [label, value, bold] of rows) {
    doc.font(bold ? "Bold" : "Body").fontSize(bold ? 12 : 10);
    doc.text(safe(label), left + width / 2, y, { width: width / 4 });
    // A label that wraps ("Deposit on acceptance (50%)") pushes the next row down, never under it.
    const labelBottom = doc.y;
    doc.text(safe(value), left + (3 * width) / 4, y, { width: width / 4, align: "right" });
    y = Math.max(y + (bold ? 20 : 16), labelBottom + 4);
  }
  return y;
}

/** A small grey line across the page, aligned right; returns the bottom. */
export function drawNote(c: PdfCanvas, text: string, top: number): number {
  const { doc, safe, left, width } = c;
  doc.font("Body").fontSize(9).fillColor(GREY).text(safe(text), left, top, { width, align: "right" });
  doc.fillColor(INK);
  return Math.max(doc.y, top + 16);
}

/** The closing line, centred under the rest. */
export function drawFooter(c: PdfCanvas, text: string, top: number): void {
  const { doc, safe, left, width } = c;
  doc
    .font("Body")
    .fillColor(GREY)
    .fontSize(9)
    .text(safe(text), left, top + 30, { width, align: "center" });
}

/** A rule across the page at `y`. */
export function drawRule(c: PdfCanvas, y: number): void {
  c.doc.moveTo(c.left, y).lineTo(c.right, y).strokeColor("#cbd5e1").stroke();
}

/** The colour of a status on paper: paid green, refunds slate or amber, anything unpaid red. */
const STATUS_COLORS: Record<string, string> = {
  paid: "#15803d",
  refunded: GREY,
  partially_refunded: "#b45309",
};

/** The invoice's PDF; with `options.facturX` a Factur-X PDF/A-3b carrying that CII XML (ADR 0544). */
export async function renderInvoicePdf(
  input: InvoiceViewInput,
  business: BusinessIdentity,
  options: PdfOptions = {},
): Promise<Buffer> {
  const v = invoiceView(input, business);
  const c = await openPdf(
    {
      title: v.title,
      author: v.business.name,
      createdAt: new Date(input.invoice.createdAt),
    },
    options,
  );
  const { doc, safe, left, right, width } = c;

  const top = drawDocumentHeading(c, v.business, {
    // "DEPOSIT INVOICE" or "BALANCE INVOICE" for a quote's part (issue 37, item 2).
    kind: v.title.slice(0, -v.number.length).trim().toUpperCase(),
    number: v.number,
    lines: [
      { text: v.statusLabel.toUpperCase(), color: STATUS_COLORS[v.displayStatus] ?? "#b91c1c", bold: true },
    ],
  });
  const billToBottom = drawBillTo(c, v.billTo, top);
  const factsBottom = drawFacts(
    c,
    [
      ["Invoice Date", v.issued],
      ["Due Date", v.due],
      ...(v.paid ? ([["Paid On", v.paid]] as Array<[string, string]>) : []),
      ["Currency", v.currency],
    ],
    top,
  );

  // The lines.
  let y = Math.max(billToBottom, factsBottom) + 30;
  const cols = {
    desc: left,
    qty: left + width * 0.55,
    unit: left + width * 0.67,
    amount: left + width * 0.82,
  };
  doc.rect(left, y - 5, width, 20).fill("#f1f5f9");
  doc.fillColor(INK).font("Bold").fontSize(10);
  doc.text("Description", cols.desc + 5, y);
  doc.text("Qty", cols.qty, y, { width: 50, align: "right" });
  doc.text("Unit Price", cols.unit, y, { width: 70, align: "right" });
  doc.text("Amount", cols.amount, y, { width: right - cols.amount, align: "right" });
  y += 25;
  doc.font("Body");
  for (const line of v.lines) {
    doc.text(safe(line.description), cols.desc + 5, y, { width: width * 0.5 });
    doc
      .fontSize(8)
      .fillColor(GREY)
      .text(safe(line.detail), { width: width * 0.5 });
    doc.fontSize(10).fillColor(INK);
    doc.text(String(line.quantity), cols.qty, y, { width: 50, align: "right" });
    doc.text(safe(line.unitPrice), cols.unit, y, { width: 70, align: "right" });
    doc.text(safe(line.amount), cols.amount, y, { width: right - cols.amount, align: "right" });
    y += 40;
  }
  drawRule(c, y);
  y += 10;

  y = drawTotals(
    c,
    [
      ["Subtotal", v.subtotal, false],
      [v.taxLabel, v.tax, false],
      ["Total", v.total, true],
    ],
    y,
  );
  if (v.usdNote) y = drawNote(c, `Total in USD: ${v.usdNote}`, y);
  for (const note of v.taxNotes) y = drawNote(c, note, y);
  if (v.refund) {
    y = drawTotals(
      c,
      [
        ["Refunded", v.refund.amount, false],
        ["Net paid", v.refund.netPaid, true],
      ],
      y + 4,
    );
    const numbers = v.refund.creditNotes.map((n) => n.number);
    y = drawNote(
      c,
      numbers.length === 0
        ? v.refund.line
        : `${v.refund.line} (credit note${numbers.length > 1 ? "s" : ""} ${numbers.join(", ")})`,
      y,
    );
  }
  drawFooter(
    c,
    v.tone === "paid"
      ? "Thank you for your payment."
      : `Please pay by ${v.due}. Thank you for your business.`,
    y,
  );
  return c.finish();
}

/** A PDF as a download named after its document's number ("INV-2026-0001.pdf"), never cached. */
export function pdfDownload(pdf: Buffer, documentNumber: string): Response {
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${pdfFileName(documentNumber)}"`,
      "Content-Length": String(pdf.length),
      "Cache-Control": "private, no-store",
    },
  });
}
