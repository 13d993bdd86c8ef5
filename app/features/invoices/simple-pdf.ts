/**
 * A one-page PDF of text lines (PDF 1.4, Helvetica, WinAnsi), with no dependencies: what the portal's
 * "Download All" puts in its zip until the invoice view's own renderer (issue 11) is wired in its place.
 * Pure: no I/O, unit-tested beside it.
 */

/** Text a PDF string can hold: Latin-1 only (other characters become '?'), with \ ( ) escaped. */
export function pdfText(value: string): string {
  return value.replace(/[^\x20-\x7e\xa0-\xff]/g, "?").replace(/[\\()]/g, (c) => `\\${c}`);
}

export interface PdfLine {
  text: string;
  /** Font size in points (default 11). */
  size?: number;
  /** Extra space above, in points. */
  gapBefore?: number;
}

/** Builds the PDF bytes; the cross-reference table carries each object's exact byte offset. */
export function simplePdf(lines: PdfLine[], title: string): Uint8Array {
  let y = 800;
  const ops: string[] = ["BT"];
  for (const line of lines) {
    const size = line.size ?? 11;
    y -= (line.gapBefore ?? 0) + size * 1.5;
    ops.push(`/F1 ${size} Tf`, `1 0 0 1 50 ${Math.max(y, 40).toFixed(0)} Tm`, `(${pdfText(line.text)}) Tj`);
  }
  ops.push("ET");
  const content = ops.join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Title (${pdfText(title)}) /Producer (Portico) >>`,
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, "latin1"));
}
