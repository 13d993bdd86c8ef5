/**
 * The pieces every printable document of the site shares (the invoice, the credit note): its frame,
 * the seller's block, the buyer's, the totals, and the Print and Download PDF buttons.
 */

import type { ReactNode } from "react";
import { buttonClass } from "~/ui/button";
import { cardClass } from "~/ui/card-class";
import { Icon } from "~/ui/icon";
import type { BillToBlock, SellerBlock } from "./invoice-view";

/** The document's card, plain on paper. */
export function DocumentFrame({
  id,
  labelledBy,
  children,
}: {
  id: string;
  labelledBy: string;
  children: ReactNode;
}) {
  return (
    <article
      id={id}
      aria-labelledby={labelledBy}
      className={cardClass("mt-6 p-5 sm:p-8 print:border-0 print:shadow-none")}
    >
      {children}
    </article>
  );
}

/** The seller as the document was issued: name, legal name, address, contact, tax id. */
export function SellerDetails({ seller }: { seller: SellerBlock }) {
  return (
    <div>
      <p className="text-xl font-bold">{seller.name}</p>
      {seller.legalName !== seller.name && <p className="text-sm text-slate-600">{seller.legalName}</p>}
      <p className="text-sm text-slate-600">{seller.address}</p>
      <p className="text-sm text-slate-600">
        {seller.email} · {seller.phone}
      </p>
      {seller.taxLine && (
        <p className="text-sm text-slate-600" data-testid="seller-tax-id">
          {seller.taxLine}
        </p>
      )}
    </div>
  );
}

/** The buyer as the document was issued. */
export function BillToDetails({ billTo }: { billTo: BillToBlock }) {
  return (
    <div>
      <h2 className="text-sm font-semibold uppercase text-slate-500">Bill To</h2>
      <p className="mt-1 font-semibold">{billTo.name}</p>
      {billTo.company && <p>{billTo.company}</p>}
      {billTo.addressLines.map((line) => (
        <p key={line} className="wrap-anywhere">
          {line}
        </p>
      ))}
      <p className="wrap-anywhere">{billTo.email}</p>
      {billTo.phone && <p>{billTo.phone}</p>}
      {billTo.taxLine && <p data-testid="buyer-tax-id">{billTo.taxLine}</p>}
    </div>
  );
}

/** The dates and the like beside the buyer: label, value pairs. */
export function DocumentFacts({ facts }: { facts: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:justify-self-end">
      {facts.map(([label, value]) => (
        <FactRow key={label} label={label} value={value} />
      ))}
    </dl>
  );
}

function FactRow({ label, value }: { label: string; value: ReactNode }) {
  return (
    <>
      <dt className="font-semibold">{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

/** The amounts under the lines; the last one is the total, in bold, with `totalTestId`. */
export function DocumentTotals({
  rows,
  total,
  totalTestId,
}: {
  rows: Array<[string, string]>;
  total: [string, string];
  totalTestId: string;
}) {
  return (
    <dl className="ml-auto mt-6 grid max-w-xs grid-cols-2 gap-y-1 text-sm">
      {rows.map(([label, value]) => (
        <TotalRow key={label} label={label} value={value} />
      ))}
      <dt className="border-t border-slate-200 pt-2 text-base font-bold">{total[0]}</dt>
      <dd data-testid={totalTestId} className="border-t border-slate-200 pt-2 text-right text-base font-bold">
        {total[1]}
      </dd>
    </dl>
  );
}

function TotalRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd className="text-right">{value}</dd>
    </>
  );
}

/** Download PDF: the document's file. */
export function PdfDownloadLink({ href }: { href: string }) {
  return (
    <a href={href} className={buttonClass("primary")} download>
      <Icon name="download" className="size-4" /> Download PDF
    </a>
  );
}

/** Print and Download PDF, as the document's page offers them (hidden on paper by the page's toolbar). */
export function PrintAndDownload({ pdfHref }: { pdfHref: string }) {
  return (
    <>
      <button type="button" className={buttonClass("secondary")} onClick={() => window.print()}>
        <Icon name="printer" className="size-4" /> Print
      </button>
      <PdfDownloadLink href={pdfHref} />
    </>
  );
}

/** One line of a document's table: what, how many, at what price, for how much (all formatted). */
export interface DocumentLine {
  description: string;
  /** A second, smaller line under the description (the package, the service). */
  detail?: string | null;
  quantity: number | string;
  unitPrice: string;
  amount: string;
}

/**
 * The lines of an invoice, a credit note's invoice, a quote or a quote's order: one table for all, that
 * scrolls sideways in its own box on a narrow phone rather than the page.
 */
export function DocumentLines({
  lines,
  caption,
  rowTestId,
  compact = false,
  className = "mt-8",
}: {
  lines: DocumentLine[];
  caption?: string;
  rowTestId?: string;
  compact?: boolean;
  className?: string;
}) {
  const cell = compact ? "py-2" : "py-3";
  return (
    <div className={`relative overflow-x-auto ${className}`}>
      <table className="w-full text-sm">
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead>
          <tr className="border-b border-slate-200 text-left">
            <th scope="col" className="py-2">
              Description
            </th>
            <th scope="col" className="py-2 pl-3 text-right">
              Qty
            </th>
            <th scope="col" className="py-2 pl-3 text-right">
              Unit Price
            </th>
            <th scope="col" className="py-2 pl-3 text-right">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, i) => (
            // Two lines may read alike (the same package twice); a document's lines never change.
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines are fixed once issued.
            <tr key={i} className="border-b border-slate-100" data-testid={rowTestId}>
              <td className={cell}>
                <span className="font-medium wrap-anywhere">{line.description}</span>
                {line.detail && <span className="block text-slate-500">{line.detail}</span>}
              </td>
              <td className={`${cell} pl-3 text-right`}>{line.quantity}</td>
              <td className={`${cell} pl-3 text-right whitespace-nowrap`}>{line.unitPrice}</td>
              <td className={`${cell} pl-3 text-right whitespace-nowrap`}>{line.amount}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The words a document prints about its VAT (issue 40): the reverse charge, an exemption, and so on. */
export function TaxNotes({ notes }: { notes: readonly string[] }) {
  if (notes.length === 0) return null;
  return (
    <div className="mt-3 space-y-1 text-sm text-slate-700" data-testid="document-tax-notes">
      {notes.map((note) => (
        <p key={note}>{note}</p>
      ))}
    </div>
  );
}

/**
 * The document's e-invoice downloads (issue 40): Factur-X, CII (XRechnung with a reference) and UBL.
 * Nothing for a document that cannot be one; the owner's page says what it lacks (`problems`).
 */
export function EInvoiceLinks({
  offer,
  showProblems = false,
}: {
  offer: { links: Array<{ format: string; label: string; href: string }>; problems: string[] };
  showProblems?: boolean;
}) {
  if (offer.links.length === 0) {
    if (!showProblems || offer.problems.length === 0) return null;
    return (
      <p className="text-sm text-slate-700" data-testid="einvoice-problems">
        No e-invoice: {offer.problems.join("; ")}.
      </p>
    );
  }
  return (
    <nav aria-label="E-invoice downloads" className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <span className="text-slate-600">E-invoice:</span>
      {offer.links.map((link) => (
        <a key={link.format} href={link.href} download className="font-medium text-brand-700 underline">
          {link.label}
        </a>
      ))}
    </nav>
  );
}
