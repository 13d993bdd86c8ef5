/**
 * What an invoice shows, computed once for the page and the PDF alike (pure: no React, no I/O).
 */
import type { OrderAddon } from "~/db/schema";
import type { BusinessIdentity } from "~/features/business/business";
import { formatMoney } from "~/features/money/format";
import { fromMinorUnits, toMinorUnits } from "~/features/money/minor-units";
import { readDocumentTax, taxLineLabel, taxNotes } from "~/features/tax/document-tax";
import { formatDate } from "~/ui/format";
import { invoiceKindTitle, invoicePartLabel } from "./invoice-kind";
import { invoiceStatusTone } from "./invoice-number";
import {
  type BuyerSource,
  type InvoiceBuyer,
  type InvoiceSeller,
  readBuyer,
  readSeller,
} from "./invoice-parties";
import { invoiceStatusLabel, type ShownInvoiceStatus, shownInvoiceStatus } from "./invoice-status";

export interface InvoiceViewInput {
  invoice: {
    id: string;
    invoiceNumber: string;
    status: string;
    currency: string;
    subtotal: number;
    taxRatePercent: number;
    taxAmount: number;
    totalAmount: number;
    amountUsd: number;
    exchangeRate: number;
    dueDate: Date | string;
    paidAt: Date | string | null;
    createdAt: Date | string;
    /** The copies frozen when issued (ADR 0504), checked here; null: the client and business as now. */
    buyer?: unknown;
    seller?: unknown;
    /** What came back to the client through refunds (ADR 0505); absent or 0: nothing. */
    refundedAmount?: number;
    /** What it bills of its order (issue "quotes"): all of it (absent, "full"), a deposit or the balance. */
    kind?: string;
    /** Its VAT treatment frozen when issued (issue 40); absent or null: its flat rate. */
    tax?: unknown;
  };
  /** The invoice's credit notes, oldest first (read only when something was refunded). */
  creditNotes?: ReadonlyArray<{ id: string; creditNoteNumber: string }>;
  order: {
    serviceName: string;
    packageName: string;
    quantity: number;
    unitPriceUsd: number;
    serviceCategory: string;
    /** Add-ons bought with the package (the SSL procurement fee): a line each. */
    addons?: readonly OrderAddon[] | null;
  };
  /** The client as they are now: printed only by an invoice without a frozen buyer. */
  client: BuyerSource;
}

/** The seller's block of a printed document (an invoice, a credit note). */
export interface SellerBlock {
  name: string;
  legalName: string;
  address: string;
  email: string;
  phone: string;
  /** "VAT/Tax ID: …", or null when the seller had none. */
  taxLine: string | null;
}

/** The buyer's block of a printed document ("Bill To"). */
export interface BillToBlock {
  name: string;
  company: string | null;
  /** Address and country, each on its own line (empty when neither was given). */
  addressLines: string[];
  email: string;
  phone: string | null;
  taxLine: string | null;
}

export interface InvoiceView {
  id: string;
  number: string;
  /** "Invoice INV-…", or for a quote's part "Deposit invoice INV-…" / "Balance invoice INV-…". */
  title: string;
  /** A quote's part (issue 37, item 2): what it bills of the order, in a sentence; null for a whole order. */
  partNote: string | null;
  /** The stored status (paid stays paid once refunded). */
  status: string;
  /** What the invoice is shown as (shownInvoiceStatus): overdue once past due, refunds counted (ADR 0505). */
  displayStatus: ShownInvoiceStatus;
  statusLabel: string;
  /** By the stored status: a refunded invoice was paid (no Pay Now, "Thank you for your payment"). */
  tone: "paid" | "unpaid";
  issued: string;
  due: string;
  paid: string | null;
  currency: string;
  business: SellerBlock;
  billTo: BillToBlock;
  lines: Array<{ description: string; detail: string; quantity: number; unitPrice: string; amount: string }>;
  subtotal: string;
  taxLabel: string;
  tax: string;
  total: string;
  /** The words about its VAT (the reverse charge, the exemption, "Not subject to VAT"), if any. */
  taxNotes: string[];
  /** The total in USD with the rate, for invoices in another currency; else null. */
  usdNote: string | null;
  /**
   * Once some of it was refunded: the amount, "{refunded} of {total} refunded", what was paid net of
   * it (the one money truth, money-totals.ts), how the money comes back, its credit notes.
   */
  refund: {
    amount: string;
    line: string;
    netPaid: string;
    arrival: string;
    creditNotes: Array<{ id: string; number: string }>;
  } | null;
}

/**
 * How and when refunded money comes back: the provider refunds the payment itself (Stripe's card
 * refunds take 5–10 business days to appear), a bank transfer is sent back by the owner. The refund's
 * email says the same (refunds/refund-settle.server.ts).
 */
export const REFUND_ARRIVAL = "The money reaches you the way you paid, usually within 5–10 business days.";

/** What was paid net of refunds, in minor units exactly. */
function netPaidAmount(total: number, refunded: number, currency: string): number {
  return fromMinorUnits(toMinorUnits(total, currency) - toMinorUnits(refunded, currency), currency);
}

export const documentDate = (value: Date | string) => formatDate(value, "long");
const date = documentDate;

export const taxLine = (taxId: string | null) => (taxId ? `VAT/Tax ID: ${taxId}` : null);

export function sellerBlock(seller: InvoiceSeller): SellerBlock {
  return {
    name: seller.name,
    legalName: seller.legalName,
    address: seller.address,
    email: seller.email,
    phone: seller.phone,
    taxLine: taxLine(seller.taxId),
  };
}

export function billToBlock(buyer: InvoiceBuyer): BillToBlock {
  return {
    name: buyer.name,
    company: buyer.company,
    addressLines: [buyer.address, buyer.country].filter((line): line is string => Boolean(line)),
    email: buyer.email,
    phone: buyer.phone,
    taxLine: taxLine(buyer.taxId),
  };
}

/** "$80.00 at 150 JPY per USD" for an amount in another currency than USD; null for USD. */
export function usdNoteFor(
  currency: string,
  amountUsd: number,
  exchangeRate: number,
  format = formatMoney,
): string | null {
  return currency === "USD"
    ? null
    : `${format(amountUsd, "USD")} at ${Number(exchangeRate)} ${currency} per USD`;
}

export function invoiceView(
  input: InvoiceViewInput,
  business: BusinessIdentity,
  format = formatMoney,
  /** The moment it is shown at: past its due date, an unpaid invoice reads overdue. */
  now: Date = new Date(),
): InvoiceView {
  const { invoice, order, client } = input;
  const seller = readSeller(invoice.seller, business);
  const buyer = readBuyer(invoice.buyer, client);
  const money = (amount: number) => format(amount, invoice.currency);
  const addons = order.addons ?? [];
  // The package's line is what the subtotal holds besides the add-ons (each stored in the currency).
  const packageAmount = addons.reduce((rest, a) => rest - a.amountInCurrency, invoice.subtotal);
  const unitInCurrency = order.quantity > 0 ? packageAmount / order.quantity : packageAmount;
  const unitPrice = (usd: number, inCurrency: number) =>
    invoice.currency === "USD" ? format(usd, "USD") : money(inCurrency);
  const refunded = invoice.refundedAmount ?? 0;
  // A quote's deposit or balance bills a part of its order: one line for that part.
  const part = invoicePartLabel(invoice.kind);
  const displayStatus = shownInvoiceStatus({ ...invoice, refundedAmount: refunded }, now);
  const documentTax = readDocumentTax(invoice.tax, Number(invoice.taxRatePercent));
  return {
    id: invoice.id,
    number: invoice.invoiceNumber,
    title: `${invoiceKindTitle(invoice.kind)} ${invoice.invoiceNumber}`,
    partNote:
      part === "Deposit"
        ? `The deposit of ${order.packageName}: the balance is invoiced when the work is complete.`
        : part === "Balance"
          ? `The balance of ${order.packageName}, due now that the work is complete; the deposit was invoiced on acceptance.`
          : null,
    status: invoice.status,
    displayStatus,
    statusLabel: invoiceStatusLabel(displayStatus),
    tone: invoiceStatusTone(invoice.status),
    issued: date(invoice.createdAt),
    due: date(invoice.dueDate),
    paid: invoice.paidAt ? date(invoice.paidAt) : null,
    currency: invoice.currency,
    business: sellerBlock(seller),
    billTo: billToBlock(buyer),
    lines: part
      ? [
          {
            description: order.serviceName,
            detail: `${part} of ${order.packageName}`,
            quantity: 1,
            unitPrice: money(invoice.subtotal),
            amount: money(invoice.subtotal),
          },
        ]
      : [
          {
            description: order.serviceName,
            detail: `${order.packageName} (${order.serviceCategory})`,
            quantity: order.quantity,
            unitPrice: unitPrice(order.unitPriceUsd, unitInCurrency),
            amount: money(packageAmount),
          },
          ...addons.map((a) => ({
            description: a.name,
            detail: `Add-on to ${order.serviceName}`,
            quantity: a.quantity,
            unitPrice: unitPrice(a.unitPriceUsd, a.quantity > 0 ? a.amountInCurrency / a.quantity : 0),
            amount: money(a.amountInCurrency),
          })),
        ],
    subtotal: money(invoice.subtotal),
    taxLabel: taxLineLabel(documentTax),
    tax: money(invoice.taxAmount),
    total: money(invoice.totalAmount),
    taxNotes: taxNotes(documentTax),
    usdNote: usdNoteFor(invoice.currency, invoice.amountUsd, invoice.exchangeRate, format),
    refund:
      displayStatus === "refunded" || displayStatus === "partially_refunded"
        ? {
            amount: money(refunded),
            line: refundedLine(invoice.totalAmount, refunded, invoice.currency, format),
            netPaid: money(netPaidAmount(invoice.totalAmount, refunded, invoice.currency)),
            arrival: REFUND_ARRIVAL,
            creditNotes: (input.creditNotes ?? []).map((n) => ({ id: n.id, number: n.creditNoteNumber })),
          }
        : null,
  };
}

const NO_CLIENT: BuyerSource = { name: "", email: "", phone: null, company: null };

/**
 * The buyer's and the seller's lines as the invoice was issued, for pages that list them rather than
 * print the document (the back office's invoice page). `billTo` is empty for an invoice without a
 * frozen buyer whose client is gone.
 */
export function issuedPartyLines(
  invoice: { buyer: unknown; seller: unknown },
  client: BuyerSource | null,
  business: BusinessIdentity,
): { billTo: string[]; seller: string[] } {
  const present = (lines: Array<string | null>) => lines.filter((line): line is string => Boolean(line));
  const buyer = invoice.buyer == null && !client ? null : readBuyer(invoice.buyer, client ?? NO_CLIENT);
  const seller = readSeller(invoice.seller, business);
  return {
    billTo: buyer
      ? present([
          buyer.name,
          buyer.company,
          buyer.address,
          buyer.country,
          buyer.email,
          buyer.phone,
          taxLine(buyer.taxId),
        ])
      : [],
    seller: present([
      seller.name,
      seller.legalName !== seller.name ? seller.legalName : null,
      seller.address,
      `${seller.email} · ${seller.phone}`,
      taxLine(seller.taxId),
    ]),
  };
}

/** "{refunded} of {total} refunded" (the invoice's summary line once a refund is recorded). */
export function refundedLine(
  totalAmount: number,
  refundedAmount: number,
  currency: string,
  format = formatMoney,
): string {
  return `${format(refundedAmount, currency)} of ${format(totalAmount, currency)} refunded`;
}

/** An invoice's total as the back office lists it: once, with the USD amount and rate only in another currency. */
export function totalLine(
  invoice: { totalAmount: number; currency: string; amountUsd: number; exchangeRate: number },
  format = formatMoney,
): string {
  const note = usdNoteFor(invoice.currency, invoice.amountUsd, invoice.exchangeRate, format);
  const total = format(invoice.totalAmount, invoice.currency);
  return note ? `${total} (${note})` : total;
}

/** What was paid of an invoice net of its refunds, formatted ("Net paid"). */
export function netPaidLine(
  invoice: { totalAmount: number; refundedAmount: number; currency: string },
  format = formatMoney,
): string {
  return format(
    netPaidAmount(invoice.totalAmount, invoice.refundedAmount, invoice.currency),
    invoice.currency,
  );
}
