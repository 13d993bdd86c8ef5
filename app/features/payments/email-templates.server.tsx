/** The payment receipt, queued in the webhook's transaction when an invoice becomes paid. */
import type { BusinessIdentity } from "~/features/business/business";
import { EmailButton, EmailLayout, textFooter } from "~/features/mail/EmailLayout";
import type { EmailContent } from "~/features/mail/email";
import { renderEmailHtml } from "~/features/mail/render.server";
import { formatMoney } from "~/features/money/format";
import { formatDate, type TimeZone } from "~/ui/format";

export interface ReceiptProps {
  business: BusinessIdentity;
  publicUrl: string;
  name: string;
  invoiceId: string;
  invoiceNumber: string;
  description: string;
  total: number;
  currency: string;
  amountUsd: number;
  paidAt: Date;
  /** The client's saved timezone: the day of the payment as they live it (ADR 0521). */
  timeZone?: TimeZone;
}

export function paymentReceiptEmail(p: ReceiptProps): EmailContent {
  const url = `${p.publicUrl}/client/invoice/${p.invoiceId}`;
  const amount = formatMoney(p.total, p.currency);
  const usd = p.currency === "USD" ? null : formatMoney(p.amountUsd, "USD");
  const paidOn = formatDate(p.paidAt, "medium", p.timeZone);
  const subject = `Payment received: invoice ${p.invoiceNumber}`;
  const html = renderEmailHtml(
    <EmailLayout business={p.business} publicUrl={p.publicUrl} preview={`We received ${amount}. Thank you!`}>
      <h1 style={{ fontSize: "20px", margin: "0 0 16px" }}>Thank you for your payment</h1>
      <p style={{ margin: "0 0 12px" }}>
        Hello {p.name}, we received {amount}
        {usd ? ` (${usd})` : ""} for invoice {p.invoiceNumber} on {paidOn}.
      </p>
      <p style={{ margin: "0 0 16px" }}>{p.description}. Work will begin shortly.</p>
      <EmailButton href={url}>View Invoice</EmailButton>
    </EmailLayout>,
  );
  const text = [
    `Hello ${p.name},`,
    "",
    `We received ${amount}${usd ? ` (${usd})` : ""} for invoice ${p.invoiceNumber} on ${paidOn}.`,
    `${p.description}. Work will begin shortly.`,
    "",
    `View the invoice: ${url}`,
    "",
    textFooter(p.business, p.publicUrl),
  ].join("\n");
  return { subject, html, text };
}
