import { createRequire } from "node:module";
import { openSync } from "fontkit";
import { PDFParse } from "pdf-parse";
import { describe, expect, it } from "vitest";
import { COUNTRY_CURRENCY, FALLBACK_RATES, SELECTABLE_CURRENCIES } from "~/features/currency/currency";
import { CURRENCY_LOCALES, formatMoney } from "~/features/money/format";
import { drawableText, PDF_FONT_FILES, pdfFonts, renderInvoicePdf } from "./invoice-pdf.server";
import type { InvoiceViewInput } from "./invoice-view";

const business = {
  name: "Portico IT Services",
  legalName: "Portico IT Services",
  email: "support@portico.example",
  phone: "+1 (555) 010-2030",
  whatsapp: "15550102030",
  address: "100 Main Street",
  hours: { weekdays: "", saturday: "", sunday: "", emergency: "" },
  social: {},
} as never;

describe("renderInvoicePdf", () => {
  it("makes a PDF whose text holds the number, the client, the line and the total", async () => {
    const pdf = await renderInvoicePdf(
      {
        invoice: {
          id: "i1",
          invoiceNumber: "INV-2026-0007",
          status: "paid",
          currency: "EUR",
          subtotal: 73.6,
          taxRatePercent: 0,
          taxAmount: 0,
          totalAmount: 73.6,
          amountUsd: 80,
          exchangeRate: 0.92,
          dueDate: new Date("2026-01-08T00:00:00Z"),
          paidAt: new Date("2026-01-02T00:00:00Z"),
          createdAt: new Date("2026-01-01T00:00:00Z"),
        },
        order: {
          serviceName: "Email Migration & Setup",
          packageName: "Per Mailbox",
          quantity: 20,
          unitPriceUsd: 4,
          serviceCategory: "Email",
        },
        client: {
          name: "Ada Lovelace",
          email: "ada@example.com",
          phone: null,
          company: "Analytical Engines",
        },
      },
      business,
    );
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const parser = new PDFParse({ data: new Uint8Array(pdf) });
    const { text } = await parser.getText();
    await parser.destroy();
    expect(text).toContain("INV-2026-0007");
    expect(text).toContain("Ada Lovelace");
    expect(text).toContain("Email Migration & Setup");
    expect(text).toContain("73,60 €");
    expect(text).toContain("PAID");
  });

  it("writes ₹ and ₩ as the pages do, never INR or KRW as the symbol", async () => {
    const inr = await pdfText(
      invoice(
        {
          currency: "INR",
          subtotal: 1248.75,
          totalAmount: 1248.75,
          amountUsd: 15,
          exchangeRate: 83.25,
        },
        416.25,
      ),
    );
    expect(inr).toContain("₹1,248.75");
    expect(inr).toContain("1 ₹832.50 ₹832.50");
    expect(inr).toContain("Certificate procurement");
    expect(inr).toContain("1 ₹416.25 ₹416.25");
    expect(inr).not.toMatch(/INR\s*[\d,.]+\d/);
    const krw = await pdfText(
      invoice({ currency: "KRW", subtotal: 19950, totalAmount: 19950, amountUsd: 15, exchangeRate: 1330 }),
    );
    expect(krw).toContain("₩19,950");
    expect(krw).not.toMatch(/KRW\s*[\d,.]+\d/);
    // Names outside Latin script are drawn too (Helvetica made them "?").
    expect(krw).toContain("Ωmega Ltd");
  });
});

describe("a refunded invoice's PDF", () => {
  it("reads PARTIALLY REFUNDED, then REFUNDED, with a Refunded line and the credit note numbers", async () => {
    const paid = invoice({
      currency: "INR",
      status: "paid",
      paidAt: new Date("2026-01-02T00:00:00Z"),
      subtotal: 1248.75,
      totalAmount: 1248.75,
      amountUsd: 15,
      exchangeRate: 83.25,
      refundedAmount: 416.25,
    });
    const partial = await pdfText({ ...paid, creditNotes: [{ id: "n1", creditNoteNumber: "CN-2026-0001" }] });
    expect(partial).toContain("PARTIALLY REFUNDED");
    expect(partial).toMatch(/Refunded\s+₹416\.25/);
    expect(partial).toContain("₹416.25 of ₹1,248.75 refunded (credit note CN-2026-0001)");
    expect(partial).toContain("Thank you for your payment.");
    const full = await pdfText({
      ...paid,
      invoice: { ...paid.invoice, refundedAmount: 1248.75 },
      creditNotes: [
        { id: "n1", creditNoteNumber: "CN-2026-0001" },
        { id: "n2", creditNoteNumber: "CN-2026-0002" },
      ],
    });
    expect(full).toContain("REFUNDED");
    expect(full).not.toContain("PARTIALLY");
    expect(full).toContain("(credit notes CN-2026-0001, CN-2026-0002)");
    // Nothing refunded: no Refunded line.
    const untouched = await pdfText({ ...paid, invoice: { ...paid.invoice, refundedAmount: 0 } });
    expect(untouched).toContain("PAID");
    expect(untouched).not.toContain("Refunded");
  });
});

/** Every currency the site can show: the selector's, the rate table's, the display formats', the countries'. */
const CURRENCIES = [
  ...new Set([
    ...SELECTABLE_CURRENCIES,
    ...Object.keys(FALLBACK_RATES),
    ...Object.keys(CURRENCY_LOCALES),
    ...Object.values(COUNTRY_CURRENCY),
  ]),
].sort();

describe("the PDF's font", () => {
  // Read straight from the font files with fontkit, independently of the module's own check.
  const require = createRequire(import.meta.url);
  const faces = [
    openSync(require.resolve(PDF_FONT_FILES.regular)),
    openSync(require.resolve(PDF_FONT_FILES.bold)),
  ];
  const inFont = (ch: string) =>
    faces.every((f) => "hasGlyphForCodePoint" in f && f.hasGlyphForCodePoint(ch.codePointAt(0)!));

  it("has a glyph for every character the page's formatter writes, for every currency", async () => {
    const { covers } = await pdfFonts();
    expect(CURRENCIES.length).toBeGreaterThan(50);
    for (const currency of CURRENCIES) {
      for (const amount of [-1234567.5, 0.5, 1234.5]) {
        const page = formatMoney(amount, currency);
        const drawn = drawableText(page, covers);
        expect(
          [...drawn].filter((ch) => !inFont(ch)),
          `${currency}: ${page}`,
        ).toEqual([]);
        expect(drawn, currency).not.toContain("?");
        // Only the Japanese locale's full-width yen is changed (to ¥); everything else is drawn as is.
        expect(drawn, currency).toBe(currency === "JPY" ? page.replace("￥", "¥") : page);
      }
    }
  });

  it("draws the symbols the pages show", async () => {
    const { covers } = await pdfFonts();
    const symbols: Record<string, string> = {
      INR: "₹",
      KRW: "₩",
      EUR: "€",
      GBP: "£",
      JPY: "¥",
      CNY: "¥",
      TRY: "₺",
      RUB: "₽",
      THB: "฿",
      ILS: "₪",
      PHP: "₱",
      VND: "₫",
      PLN: "zł",
      CZK: "Kč",
    };
    for (const [currency, symbol] of Object.entries(symbols)) {
      expect(drawableText(formatMoney(1234.5, currency), covers), currency).toContain(symbol);
    }
  });

  it("writes what it cannot draw as its compatibility form, else '?'", async () => {
    const { covers } = await pdfFonts();
    expect(drawableText("￥1,200", covers)).toBe("¥1,200");
    expect(drawableText("Ada\nLovelace", covers)).toBe("Ada\nLovelace");
    expect(drawableText("東京 Ltd", covers)).toBe("?? Ltd");
  });
});

function invoice(over: Partial<InvoiceViewInput["invoice"]>, procurement?: number): InvoiceViewInput {
  return {
    invoice: {
      id: "i2",
      invoiceNumber: "INV-2026-0042",
      status: "sent",
      currency: "USD",
      subtotal: 15,
      taxRatePercent: 0,
      taxAmount: 0,
      totalAmount: 15,
      amountUsd: 15,
      exchangeRate: 1,
      dueDate: new Date("2026-01-08T00:00:00Z"),
      paidAt: null,
      createdAt: new Date("2026-01-01T00:00:00Z"),
      ...over,
    },
    order: {
      serviceName: "SSL & HTTPS Setup",
      packageName: "Single Domain",
      quantity: 1,
      unitPriceUsd: 10,
      serviceCategory: "Security",
      addons:
        procurement === undefined
          ? []
          : [
              {
                key: "procurement",
                name: "Certificate procurement",
                unitPriceUsd: 5,
                quantity: 1,
                amountUsd: 5,
                amountInCurrency: procurement,
              },
            ],
    },
    client: { name: "Grace", email: "grace@example.com", phone: null, company: "Ωmega Ltd" },
  };
}

async function pdfText(input: InvoiceViewInput): Promise<string> {
  const pdf = await renderInvoicePdf(input, business);
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  const { text } = await parser.getText();
  await parser.destroy();
  return text;
}
