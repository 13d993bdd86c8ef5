/**
 * What an invoice shows, computed once for the page and the PDF alike (pure: no React, no I/O).
 */
import type { OrderAddon } from "~/db/schema";
import type { BusinessIdentity } from "~/features/business/business";
import { formatMoney } from "~/features/currency/currency";
import { formatDate } from "~/ui/format";
import { invoiceStatusTone } from "./invoice-number";

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
  };
  order: {
    serviceName: string;
    packageName: string;
    quantity: number;
    unitPriceUsd: number;
    serviceCategory: string;
    /** Add-ons bought with the package (the SSL procurement fee): a line each. */
    addons?: readonly OrderAddon[] | null;
  };
  client: { name: string; email: string; phone: string | null; company: string | null };
}

export interface InvoiceView {
  id: string;
  number: string;
  status: string;
  statusLabel: string;
  tone: "paid" | "unpaid";
  issued: string;
  due: string;
  paid: string | null;
  currency: string;
  business: { name: string; legalName: string; address: string; email: string; phone: string };
  billTo: { name: string; company: string | null; email: string; phone: string | null };
  lines: Array<{ description: string; detail: string; quantity: number; unitPrice: string; amount: string }>;
  subtotal: string;
  taxLabel: string;
  tax: string;
  total: string;
  /** The total in USD with the rate, for invoices in another currency; else null. */
  usdNote: string | null;
}

const date = (value: Date | string) => formatDate(value, "long");

export function invoiceView(
  input: InvoiceViewInput,
  business: BusinessIdentity,
  format = formatMoney,
): InvoiceView {
  const { invoice, order, client } = input;
  const money = (amount: number) => format(amount, invoice.currency);
  const addons = order.addons ?? [];
  // The package's line is what the subtotal holds besides the add-ons (each stored in the currency).
  const packageAmount = addons.reduce((rest, a) => rest - a.amountInCurrency, invoice.subtotal);
  const unitInCurrency = order.quantity > 0 ? packageAmount / order.quantity : packageAmount;
  const unitPrice = (usd: number, inCurrency: number) =>
    invoice.currency === "USD" ? format(usd, "USD") : money(inCurrency);
  return {
    id: invoice.id,
    number: invoice.invoiceNumber,
    status: invoice.status,
    statusLabel: invoice.status.charAt(0).toUpperCase() + invoice.status.slice(1),
    tone: invoiceStatusTone(invoice.status),
    issued: date(invoice.createdAt),
    due: date(invoice.dueDate),
    paid: invoice.paidAt ? date(invoice.paidAt) : null,
    currency: invoice.currency,
    business: {
      name: business.name,
      legalName: business.legalName,
      address: business.address,
      email: business.email,
      phone: business.phone,
    },
    billTo: {
      name: client.name,
      company: client.company || null,
      email: client.email,
      phone: client.phone || null,
    },
    lines: [
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
    taxLabel: `Tax (${Number(invoice.taxRatePercent)}%)`,
    tax: money(invoice.taxAmount),
    total: money(invoice.totalAmount),
    usdNote:
      invoice.currency === "USD"
        ? null
        : `${format(invoice.amountUsd, "USD")} at ${Number(invoice.exchangeRate)} ${invoice.currency} per USD`,
  };
}
