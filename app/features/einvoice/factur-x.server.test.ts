import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream } from "pdf-lib";
import { PDFParse } from "pdf-parse";
import { describe, expect, it } from "vitest";
import { openPdf, renderInvoicePdf } from "~/features/invoices/invoice-pdf.server";
import type { InvoiceViewInput } from "~/features/invoices/invoice-view";
import { renderCreditNotePdf } from "~/features/refunds/credit-note-pdf.server";
import type { CreditNoteViewInput } from "~/features/refunds/credit-note-view";
import { checkFacturXPdf } from "../../../tests/support/factur-x-pdf";
import { toCii } from "./cii";
import { facturXXmp, guidelineOf, makeFacturX, xmlText } from "./factur-x.server";
import type { EInvoice } from "./model";

const business = {
  name: "Smith & Jones <IT>",
  legalName: "Smith & Jones <IT> GmbH",
  email: "billing@portico.example",
  phone: "+49 30 1234567",
  whatsapp: "4930123456",
  address: "Hauptstraße 1, 10115 Berlin",
  hours: { weekdays: "", saturday: "", sunday: "", emergency: "" },
  social: {},
} as never;

/** A small EN 16931 invoice (the model `toCii` writes), with characters XML and PDF strings must escape. */
const einvoice: EInvoice = {
  kind: "invoice",
  number: "INV-2026-0007",
  issueDate: "2026-01-01",
  dueDate: "2026-01-08",
  currency: "EUR",
  decimals: 2,
  buyerReference: null,
  preceding: null,
  notes: ["Ωmega & Söhne <Zahlung> (1/2)"],
  seller: {
    name: "Smith & Jones <IT> GmbH",
    vatNumber: "DE123456789",
    address: { line: "Hauptstraße 1", city: "Berlin", postcode: "10115", country: "DE" },
    email: "billing@portico.example",
  },
  buyer: {
    name: "Analytical Engines",
    vatNumber: "DE987654321",
    address: { line: "1 Engine Way", city: "München", postcode: "80331", country: "DE" },
    email: "ada@example.com",
  },
  lines: [{ id: "1", name: "Email Migration & Setup", quantity: 20, unitPriceMinor: 368, netMinor: 7360 }],
  tax: { category: "S", ratePercent: 19, exemptionReason: null },
  prepaidMinor: 0,
  allowances: [],
};

const invoiceInput: InvoiceViewInput = {
  invoice: {
    id: "i1",
    invoiceNumber: "INV-2026-0007",
    status: "sent",
    currency: "EUR",
    subtotal: 73.6,
    taxRatePercent: 19,
    taxAmount: 13.98,
    totalAmount: 87.58,
    amountUsd: 95.2,
    exchangeRate: 0.92,
    dueDate: new Date("2026-01-08T00:00:00Z"),
    paidAt: null,
    createdAt: new Date("2026-01-01T00:00:00Z"),
  },
  order: {
    serviceName: "Email Migration & Setup",
    packageName: "Per Mailbox",
    quantity: 20,
    unitPriceUsd: 4,
    serviceCategory: "Email",
  },
  client: { name: "Ada Lovelace", email: "ada@example.com", phone: null, company: "Analytical Engines" },
};

const creditNoteInput: CreditNoteViewInput = {
  creditNote: {
    id: "n1",
    creditNoteNumber: "CN-2026-0001",
    currency: "EUR",
    subtotal: 36.8,
    taxRatePercent: 19,
    taxAmount: 6.99,
    totalAmount: 43.79,
    amountUsd: 47.6,
    exchangeRate: 0.92,
    reason: "Half the mailboxes were not moved",
    createdAt: new Date("2026-01-05T00:00:00Z"),
    buyer: {
      name: "Ada Lovelace",
      email: "ada@example.com",
      company: "Analytical Engines",
      address: "1 Engine Way, München",
      country: "Germany",
      taxId: "DE987654321",
      phone: null,
    },
    seller: {
      name: "Smith & Jones <IT>",
      legalName: "Smith & Jones <IT> GmbH",
      address: "Hauptstraße 1, 10115 Berlin",
      email: "billing@portico.example",
      phone: "+49 30 1234567",
      taxId: "DE123456789",
    },
  },
  invoice: { id: "i1", invoiceNumber: "INV-2026-0007" },
  client: { name: "Ada Lovelace", email: "ada@example.com", phone: null, company: null },
};

const creditNote: EInvoice = {
  ...einvoice,
  kind: "credit-note",
  number: "CN-2026-0001",
  issueDate: "2026-01-05",
  dueDate: null,
  notes: [],
  preceding: { number: "INV-2026-0007", issueDate: "2026-01-01" },
  lines: [
    { id: "1", name: "Refund: Email Migration & Setup", quantity: 10, unitPriceMinor: 368, netMinor: 3680 },
  ],
};

async function textOf(pdf: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

describe("a Factur-X invoice PDF", () => {
  it("is PDF/A-3b with its XMP, output intent, embedded fonts and the CII as factur-x.xml, byte for byte", async () => {
    const xml = toCii(einvoice);
    const pdf = await renderInvoicePdf(invoiceInput, business, { facturX: { xml } });
    const report = await checkFacturXPdf(pdf, { xml, relationship: "Alternative" });
    expect(report.problems).toEqual([]);
    expect(Buffer.from(report.xml!).toString("utf8")).toBe(xml);
    expect(report.relationship).toBe("Alternative");
    expect(pdf.subarray(0, 8).toString("latin1")).toBe("%PDF-1.7");
    // The XMP carries the seller's name escaped, and the info dictionary as it is (the checker compares them).
    expect(report.xmp).toContain("Smith &amp; Jones &lt;IT&gt;");
    // The pages are the same invoice as without Factur-X.
    const text = await textOf(pdf);
    expect(text).toContain("INV-2026-0007");
    expect(text).toContain("Email Migration & Setup");
    expect(text).toContain("87,58 €");
  });

  it("is the same file for the same invoice (dated by the invoice, not the clock)", async () => {
    const xml = toCii(einvoice);
    const first = await renderInvoicePdf(invoiceInput, business, { facturX: { xml } });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await renderInvoicePdf(invoiceInput, business, { facturX: { xml } });
    expect(second.equals(first)).toBe(true);
  });

  it("leaves the plain PDF as it was: not PDF/A, no attachment, so the checker fails it", async () => {
    const pdf = await renderInvoicePdf(invoiceInput, business);
    expect(pdf.subarray(0, 8).toString("latin1")).toBe("%PDF-1.3");
    const report = await checkFacturXPdf(pdf, { xml: toCii(einvoice) });
    expect(report.xml).toBeNull();
    expect(report.problems).toEqual(
      expect.arrayContaining([
        "the catalog has no /Metadata stream",
        "the catalog has no /OutputIntents entry with /S /GTS_PDFA1",
        "the catalog has no /AF array",
        "the /EmbeddedFiles name tree names factur-x.xml 0 times, not once",
      ]),
    );
    // Its fonts were embedded already (DejaVu): only the Factur-X parts are missing.
    expect(report.problems.filter((p) => p.startsWith("font "))).toEqual([]);
  });
});

describe("a Factur-X credit note PDF", () => {
  it("passes the same checks with its own CII (type 381)", async () => {
    const xml = toCii(creditNote);
    expect(xml).toContain("<ram:TypeCode>381</ram:TypeCode>");
    const pdf = await renderCreditNotePdf(creditNoteInput, business, { facturX: { xml } });
    const report = await checkFacturXPdf(pdf, { xml });
    expect(report.problems).toEqual([]);
    expect(await textOf(pdf)).toContain("CN-2026-0001");
  });

  it("stays a plain PDF without the option", async () => {
    const pdf = await renderCreditNotePdf(creditNoteInput, business);
    expect((await checkFacturXPdf(pdf)).problems).toContain("the catalog has no /AF array");
  });
});

describe("the checker", () => {
  /** A Factur-X invoice PDF changed by `edit` (pdf-lib, saved without its own metadata changes). */
  async function edited(edit: (doc: PDFDocument) => void): Promise<Uint8Array> {
    const pdf = await renderInvoicePdf(invoiceInput, business, { facturX: { xml: toCii(einvoice) } });
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    edit(doc);
    return doc.save({ useObjectStreams: false, updateFieldAppearances: false });
  }

  it("passes the file pdf-lib saves again unchanged (the edits below are the only difference)", async () => {
    const pdf = await edited(() => {});
    expect((await checkFacturXPdf(pdf, { xml: toCii(einvoice) })).problems).toEqual([]);
  });

  it("fails XML other than the one given, and a relationship other than the one asked for", async () => {
    const pdf = await renderInvoicePdf(invoiceInput, business, { facturX: { xml: toCii(einvoice) } });
    const other = toCii({ ...einvoice, number: "INV-2026-0008" });
    const report = await checkFacturXPdf(pdf, { xml: other, relationship: "Data" });
    expect(report.problems).toEqual([
      "factur-x.xml's /AFRelationship is Alternative, not Data",
      "factur-x.xml's bytes differ from the XML given",
    ]);
  });

  it("fails a file whose attachment lost its relationship, MIME type or place in /AF", async () => {
    const pdf = await edited((doc) => {
      const spec = doc.catalog.lookup(PDFName.of("AF"), PDFArray).lookup(0, PDFDict);
      spec.delete(PDFName.of("AFRelationship"));
      const stream = spec.lookup(PDFName.of("EF"), PDFDict).lookup(PDFName.of("F"), PDFStream);
      stream.dict.set(PDFName.of("Subtype"), PDFName.of("application/octet-stream"));
      doc.catalog.delete(PDFName.of("AF"));
    });
    const { problems } = await checkFacturXPdf(pdf);
    expect(problems).toEqual(
      expect.arrayContaining([
        "the catalog has no /AF array",
        "the embedded file factur-x.xml has no /AFRelationship",
        "factur-x.xml's /AFRelationship is null, not Alternative or Data or Source",
        "factur-x.xml's /Subtype (MIME type) is application/octet-stream, not text/xml",
      ]),
    );
  });

  it("fails a font without its font program, and XMP that is not well-formed or lacks fx:", async () => {
    const pdf = await edited((doc) => {
      for (const [, object] of doc.context.enumerateIndirectObjects()) {
        if (object instanceof PDFDict && object.lookup(PDFName.of("Type"))?.toString() === "/FontDescriptor")
          object.delete(PDFName.of("FontFile2"));
      }
      const xmp = facturXXmp().replace("<fx:Version>1.0</fx:Version>", "").replace("EN 16931", "EN & 16931");
      const stream = doc.context.stream(`<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>${xmp}`, {
        Type: "Metadata",
        Subtype: "XML",
      });
      doc.catalog.set(PDFName.of("Metadata"), doc.context.register(stream));
    });
    const { problems } = await checkFacturXPdf(pdf);
    // Each face is a Type0 font and its CIDFontType2 descendant, both without a program now.
    const fonts = problems.filter((p) => p.startsWith("font "));
    expect(fonts).toHaveLength(4);
    expect(fonts.filter((p) => p.endsWith("(Type0) has no embedded font program"))).toHaveLength(2);
    expect(fonts.filter((p) => p.endsWith("(CIDFontType2) has no embedded font program"))).toHaveLength(2);
    expect(problems.some((p) => p.startsWith("the XMP is not well-formed XML"))).toBe(true);
  });

  it("fails XMP that is well-formed but says PDF/A-2 and lacks the fx: schema", async () => {
    const pdf = await edited((doc) => {
      const xmp = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" pdfaid:part="2" pdfaid:conformance="B"/>
</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
      const stream = doc.context.stream(xmp, { Type: "Metadata", Subtype: "XML" });
      doc.catalog.set(PDFName.of("Metadata"), doc.context.register(stream));
    });
    const { problems } = await checkFacturXPdf(pdf);
    expect(problems).toEqual(
      expect.arrayContaining([
        'XMP pdfaid:part is "2", not "3"',
        'XMP fx:DocumentFileName is missing, not "factur-x.xml"',
        'XMP fx:ConformanceLevel is missing, not "EN 16931"',
        "the XMP's PDF/A extension schemas declare urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0# 0 times, not once",
      ]),
    );
  });
});

describe("makeFacturX", () => {
  it("comes with no default font: text drawn before choosing a DejaVu face fails instead of using Helvetica", async () => {
    const info = {
      title: "Invoice INV-2026-0007",
      author: "Portico",
      createdAt: new Date("2026-01-01T00:00:00Z"),
    };
    const facturX = { xml: toCii(einvoice) };
    const bare = await openPdf(info, { facturX });
    expect(() => bare.doc.text("no font chosen")).toThrow();
    const plain = await openPdf(info);
    expect(() => plain.doc.text("Helvetica, as before")).not.toThrow();
    const chosen = await openPdf(info, { facturX });
    chosen.doc.font("Body").text("DejaVu");
    expect((await checkFacturXPdf(await chosen.finish())).problems).toEqual([]);
  });

  it("refuses CII that does not name EN 16931 (an XRechnung document is not this profile)", async () => {
    const { default: PDFKitDocument } = await import("pdfkit");
    const doc = new PDFKitDocument({ subset: "PDF/A-3b", pdfVersion: "1.7" });
    const xrechnung = toCii({ ...einvoice, buyerReference: "04011000-12345-34" }, { xrechnung: true });
    expect(() => makeFacturX(doc, { xml: xrechnung }, new Date())).toThrow(
      /urn:xeinkauf\.de:kosit:xrechnung_3\.0/,
    );
    expect(guidelineOf(toCii(einvoice))).toBe("urn:cen.eu:en16931:2017");
    expect(guidelineOf("<x/>")).toBeNull();
  });

  it("escapes XML text", () => {
    expect(xmlText(`a & <b> "c"`)).toBe("a &amp; &lt;b&gt; &quot;c&quot;");
  });
});
