/**
 * What a quote shows (issue "quotes"), computed once for its page and its PDF alike (pure: no React, no
 * I/O), like the invoice's view: the seller, the person it is for, its dates, its lines with their
 * quantities and unit prices, the amounts, the deposit and the balance, the terms, and where it stands.
 * Every amount is exact integer cents of USD (quote-pricing.ts), formatted by the site's own formatter.
 */

import type { Quote } from "~/db/schema";
import type { BusinessIdentity } from "~/features/business/business";
import { readSeller } from "~/features/invoices/invoice-parties";
import { documentDate, type SellerBlock, sellerBlock } from "~/features/invoices/invoice-view";
import { formatMoney } from "~/features/money/format";
import { readDocumentTax, taxLineLabel, taxNotes } from "~/features/tax/document-tax";
import { BUSINESS_TIME_ZONE, formatMoment, type TimeZone } from "~/ui/format";
import { cents, depositSplit, dollars, quoteAmounts } from "./quote-pricing";
import { isAcceptable, shownQuoteStatus } from "./quote-status";

export type QuoteViewInput = Pick<
  Quote,
  | "id"
  | "quoteNumber"
  | "status"
  | "name"
  | "email"
  | "company"
  | "lines"
  | "subtotalUsd"
  | "discountUsd"
  | "taxRatePercent"
  | "taxUsd"
  | "totalUsd"
  | "depositPercent"
  | "validUntil"
  | "terms"
  | "sentAt"
  | "createdAt"
  | "acceptedAt"
  | "acceptedName"
  | "acceptedForCompany"
  | "declinedAt"
  | "declineReason"
  | "expiredAt"
  | "orderId"
> &
  Partial<Pick<Quote, "tax">>;

export interface QuoteLineView {
  description: string;
  detail: string | null;
  quantity: number;
  unitPrice: string;
  amount: string;
}

export interface QuoteView {
  id: string;
  /** "Q-2026-0001", or "Draft" before it is sent. */
  number: string;
  status: Quote["status"];
  /** Where it stands as every page shows it (shownQuoteStatus): a sent quote past its day is expired. */
  shownStatus: Quote["status"];
  statusLabel: string;
  /** The day it was sent (the draft's creation day before). */
  issued: string;
  validUntil: string;
  business: SellerBlock;
  preparedFor: { name: string; company: string | null; email: string };
  lines: QuoteLineView[];
  subtotal: string;
  /** The discount as a negative amount ("−$50.00"), or null without one. */
  discount: string | null;
  taxLabel: string;
  /** The words about its VAT (issue 40), if any. */
  taxNotes: string[];
  tax: string;
  total: string;
  /** With a deposit: what accepting invoices now, and what is invoiced when the work is complete. */
  deposit: { percent: number; amount: string; balance: string } | null;
  terms: string;
  /** Whether the client may still accept or decline it (sent, and its valid-until day not past). */
  open: boolean;
  /** Why it can no longer be accepted, in a sentence; null while it is open (or a draft). */
  closedNote: string | null;
  /** Who signed, and the company they signed for (null: for themselves). */
  accepted: { name: string; company: string | null; at: string } | null;
  declined: { at: string; reason: string | null } | null;
}

export const QUOTE_STATUS_LABELS: Record<Quote["status"], string> = {
  draft: "Draft",
  sent: "Awaiting your decision",
  accepted: "Accepted",
  declined: "Declined",
  expired: "Expired",
  superseded: "Superseded",
};

/** The description of a line as printed: the catalogue's service and package, or the owner's words. */
function lineText(line: Quote["lines"][number]): { description: string; detail: string | null } {
  return line.kind === "catalogue"
    ? { description: line.serviceName, detail: line.packageName }
    : { description: line.description, detail: null };
}

export function quoteView(
  quote: QuoteViewInput,
  business: BusinessIdentity,
  now: Date = new Date(),
  format = formatMoney,
  /** The zone of the acceptance's or decline's time: the client's on their page and PDF (ADR 0521). */
  timeZone: TimeZone = BUSINESS_TIME_ZONE,
): QuoteView {
  const usd = (amount: number) => format(amount, "USD");
  const fromCents = (c: number) => usd(dollars(c));
  // The lines' own amounts, exactly as the stored subtotal was computed from them.
  const { lineCents } = quoteAmounts(quote.lines, 0, 0);
  const discountCents = cents(quote.discountUsd);
  const split = depositSplit(
    { taxCents: cents(quote.taxUsd), totalCents: cents(quote.totalUsd) },
    quote.depositPercent,
  );
  const open = isAcceptable(quote.status, quote.validUntil, now);
  const shownStatus = shownQuoteStatus(quote, now);
  const validUntil = documentDate(`${quote.validUntil}T00:00:00Z`);
  const closedNote =
    quote.status === "draft" || open
      ? null
      : shownStatus === "expired"
        ? `This quote expired: it was valid until ${validUntil}.`
        : quote.status === "superseded"
          ? "A revised quote replaces this one."
          : quote.status === "declined"
            ? "This quote was declined."
            : "This quote was accepted.";
  return {
    id: quote.id,
    number: quote.quoteNumber ?? "Draft",
    status: quote.status,
    shownStatus,
    statusLabel: QUOTE_STATUS_LABELS[shownStatus],
    issued: documentDate(quote.sentAt ?? quote.createdAt),
    validUntil,
    business: sellerBlock(readSeller(null, business)),
    preparedFor: { name: quote.name, company: quote.company, email: quote.email },
    lines: quote.lines.map((line, i) => ({
      ...lineText(line),
      quantity: line.quantity,
      unitPrice: usd(line.unitPriceUsd),
      amount: fromCents(lineCents[i]!),
    })),
    subtotal: usd(quote.subtotalUsd),
    discount: discountCents > 0 ? `−${fromCents(discountCents)}` : null,
    taxLabel: taxLineLabel(readDocumentTax(quote.tax, Number(quote.taxRatePercent))),
    taxNotes: taxNotes(readDocumentTax(quote.tax, Number(quote.taxRatePercent))),
    tax: usd(quote.taxUsd),
    total: usd(quote.totalUsd),
    deposit:
      quote.depositPercent && split.balance
        ? {
            percent: quote.depositPercent,
            amount: fromCents(split.first.totalCents),
            balance: fromCents(split.balance.totalCents),
          }
        : null,
    terms: quote.terms,
    open,
    closedNote,
    accepted:
      quote.status === "accepted" && quote.acceptedAt
        ? {
            name: quote.acceptedName ?? "",
            company: quote.acceptedForCompany ?? null,
            at: formatMoment(quote.acceptedAt, timeZone),
          }
        : null,
    declined:
      quote.status === "declined" && quote.declinedAt
        ? { at: formatMoment(quote.declinedAt, timeZone), reason: quote.declineReason }
        : null,
  };
}
