/**
 * A structural check of a Factur-X PDF (issue 40, item 4; docs/decisions/0544-factur-x.md): no PDF/A
 * validator runs offline, so this reads the file with pdf-lib (a development dependency: it resolves the
 * cross-reference, indirect objects, name trees and stream filters, which a hand-written reader would
 * get subtly wrong) and lists what a PDF/A-3 + Factur-X file must have and this one lacks. It states the
 * Factur-X names itself rather than importing the app's constants, so a wrong constant is caught.
 *
 * What it checks is listed in `checkFacturXPdf`; what it cannot (the whole of ISO 19005-3, the content
 * streams, the fonts' glyph widths) is for veraPDF, which is not run here.
 */
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  type PDFObject,
  PDFRawStream,
  PDFRef,
  PDFString,
} from "pdf-lib";
import { create } from "xmlbuilder2";

/** The file name, XMP namespace and values Factur-X 1.0 prescribes. */
export const FACTUR_X = {
  fileName: "factur-x.xml",
  namespace: "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#",
  properties: ["DocumentType", "DocumentFileName", "Version", "ConformanceLevel"],
  relationships: ["Alternative", "Data", "Source"],
} as const;

const NS = {
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  pdfaid: "http://www.aiim.org/pdfa/ns/id/",
  pdfaExtension: "http://www.aiim.org/pdfa/ns/extension/",
  pdfaSchema: "http://www.aiim.org/pdfa/ns/schema#",
  pdfaProperty: "http://www.aiim.org/pdfa/ns/property#",
  dc: "http://purl.org/dc/elements/1.1/",
  xmp: "http://ns.adobe.com/xap/1.0/",
  pdf: "http://ns.adobe.com/pdf/1.3/",
  cii: "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
};

export interface FacturXExpectations {
  /** The XML the file must carry as factur-x.xml, byte for byte in UTF-8. */
  xml?: string;
  /** The /AFRelationship required; by default any Factur-X allows (Alternative, Data, Source). */
  relationship?: string;
  /** fx:ConformanceLevel; "EN 16931" by default. */
  conformanceLevel?: string;
  /** pdfaid:conformance; "B" by default (PDF/A-3b). */
  pdfaConformance?: string;
}

export interface FacturXReport {
  /** Every requirement the file fails, in words; empty when it passes. */
  problems: string[];
  /** The embedded factur-x.xml, decoded, or null when there is none. */
  xml: Uint8Array | null;
  /** The catalog's XMP metadata as text, or null. */
  xmp: string | null;
  /** The factur-x.xml file specification's /AFRelationship, or null. */
  relationship: string | null;
}

/**
 * Checks `pdf` for:
 * - the file: a %PDF-1.0 to 1.7 header with the binary comment line, a trailer /ID, no /Encrypt;
 * - the catalog's /Metadata: an unfiltered /Type /Metadata /Subtype /XML stream whose XMP is well-formed
 *   XML (libxml2), has no bytes= or encoding= in its packet header, says pdfaid:part 3 and the expected
 *   pdfaid:conformance, holds the fx: values (DocumentType INVOICE, DocumentFileName factur-x.xml,
 *   Version 1.0, ConformanceLevel), declares the fx namespace in a PDF/A extension schema (prefix fx, the
 *   four properties as Text), and agrees with the info dictionary (Title, Author, Subject, Creator,
 *   Producer);
 * - /OutputIntents: an /S /GTS_PDFA1 intent with an OutputConditionIdentifier and a DestOutputProfile
 *   stream that is an ICC profile (its "acsp" signature) with /N matching its colour space;
 * - every font (each /Type /Font object and each font a page's resources name): an embedded font program
 *   (/FontFile, /FontFile2 or /FontFile3 in its, or its descendant's, /FontDescriptor); Type 3 excepted;
 * - /Names /EmbeddedFiles naming factur-x.xml, whose file specification has /F and /UF factur-x.xml, an
 *   allowed /AFRelationship, an /EF /F stream of /Type /EmbeddedFile, /Subtype text/xml, /Params
 *   /ModDate, whose decoded bytes are a CII document (and `expected.xml` exactly, when given);
 * - the catalog's /AF listing every embedded file specification, each with an /AFRelationship.
 */
export async function checkFacturXPdf(
  pdf: Uint8Array,
  expected: FacturXExpectations = {},
): Promise<FacturXReport> {
  const problems: string[] = [];
  const report: FacturXReport = { problems, xml: null, xmp: null, relationship: null };
  checkHeader(pdf, problems);
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { updateMetadata: false, throwOnInvalidObject: true });
  } catch (error) {
    problems.push(`the file does not parse as a PDF: ${(error as Error).message}`);
    return report;
  }
  const { trailerInfo } = doc.context;
  if (trailerInfo.Encrypt) problems.push("the file is encrypted (/Encrypt in the trailer)");
  const id = trailerInfo.ID ? doc.context.lookup(trailerInfo.ID) : undefined;
  if (!(id instanceof PDFArray) || id.size() !== 2) problems.push("the trailer has no /ID of two strings");

  const catalog = doc.catalog;
  report.xmp = await checkMetadata(doc, catalog, expected, problems);
  checkOutputIntents(catalog, problems);
  checkFonts(doc, problems);
  const found = checkEmbeddedFiles(catalog, expected, problems);
  report.xml = found.xml;
  report.relationship = found.relationship;
  return report;
}

function checkHeader(pdf: Uint8Array, problems: string[]): void {
  const head = Buffer.from(pdf.subarray(0, 64)).toString("latin1");
  if (!/^%PDF-1\.[0-7]\r?\n/.test(head))
    problems.push("the header is not %PDF-1.0 to %PDF-1.7 on its own line");
  const second = /^%PDF-[^\r\n]*\r?\n%([^\r\n]*)/.exec(head)?.[1] ?? "";
  if ([...second].filter((ch) => ch.charCodeAt(0) > 127).length < 4)
    problems.push("the header's second line is not a comment of at least four bytes above 127");
}

/** Text of a PDF string or name, or null. */
function textOf(value: PDFObject | undefined): string | null {
  if (value instanceof PDFString || value instanceof PDFHexString) return value.decodeText();
  if (value instanceof PDFName) return value.decodeText();
  return null;
}

function decoded(stream: PDFRawStream): Uint8Array {
  return decodePDFRawStream(stream).decode();
}

function lookupDict(dict: PDFDict | undefined, key: string): PDFDict | undefined {
  const value = dict?.lookup(PDFName.of(key));
  return value instanceof PDFDict ? value : undefined;
}

function lookupStream(dict: PDFDict | undefined, key: string): PDFRawStream | undefined {
  const value = dict?.lookup(PDFName.of(key));
  return value instanceof PDFRawStream ? value : undefined;
}

function lookupArray(dict: PDFDict | undefined, key: string): PDFArray | undefined {
  const value = dict?.lookup(PDFName.of(key));
  return value instanceof PDFArray ? value : undefined;
}

function nameOf(dict: PDFDict | undefined, key: string): string | null {
  return textOf(dict?.lookup(PDFName.of(key)));
}

/** Minimal DOM shapes of xmlbuilder2's parsed document. */
interface XmlElement {
  namespaceURI: string | null;
  localName: string;
  textContent: string | null;
  getAttributeNS(ns: string | null, local: string): string | null;
  getElementsByTagNameNS(ns: string, local: string): Iterable<XmlElement>;
}

async function checkMetadata(
  doc: PDFDocument,
  catalog: PDFDict,
  expected: FacturXExpectations,
  problems: string[],
): Promise<string | null> {
  const stream = lookupStream(catalog, "Metadata");
  if (!stream) {
    problems.push("the catalog has no /Metadata stream");
    return null;
  }
  if (nameOf(stream.dict, "Type") !== "Metadata" || nameOf(stream.dict, "Subtype") !== "XML")
    problems.push("the /Metadata stream is not /Type /Metadata /Subtype /XML");
  if (stream.dict.has(PDFName.of("Filter"))) problems.push("the /Metadata stream is filtered");
  const xmp = Buffer.from(decoded(stream)).toString("utf8");

  const header = /<\?xpacket begin=[^?]*\?>/.exec(xmp)?.[0];
  if (!header) problems.push("the XMP has no xpacket header");
  else if (/\b(bytes|encoding)=/.test(header)) problems.push("the XMP packet header has bytes= or encoding=");
  const { validateXML } = await import("xmllint-wasm");
  const wellFormed = await validateXML({
    xml: { fileName: "metadata.xmp", contents: xmp },
    normalization: "format",
  });
  if (!wellFormed.valid) {
    problems.push(`the XMP is not well-formed XML: ${wellFormed.errors.map((e) => e.message).join("; ")}`);
    return xmp;
  }
  const root = create(xmp).root().node as unknown as XmlElement;
  const values = (ns: string, local: string): string[] => {
    const out = [...root.getElementsByTagNameNS(ns, local)].map((el) => el.textContent ?? "");
    for (const d of [...root.getElementsByTagNameNS(NS.rdf, "Description")]) {
      const attr = d.getAttributeNS(ns, local);
      if (attr !== null) out.push(attr);
    }
    return out;
  };
  const one = (ns: string, local: string, label: string, want: string) => {
    const found = values(ns, local);
    if (found.length !== 1 || found[0] !== want)
      problems.push(
        `XMP ${label} is ${found.length ? found.map((v) => JSON.stringify(v)).join(", ") : "missing"}, not "${want}"`,
      );
  };
  one(NS.pdfaid, "part", "pdfaid:part", "3");
  one(NS.pdfaid, "conformance", "pdfaid:conformance", expected.pdfaConformance ?? "B");
  one(FACTUR_X.namespace, "DocumentType", "fx:DocumentType", "INVOICE");
  one(FACTUR_X.namespace, "DocumentFileName", "fx:DocumentFileName", FACTUR_X.fileName);
  one(FACTUR_X.namespace, "Version", "fx:Version", "1.0");
  one(FACTUR_X.namespace, "ConformanceLevel", "fx:ConformanceLevel", expected.conformanceLevel ?? "EN 16931");
  checkExtensionSchema(root, problems);
  checkInfoAgrees(doc, root, problems);
  return xmp;
}

/** The PDF/A extension schema declaring fx: its namespace, prefix and each property as Text. */
function checkExtensionSchema(root: XmlElement, problems: string[]): void {
  const schemas = [...root.getElementsByTagNameNS(NS.pdfaSchema, "namespaceURI")]
    .filter((el) => el.textContent === FACTUR_X.namespace)
    .map((el) => parentOf(el));
  if (schemas.length !== 1) {
    problems.push(
      `the XMP's PDF/A extension schemas declare ${FACTUR_X.namespace} ${schemas.length} times, not once`,
    );
    return;
  }
  const schema = schemas[0]!;
  const prefix = [...schema.getElementsByTagNameNS(NS.pdfaSchema, "prefix")].map((el) => el.textContent);
  if (prefix.join() !== "fx")
    problems.push(`the fx extension schema's prefix is ${prefix.join() || "missing"}`);
  const declared = new Map<string, string | null>();
  for (const name of [...schema.getElementsByTagNameNS(NS.pdfaProperty, "name")]) {
    const property = parentOf(name);
    const type = [...property.getElementsByTagNameNS(NS.pdfaProperty, "valueType")][0]?.textContent ?? null;
    declared.set(name.textContent ?? "", type);
  }
  for (const property of FACTUR_X.properties) {
    if (declared.get(property) !== "Text")
      problems.push(`the fx extension schema does not declare ${property} as Text`);
  }
}

/** xmlbuilder2's nodes have a parentNode; the minimal type above leaves it out. */
function parentOf(el: XmlElement): XmlElement {
  return (el as unknown as { parentNode: XmlElement }).parentNode;
}

/** The info dictionary's entries must say what the XMP says (PDF/A keeps the two in step). */
function checkInfoAgrees(doc: PDFDocument, root: XmlElement, problems: string[]): void {
  const info = doc.context.trailerInfo.Info ? doc.context.lookup(doc.context.trailerInfo.Info) : undefined;
  if (!(info instanceof PDFDict)) return;
  const firstLi = (ns: string, local: string): string | null => {
    const el = [...root.getElementsByTagNameNS(ns, local)][0];
    if (!el) return null;
    const items = [...el.getElementsByTagNameNS(NS.rdf, "li")];
    const item =
      items.find((li) => li.getAttributeNS("http://www.w3.org/XML/1998/namespace", "lang") === "x-default") ??
      items[0];
    return item?.textContent ?? null;
  };
  const simple = (ns: string, local: string) =>
    [...root.getElementsByTagNameNS(ns, local)][0]?.textContent ?? null;
  const pairs: Array<[string, string | null]> = [
    ["Title", firstLi(NS.dc, "title")],
    ["Author", firstLi(NS.dc, "creator")],
    ["Subject", firstLi(NS.dc, "description")],
    ["Creator", simple(NS.xmp, "CreatorTool")],
    ["Producer", simple(NS.pdf, "Producer")],
  ];
  for (const [key, inXmp] of pairs) {
    const inInfo = textOf(info.lookup(PDFName.of(key)));
    if (inInfo !== null && inInfo !== inXmp)
      problems.push(
        `the info dictionary's ${key} ${JSON.stringify(inInfo)} is ${JSON.stringify(inXmp)} in the XMP`,
      );
  }
}

function checkOutputIntents(catalog: PDFDict, problems: string[]): void {
  const intents = lookupArray(catalog, "OutputIntents");
  const pdfa = [...(intents?.asArray() ?? [])]
    .map((_, i) => intents!.lookup(i))
    .filter((v): v is PDFDict => v instanceof PDFDict && nameOf(v, "S") === "GTS_PDFA1");
  if (pdfa.length === 0) {
    problems.push("the catalog has no /OutputIntents entry with /S /GTS_PDFA1");
    return;
  }
  for (const intent of pdfa) {
    if (textOf(intent.lookup(PDFName.of("OutputConditionIdentifier"))) === null)
      problems.push("the GTS_PDFA1 output intent has no /OutputConditionIdentifier");
    const profile = lookupStream(intent, "DestOutputProfile");
    if (!profile) {
      problems.push("the GTS_PDFA1 output intent has no /DestOutputProfile stream");
      continue;
    }
    const icc = Buffer.from(decoded(profile));
    if (icc.subarray(36, 40).toString("latin1") !== "acsp") {
      problems.push("the /DestOutputProfile is not an ICC profile");
      continue;
    }
    const channels: Record<string, number> = { "RGB ": 3, GRAY: 1, CMYK: 4 };
    const n = profile.dict.lookup(PDFName.of("N"))?.toString();
    const space = icc.subarray(16, 20).toString("latin1");
    if (String(channels[space]) !== n) problems.push(`the ICC profile (${space.trim()}) has /N ${n}`);
  }
}

/** Every font dictionary in the file: the /Type /Font objects and what the pages' resources name. */
function fontDicts(doc: PDFDocument): Map<string, PDFDict> {
  const fonts = new Map<string, PDFDict>();
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFDict && nameOf(object, "Type") === "Font") fonts.set(ref.toString(), object);
  }
  for (const [index, page] of doc.getPages().entries()) {
    const named = lookupDict(lookupDict(page.node, "Resources"), "Font");
    for (const key of named?.keys() ?? []) {
      const raw = named!.get(key);
      const font = named!.lookup(key);
      if (font instanceof PDFDict)
        fonts.set(raw instanceof PDFRef ? raw.toString() : `page ${index + 1} ${key.toString()}`, font);
    }
  }
  return fonts;
}

function checkFonts(doc: PDFDocument, problems: string[]): void {
  const fonts = fontDicts(doc);
  // Portico's documents always have text: no font at all means the fonts were not found, not that all is well.
  if (fonts.size === 0) problems.push("the file has no font");
  for (const [where, font] of fonts) {
    const subtype = nameOf(font, "Subtype");
    if (subtype === "Type3") continue;
    const descendant = lookupArray(font, "DescendantFonts")?.lookup(0);
    const described = subtype !== "Type0" ? font : descendant instanceof PDFDict ? descendant : undefined;
    const descriptor = lookupDict(described, "FontDescriptor");
    const embedded = ["FontFile", "FontFile2", "FontFile3"].some((key) => lookupStream(descriptor, key));
    if (!embedded)
      problems.push(`font ${nameOf(font, "BaseFont") ?? where} (${subtype}) has no embedded font program`);
  }
}

/** The name tree's entries, walking /Kids. */
function nameTreeEntries(
  node: PDFDict | undefined,
  out: Array<[string, PDFObject | undefined, PDFObject | undefined]> = [],
) {
  const names = lookupArray(node, "Names");
  for (let i = 0; names && i + 1 < names.size(); i += 2)
    out.push([textOf(names.lookup(i)) ?? "?", names.get(i + 1), names.lookup(i + 1)]);
  const kids = lookupArray(node, "Kids");
  for (let i = 0; kids && i < kids.size(); i++) {
    const kid = kids.lookup(i);
    if (kid instanceof PDFDict) nameTreeEntries(kid, out);
  }
  return out;
}

function checkEmbeddedFiles(
  catalog: PDFDict,
  expected: FacturXExpectations,
  problems: string[],
): { xml: Uint8Array | null; relationship: string | null } {
  const none = { xml: null, relationship: null };
  const entries = nameTreeEntries(lookupDict(lookupDict(catalog, "Names"), "EmbeddedFiles"));
  const af = lookupArray(catalog, "AF");
  const inAf = new Set((af?.asArray() ?? []).map((item) => item.toString()));
  if (!af) problems.push("the catalog has no /AF array");
  for (const [name, raw, spec] of entries) {
    if (!(spec instanceof PDFDict) || !nameOf(spec, "AFRelationship"))
      problems.push(`the embedded file ${name} has no /AFRelationship`);
    if (af && !(raw instanceof PDFRef && inAf.has(raw.toString())))
      problems.push(`the embedded file ${name} is not in the catalog's /AF`);
  }
  const matches = entries.filter(([name]) => name === FACTUR_X.fileName);
  if (matches.length !== 1) {
    problems.push(
      `the /EmbeddedFiles name tree names ${FACTUR_X.fileName} ${matches.length} times, not once`,
    );
    return none;
  }
  const spec = matches[0]![2];
  if (!(spec instanceof PDFDict)) {
    problems.push(`${FACTUR_X.fileName}'s file specification is not a dictionary`);
    return none;
  }
  for (const key of ["F", "UF"]) {
    const value = textOf(spec.lookup(PDFName.of(key)));
    if (value !== FACTUR_X.fileName)
      problems.push(`${FACTUR_X.fileName}'s file specification has /${key} ${value}`);
  }
  const relationship = nameOf(spec, "AFRelationship");
  const allowed: readonly string[] = expected.relationship ? [expected.relationship] : FACTUR_X.relationships;
  if (!relationship || !allowed.includes(relationship))
    problems.push(`${FACTUR_X.fileName}'s /AFRelationship is ${relationship}, not ${allowed.join(" or ")}`);
  const stream = lookupStream(lookupDict(spec, "EF"), "F");
  if (!stream) {
    problems.push(`${FACTUR_X.fileName}'s file specification has no /EF /F stream`);
    return { xml: null, relationship };
  }
  if (nameOf(stream.dict, "Type") !== "EmbeddedFile")
    problems.push(`${FACTUR_X.fileName} is not /Type /EmbeddedFile`);
  const mime = nameOf(stream.dict, "Subtype");
  if (mime !== "text/xml")
    problems.push(`${FACTUR_X.fileName}'s /Subtype (MIME type) is ${mime}, not text/xml`);
  if (!lookupDict(stream.dict, "Params")?.has(PDFName.of("ModDate")))
    problems.push(`${FACTUR_X.fileName} has no /Params /ModDate`);
  const xml = decoded(stream);
  const text = Buffer.from(xml).toString("utf8");
  try {
    const root = create(text).root().node as unknown as XmlElement;
    if (root.namespaceURI !== NS.cii || root.localName !== "CrossIndustryInvoice")
      problems.push(`${FACTUR_X.fileName} is not a CII CrossIndustryInvoice`);
  } catch (error) {
    problems.push(`${FACTUR_X.fileName} does not parse as XML: ${(error as Error).message}`);
  }
  if (expected.xml !== undefined && !Buffer.from(expected.xml, "utf8").equals(Buffer.from(xml)))
    problems.push(`${FACTUR_X.fileName}'s bytes differ from the XML given`);
  return { xml, relationship };
}
