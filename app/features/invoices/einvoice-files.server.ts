/**
 * An invoice's e-invoice files (issue 40, item 4): Factur-X (the invoice PDF as PDF/A-3 with its CII
 * inside), CII (an XRechnung when the client gave a reference for their invoices, BT-10) and UBL 2.1.
 * The document is mapped once (einvoice-mapping.ts) and checked for what EN 16931 needs before any
 * syntax is written: a document that lacks something is not offered, and the answer says what.
 */
import { and, eq } from "drizzle-orm";
import type { Config } from "~/config.server";
import type { Database } from "~/db/client.server";
import { invoices } from "~/db/schema";
import { toCii } from "~/features/einvoice/cii";
import type { EInvoice } from "~/features/einvoice/model";
import { toUbl } from "~/features/einvoice/ubl";
import { toMinorUnits } from "~/features/money/minor-units";
import { readDocumentTax } from "~/features/tax/document-tax";
import { eInvoiceProblems, invoiceEInvoice } from "./einvoice-mapping";
import { readBuyer, readSeller, sellerSnapshot } from "./invoice-parties";
import { renderInvoicePdf } from "./invoice-pdf.server";
import type { InvoiceDocument } from "./invoices.server";

export const EINVOICE_FORMATS = ["factur-x", "cii", "ubl"] as const;
export type EInvoiceFormat = (typeof EINVOICE_FORMATS)[number];

export const isEInvoiceFormat = (value: unknown): value is EInvoiceFormat =>
  typeof value === "string" && (EINVOICE_FORMATS as readonly string[]).includes(value);

/** The download links' words, in the order offered. */
export const EINVOICE_FORMAT_LABELS: Record<EInvoiceFormat, string> = {
  "factur-x": "Factur-X PDF",
  cii: "CII XML",
  ubl: "UBL XML",
};

export interface EInvoiceFile {
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  fileName: string;
}

export type EInvoiceOutcome = { ok: true; file: EInvoiceFile } | { ok: false; problems: string[] };

type TaxConfig = Pick<Config, "business"> & Partial<Pick<Config, "tax">>;

const safeName = (number: string) => number.replace(/[^A-Za-z0-9._-]+/g, "_");

/** What a document's page offers: a link per format, or (for the owner) what the document lacks. */
export interface EInvoiceOffer {
  links: Array<{ format: EInvoiceFormat; label: string; href: string }>;
  problems: string[];
}

export function eInvoiceOffer(
  doc: EInvoice,
  stored: { taxMinor: number; totalMinor: number },
  /** The document's e-invoice address without the format: `/client/invoices/{id}/e-invoice`. */
  base: string,
): EInvoiceOffer {
  const problems = eInvoiceProblems(doc, stored);
  const cii = doc.buyerReference ? "XRechnung XML (CII)" : EINVOICE_FORMAT_LABELS.cii;
  return {
    problems,
    links:
      problems.length > 0
        ? []
        : EINVOICE_FORMATS.map((format) => ({
            format,
            label: format === "cii" ? cii : EINVOICE_FORMAT_LABELS[format],
            href: `${base}/${format}`,
          })),
  };
}

/** The document in one of the formats, or what it lacks. `pdf` renders the human-readable PDF around `xml`. */
export async function writeEInvoice(
  doc: EInvoice,
  stored: { taxMinor: number; totalMinor: number },
  format: EInvoiceFormat,
  pdf: (xml: string) => Promise<Buffer>,
): Promise<EInvoiceOutcome> {
  const problems = eInvoiceProblems(doc, stored);
  if (problems.length > 0) return { ok: false, problems };
  const base = safeName(doc.number);
  const xmlFile = (xml: string, suffix: string): EInvoiceOutcome => ({
    ok: true,
    file: {
      body: new TextEncoder().encode(xml),
      contentType: "application/xml; charset=utf-8",
      fileName: `${base}.${suffix}.xml`,
    },
  });
  if (format === "ubl") return xmlFile(toUbl(doc), "ubl");
  if (format === "cii") {
    const xrechnung = Boolean(doc.buyerReference);
    return xmlFile(toCii(doc, { xrechnung }), xrechnung ? "xrechnung" : "cii");
  }
  // Factur-X carries the EN 16931 profile's CII (an XRechnung is a separate file).
  const file = await pdf(toCii(doc));
  return {
    ok: true,
    file: { body: new Uint8Array(file), contentType: "application/pdf", fileName: `${base}.factur-x.pdf` },
  };
}

/** The stored invoice as an EN 16931 document, with its stored tax and total to check it against. */
export async function invoiceAsEInvoice(
  db: Database,
  found: InvoiceDocument,
  config: TaxConfig,
): Promise<{ doc: EInvoice; stored: { taxMinor: number; totalMinor: number } }> {
  const { invoice, order } = found;
  let deposit: { number: string; issuedAt: Date } | null = null;
  if (invoice.kind === "balance") {
    const [row] = await db
      .select({ number: invoices.invoiceNumber, issuedAt: invoices.createdAt })
      .from(invoices)
      .where(and(eq(invoices.orderId, invoice.orderId), eq(invoices.kind, "deposit")))
      .limit(1);
    deposit = row ?? null;
  }
  const doc = invoiceEInvoice(
    {
      number: invoice.invoiceNumber,
      kind: invoice.kind,
      issuedAt: invoice.createdAt,
      dueDate: invoice.dueDate,
      currency: invoice.currency,
      subtotal: invoice.subtotal,
      taxAmount: invoice.taxAmount,
      totalAmount: invoice.totalAmount,
      buyer: readBuyer(invoice.buyer, found.client),
      seller: invoice.seller
        ? readSeller(invoice.seller, config.business)
        : sellerSnapshot(config.business, config.tax),
      tax: readDocumentTax(invoice.tax, Number(invoice.taxRatePercent)),
    },
    order,
    deposit,
  );
  return {
    doc,
    stored: {
      taxMinor: toMinorUnits(invoice.taxAmount, invoice.currency),
      totalMinor: toMinorUnits(invoice.totalAmount, invoice.currency),
    },
  };
}

/** The invoice in `format`: Factur-X renders its PDF with the CII inside. */
export async function invoiceEInvoiceFile(
  db: Database,
  found: InvoiceDocument,
  format: EInvoiceFormat,
  config: TaxConfig,
): Promise<EInvoiceOutcome> {
  const { doc, stored } = await invoiceAsEInvoice(db, found, config);
  return writeEInvoice(doc, stored, format, (xml) =>
    renderInvoicePdf(found, config.business, { facturX: { xml } }),
  );
}

/** The download's answer: the file, or 409 with what the document lacks (nothing is made up). */
export function eInvoiceResponse(outcome: EInvoiceOutcome, what: string): Response {
  if (!outcome.ok) {
    return new Response(`This ${what} cannot be written as an e-invoice: ${outcome.problems.join("; ")}.`, {
      status: 409,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  }
  const { file } = outcome;
  return new Response(file.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Content-Length": String(file.body.length),
      "Cache-Control": "private, no-store",
    },
  });
}
