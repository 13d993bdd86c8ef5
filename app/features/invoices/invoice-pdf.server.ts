/**
 * The invoice as a real PDF, made on the server with PDFKit (docs/decisions/0501-invoice-pdf.md): the
 * same content as the invoice page, amounts through the page's own formatter (`formatMoney`: "₹832.50",
 * "1.234,50 €"). `renderInvoicePdf` returns the whole file as a Buffer, so a route can send one and the
 * portal's Download All can zip several.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Font } from "fontkit";
import type { BusinessIdentity } from "~/features/business/business";
import { type InvoiceViewInput, invoiceView } from "./invoice-view";

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

export async function renderInvoicePdf(input: InvoiceViewInput, business: BusinessIdentity): Promise<Buffer> {
  // Loaded on the first PDF, not at start: PDFKit and its fonts are tens of MB few requests need (ADR 0803).
  const [{ default: PDFDocument }, fonts] = await Promise.all([import("pdfkit"), pdfFonts()]);
  const safe = (text: string) => drawableText(text, fonts.covers);
  const v = invoiceView(input, business);
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    info: { Title: `Invoice ${v.number}`, Author: v.business.name, Subject: `Invoice ${v.number}` },
  });
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
  const width = right - left;

  doc.font("Bold").fontSize(20).text(safe(v.business.name), left, 50);
  doc.font("Body").fontSize(9).fillColor("#475569");
  if (v.business.legalName !== v.business.name) doc.text(safe(v.business.legalName));
  doc.text(safe(v.business.address)).text(`${safe(v.business.email)}  |  ${safe(v.business.phone)}`);
  if (v.business.taxLine) doc.text(safe(v.business.taxLine));

  doc.fillColor("#0f172a").font("Bold").fontSize(16).text("INVOICE", left, 50, { width, align: "right" });
  doc.font("Body").fontSize(10).text(v.number, { width, align: "right" });
  doc
    .fillColor(v.tone === "paid" ? "#15803d" : "#b91c1c")
    .font("Bold")
    .text(v.statusLabel.toUpperCase(), {
      width,
      align: "right",
    });
  doc.fillColor("#0f172a").font("Body");

  doc.moveDown(3);
  const top = Math.max(doc.y, 140);
  doc.font("Bold").fontSize(10).text("Bill To", left, top);
  doc.font("Body").text(safe(v.billTo.name));
  if (v.billTo.company) doc.text(safe(v.billTo.company));
  for (const line of v.billTo.addressLines) doc.text(safe(line), { width: width / 2 - 10 });
  doc.text(safe(v.billTo.email));
  if (v.billTo.phone) doc.text(safe(v.billTo.phone));
  if (v.billTo.taxLine) doc.text(safe(v.billTo.taxLine));

  const meta: Array<[string, string]> = [
    ["Invoice Date", v.issued],
    ["Due Date", v.due],
    ...(v.paid ? ([["Paid On", v.paid]] as Array<[string, string]>) : []),
    ["Currency", v.currency],
  ];
  let y = top;
  for (const [label, value] of meta) {
    doc.font("Bold").text(label, left + width / 2, y, { width: width / 4 });
    doc.font("Body").text(safe(value), left + (3 * width) / 4, y, { width: width / 4, align: "right" });
    y += 15;
  }

  // The lines.
  y = Math.max(doc.y, y) + 30;
  const cols = {
    desc: left,
    qty: left + width * 0.55,
    unit: left + width * 0.67,
    amount: left + width * 0.82,
  };
  doc.rect(left, y - 5, width, 20).fill("#f1f5f9");
  doc.fillColor("#0f172a").font("Bold").fontSize(10);
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
      .fillColor("#475569")
      .text(safe(line.detail), { width: width * 0.5 });
    doc.fontSize(10).fillColor("#0f172a");
    doc.text(String(line.quantity), cols.qty, y, { width: 50, align: "right" });
    doc.text(safe(line.unitPrice), cols.unit, y, { width: 70, align: "right" });
    doc.text(safe(line.amount), cols.amount, y, { width: right - cols.amount, align: "right" });
    y += 40;
  }
  doc.moveTo(left, y).lineTo(right, y).strokeColor("#cbd5e1").stroke();
  y += 10;

  const totals: Array<[string, string, boolean]> = [
    ["Subtotal", v.subtotal, false],
    [v.taxLabel, v.tax, false],
    ["Total", v.total, true],
  ];
  for (const [label, value, bold] of totals) {
    doc.font(bold ? "Bold" : "Body").fontSize(bold ? 12 : 10);
    doc.text(label, left + width / 2, y, { width: width / 4 });
    doc.text(safe(value), left + (3 * width) / 4, y, { width: width / 4, align: "right" });
    y += bold ? 20 : 16;
  }
  if (v.usdNote) {
    doc
      .font("Body")
      .fontSize(9)
      .fillColor("#475569")
      .text(safe(`Total in USD: ${v.usdNote}`), left, y, { width, align: "right" });
    y += 16;
  }
  doc
    .fillColor("#475569")
    .fontSize(9)
    .text(
      v.tone === "paid"
        ? "Thank you for your payment."
        : `Please pay by ${v.due}. Thank you for your business.`,
      left,
      y + 30,
      { width, align: "center" },
    );
  doc.end();
  return done;
}
