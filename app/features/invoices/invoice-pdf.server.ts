/**
 * The invoice as a real PDF, made on the server with PDFKit (docs/decisions/0501-invoice-pdf.md): the
 * same content as the invoice page. `renderInvoicePdf` returns the whole file as a Buffer, so a route
 * can send one and the portal's Download All can zip several.
 */
import type { BusinessIdentity } from "~/features/business/business";
import { formatMoney } from "~/features/currency/currency";
import { type InvoiceViewInput, invoiceView } from "./invoice-view";

/**
 * PDFKit's built-in Helvetica covers the Windows-1252 characters only. Amounts whose symbol lies
 * outside it (₹, ₩, ₺, …) are written with the ISO code instead ("INR 999.00"), still through Intl.
 */
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
function pdfSafe(text: string): boolean {
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code > 0xff && !WIN_ANSI_EXTRA.has(ch)) return false;
  }
  return true;
}

export function pdfMoney(amount: number, currency: string): string {
  const text = formatMoney(amount, currency).replace(/[\u202f\u2009]/g, " ");
  if (pdfSafe(text)) return text;
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency, currencyDisplay: "code" })
      .format(amount)
      .replace(/\u00a0/g, " ");
  } catch {
    return `${currency} ${amount}`;
  }
}

/** Text outside what Helvetica can draw becomes "?" rather than garbage. */
function safe(text: string): string {
  if (pdfSafe(text)) return text;
  return [...text].map((ch) => (pdfSafe(ch) ? ch : "?")).join("");
}

export async function renderInvoicePdf(input: InvoiceViewInput, business: BusinessIdentity): Promise<Buffer> {
  // Loaded on the first PDF, not at start: PDFKit and its fonts are tens of MB few requests need (ADR 0803).
  const { default: PDFDocument } = await import("pdfkit");
  const v = invoiceView(input, business, pdfMoney);
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    info: { Title: `Invoice ${v.number}`, Author: v.business.name, Subject: `Invoice ${v.number}` },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const left = 50;
  const right = doc.page.width - 50;
  const width = right - left;

  doc.font("Helvetica-Bold").fontSize(20).text(safe(v.business.name), left, 50);
  doc.font("Helvetica").fontSize(9).fillColor("#475569");
  if (v.business.legalName !== v.business.name) doc.text(safe(v.business.legalName));
  doc.text(safe(v.business.address)).text(`${safe(v.business.email)}  |  ${safe(v.business.phone)}`);

  doc
    .fillColor("#0f172a")
    .font("Helvetica-Bold")
    .fontSize(16)
    .text("INVOICE", left, 50, { width, align: "right" });
  doc.font("Helvetica").fontSize(10).text(v.number, { width, align: "right" });
  doc
    .fillColor(v.tone === "paid" ? "#15803d" : "#b91c1c")
    .font("Helvetica-Bold")
    .text(v.statusLabel.toUpperCase(), {
      width,
      align: "right",
    });
  doc.fillColor("#0f172a").font("Helvetica");

  doc.moveDown(3);
  const top = Math.max(doc.y, 140);
  doc.font("Helvetica-Bold").fontSize(10).text("Bill To", left, top);
  doc.font("Helvetica").text(safe(v.billTo.name));
  if (v.billTo.company) doc.text(safe(v.billTo.company));
  doc.text(safe(v.billTo.email));
  if (v.billTo.phone) doc.text(safe(v.billTo.phone));

  const meta: Array<[string, string]> = [
    ["Invoice Date", v.issued],
    ["Due Date", v.due],
    ...(v.paid ? ([["Paid On", v.paid]] as Array<[string, string]>) : []),
    ["Currency", v.currency],
  ];
  let y = top;
  for (const [label, value] of meta) {
    doc.font("Helvetica-Bold").text(label, left + width / 2, y, { width: width / 4 });
    doc.font("Helvetica").text(value, left + (3 * width) / 4, y, { width: width / 4, align: "right" });
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
  doc.fillColor("#0f172a").font("Helvetica-Bold").fontSize(10);
  doc.text("Description", cols.desc + 5, y);
  doc.text("Qty", cols.qty, y, { width: 50, align: "right" });
  doc.text("Unit Price", cols.unit, y, { width: 70, align: "right" });
  doc.text("Amount", cols.amount, y, { width: right - cols.amount, align: "right" });
  y += 25;
  doc.font("Helvetica");
  for (const line of v.lines) {
    doc.text(safe(line.description), cols.desc + 5, y, { width: width * 0.5 });
    doc
      .fontSize(8)
      .fillColor("#475569")
      .text(safe(line.detail), { width: width * 0.5 });
    doc.fontSize(10).fillColor("#0f172a");
    doc.text(String(line.quantity), cols.qty, y, { width: 50, align: "right" });
    doc.text(line.unitPrice, cols.unit, y, { width: 70, align: "right" });
    doc.text(line.amount, cols.amount, y, { width: right - cols.amount, align: "right" });
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
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(bold ? 12 : 10);
    doc.text(label, left + width / 2, y, { width: width / 4 });
    doc.text(value, left + (3 * width) / 4, y, { width: width / 4, align: "right" });
    y += bold ? 20 : 16;
  }
  if (v.usdNote) {
    doc
      .font("Helvetica")
      .fontSize(9)
      .fillColor("#475569")
      .text(`Total in USD: ${v.usdNote}`, left, y, { width, align: "right" });
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
