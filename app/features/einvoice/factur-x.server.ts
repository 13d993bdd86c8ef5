/**
 * Factur-X (issue 40, item 4; docs/decisions/0544-factur-x.md): a PDF drawn by PDFKit made a PDF/A-3b
 * file that carries the document's CII XML as `factur-x.xml`. What it takes, all from PDFKit 0.20:
 *
 * - `subset: "PDF/A-3b"` with `pdfVersion: "1.7"`: PDFKit then writes the XMP metadata stream with
 *   pdfaid:part 3 and pdfaid:conformance B, and an output intent (GTS_PDFA1) with the sRGB ICC profile it
 *   ships (`pdfkit/js/data/sRGB_IEC61966_2_1.icc`). PDFKit writes no metadata stream for PDF 1.3.
 * - `doc.file(...)`: the XML as an embedded file (MIME text/xml, its dates, an /AFRelationship), named in
 *   the /Names /EmbeddedFiles tree and listed in the catalog's /AF array.
 * - `doc.appendXML(...)`: the Factur-X XMP properties (fx:) and the PDF/A extension schema that
 *   declares them (PDF/A allows no undeclared schema in XMP).
 *
 * The caller draws only with the embedded DejaVu faces (PDF/A wants every font embedded): the document is
 * opened without PDFKit's default Helvetica, so text drawn before a font is chosen fails loudly instead.
 */
import { EN16931_ID } from "./model";

/** The name Factur-X gives the XML inside the PDF. */
export const FACTUR_X_FILE_NAME = "factur-x.xml";

/** The namespace of Factur-X's XMP properties (with its trailing "#", as the specification writes it). */
export const FACTUR_X_NAMESPACE = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#";

/** The profile the XML follows: Portico writes full EN 16931 documents (`toCii`). */
export const FACTUR_X_CONFORMANCE_LEVEL = "EN 16931";

/**
 * The XML's relationship to the PDF. Factur-X allows Data, Source or Alternative for its XML; for the EN
 * 16931 profile the XML is the complete invoice, the same invoice the pages show, so "Alternative" (an
 * alternative representation of the document's content), as Factur-X / ZUGFeRD 2 practice has it from
 * BASIC up ("Data" for MINIMUM and BASIC WL, whose XML is not a whole invoice). ADR 0544 says why.
 */
export const FACTUR_X_RELATIONSHIP = "Alternative";

/** The Factur-X XMP values for one document. */
export const FACTUR_X_PROPERTIES = {
  DocumentType: "INVOICE",
  DocumentFileName: FACTUR_X_FILE_NAME,
  Version: "1.0",
  ConformanceLevel: FACTUR_X_CONFORMANCE_LEVEL,
} as const;

/** What a PDF renderer is given to make its document Factur-X: the CII XML (`toCii`), exactly as embedded. */
export interface FacturXOptions {
  xml: string;
}

/** PDFKit's options for a PDF/A-3b document; `font: null` keeps the built-in Helvetica out. */
export const FACTUR_X_PDF_OPTIONS = {
  subset: "PDF/A-3b",
  pdfVersion: "1.7",
  // PDFKit's types allow only a font name; null (no default font at all) is what its code takes.
  font: null as unknown as string,
} satisfies PDFKit.PDFDocumentOptions;

/** What each fx: property means, for the extension schema's descriptions. */
const PROPERTY_DESCRIPTIONS: Record<keyof typeof FACTUR_X_PROPERTIES, string> = {
  DocumentType: "The type of the hybrid document: INVOICE",
  DocumentFileName: "The name of the embedded XML document",
  Version: "The version of the Factur-X XML schema",
  ConformanceLevel: "The Factur-X profile the embedded XML conforms to",
};

/** Text as XML character data (XMP is XML). */
export function xmlText(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/**
 * The XMP that makes a PDF/A-3 file a Factur-X one: the fx: values, and the PDF/A extension schema
 * (pdfaExtension:schemas) declaring the fx namespace, its prefix and each property as external Text.
 */
export function facturXXmp(): string {
  const names = Object.keys(FACTUR_X_PROPERTIES) as Array<keyof typeof FACTUR_X_PROPERTIES>;
  const declared = names
    .map(
      (name) => `
              <rdf:li rdf:parseType="Resource">
                <pdfaProperty:name>${name}</pdfaProperty:name>
                <pdfaProperty:valueType>Text</pdfaProperty:valueType>
                <pdfaProperty:category>external</pdfaProperty:category>
                <pdfaProperty:description>${xmlText(PROPERTY_DESCRIPTIONS[name])}</pdfaProperty:description>
              </rdf:li>`,
    )
    .join("");
  const values = names
    .map((name) => `\n    <fx:${name}>${xmlText(FACTUR_X_PROPERTIES[name])}</fx:${name}>`)
    .join("");
  return `
<rdf:Description rdf:about=""
    xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"
    xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#"
    xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
  <pdfaExtension:schemas>
    <rdf:Bag>
      <rdf:li rdf:parseType="Resource">
        <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
        <pdfaSchema:namespaceURI>${FACTUR_X_NAMESPACE}</pdfaSchema:namespaceURI>
        <pdfaSchema:prefix>fx</pdfaSchema:prefix>
        <pdfaSchema:property>
          <rdf:Seq>${declared}
          </rdf:Seq>
        </pdfaSchema:property>
      </rdf:li>
    </rdf:Bag>
  </pdfaExtension:schemas>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:fx="${FACTUR_X_NAMESPACE}">${values}
</rdf:Description>`;
}

/** The specification identifier (BT-24) the XML names, or null. */
export function guidelineOf(xml: string): string | null {
  const match =
    /<(?:[\w.-]+:)?GuidelineSpecifiedDocumentContextParameter\b[^>]*>\s*<(?:[\w.-]+:)?ID\b[^>]*>([^<]*)</.exec(
      xml,
    );
  return match ? match[1]!.trim() : null;
}

/** The attachment options PDFKit takes, with the relationship its types leave out. */
type AttachmentOptions = PDFKit.Mixins.PDFAttachmentOptions & { relationship?: string };

/** PDFKit's own writer of the document's info into the XMP, which it inserts unescaped. */
interface InfoToXmp {
  info: Record<string, unknown>;
  _addInfo(this: InfoToXmp): void;
}

/**
 * Makes an open PDFKit document (opened with `FACTUR_X_PDF_OPTIONS`) a Factur-X one: embeds `xml` as
 * factur-x.xml, dated `date` (the document's own date, so the same invoice is the same file), and adds
 * the fx: XMP. Throws when the XML does not name EN 16931 as its specification (BT-24), since the XMP
 * declares that profile (an XRechnung CIUS document is not Factur-X's EN 16931 level).
 */
export function makeFacturX(doc: PDFKit.PDFDocument, options: FacturXOptions, date: Date): void {
  const guideline = guidelineOf(options.xml);
  if (guideline !== EN16931_ID)
    throw new Error(
      `A Factur-X ${FACTUR_X_CONFORMANCE_LEVEL} PDF needs CII whose specification (BT-24) is ${EN16931_ID}; this XML names ${guideline ?? "none"}`,
    );
  const attachment: AttachmentOptions = {
    name: FACTUR_X_FILE_NAME,
    type: "text/xml",
    description: "Factur-X EN 16931 invoice data (UN/CEFACT CII)",
    relationship: FACTUR_X_RELATIONSHIP,
    creationDate: date,
    modifiedDate: date,
  };
  doc.file(Buffer.from(options.xml, "utf8"), attachment);
  doc.appendXML(facturXXmp());
  escapeInfoInXmp(doc);
}

/**
 * PDFKit copies the title, author and subject into the XMP as they are: a seller named "Smith & Jones"
 * would make the metadata malformed XML (and the file not PDF/A). Its info writer is wrapped so it sees
 * the values escaped; the document's info dictionary, written before the XMP, keeps them as they are.
 */
function escapeInfoInXmp(doc: PDFKit.PDFDocument): void {
  const target = doc as unknown as InfoToXmp;
  const write = target._addInfo;
  if (typeof write !== "function")
    throw new Error("PDFKit no longer writes its XMP info with _addInfo: see factur-x.server.ts");
  target._addInfo = function (this: InfoToXmp) {
    const info = this.info;
    this.info = Object.fromEntries(
      Object.entries(info).map(([key, value]) => [key, typeof value === "string" ? xmlText(value) : value]),
    );
    try {
      write.call(this);
    } finally {
      this.info = info;
    }
  };
}
