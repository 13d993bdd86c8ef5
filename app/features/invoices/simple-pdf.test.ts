import { describe, expect, it } from "vitest";
import { pdfText, simplePdf } from "./simple-pdf";

describe("simplePdf", () => {
  it("escapes text and replaces what Latin-1 cannot hold", () => {
    expect(pdfText("a (b) \\ c")).toBe("a \\(b\\) \\\\ c");
    expect(pdfText("₹ 100 – café")).toBe("? 100 ? café");
  });

  it("writes a PDF whose cross-reference offsets point at its objects", () => {
    const bytes = simplePdf(
      [{ text: "Invoice INV-2026-0001", size: 18 }, { text: "Total: USD 25.00" }],
      "INV-2026-0001",
    );
    const text = Buffer.from(bytes).toString("latin1");
    expect(text.startsWith("%PDF-1.4\n")).toBe(true);
    expect(text.trimEnd().endsWith("%%EOF")).toBe(true);
    expect(text).toContain("(Invoice INV-2026-0001) Tj");
    const startxref = Number(text.match(/startxref\n(\d+)/)![1]);
    expect(text.slice(startxref, startxref + 4)).toBe("xref");
    const entries = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(entries).toHaveLength(6);
    for (const [i, offset] of entries.entries())
      expect(text.slice(offset, offset + 8)).toBe(`${i + 1} 0 obj\n`);
  });
});
