/**
 * A quote as the back office reads it (issue "quotes", item 2): its lines and amounts (the deposit and
 * balance too), what became of it (sent, the signature of its acceptance, the reason of a decline, its
 * order), the quote it revises and its revisions, and its terms.
 */
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import type { Quote } from "~/db/schema";
import { formatMoney } from "~/features/money/format";
import type { QuoteFigures } from "~/features/quotes/quote-pricing";
import { shownQuoteStatus } from "~/features/quotes/quote-status";
import { StatusBadge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { formatDate, formatDateTime } from "~/ui/format";
import { DataTable, Td } from "~/ui/table";
import { DefinitionList } from "./ui";

const usd = (amount: number) => formatMoney(amount, "USD");

type QuoteLink = { id: string; quoteNumber: string | null; status: string };

const quoteLink = (q: QuoteLink) => (
  <Link key={q.id} className="text-brand-700 underline" to={`/admin/quotes/${q.id}`}>
    {q.quoteNumber ?? "Draft"}
  </Link>
);

/** The lines and every amount, as the client is shown them. */
export function QuoteAmounts({
  quote,
  figures,
  title = "Lines and amounts",
}: {
  quote: Pick<
    Quote,
    "lines" | "subtotalUsd" | "discountUsd" | "taxRatePercent" | "taxUsd" | "totalUsd" | "depositPercent"
  >;
  figures: QuoteFigures;
  title?: string;
}) {
  const items: [string, ReactNode][] = [
    ["Subtotal", usd(quote.subtotalUsd)],
    ...(quote.discountUsd > 0 ? ([["Discount", `−${usd(quote.discountUsd)}`]] as [string, string][]) : []),
    [`Tax (${quote.taxRatePercent}%)`, usd(quote.taxUsd)],
    ["Total", <strong key="t">{usd(quote.totalUsd)}</strong>],
  ];
  if (figures.depositUsd !== null && figures.balanceUsd !== null) {
    items.push(
      [`Deposit (${quote.depositPercent}%)`, usd(figures.depositUsd)],
      ["Balance on completion", usd(figures.balanceUsd)],
    );
  }
  return (
    <Card title={title}>
      {quote.lines.length === 0 ? (
        <p className="text-sm text-slate-600">No lines yet.</p>
      ) : (
        <DataTable caption="Lines of the quote" head={["Line", "Quantity", "Unit price", "Amount"]}>
          {quote.lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines are positions of the quote.
            <tr key={i}>
              <Td className="whitespace-pre-line">
                {line.kind === "catalogue" ? `${line.serviceName} — ${line.packageName}` : line.description}
              </Td>
              <Td className="tabular-nums">{line.quantity}</Td>
              <Td className="whitespace-nowrap tabular-nums">{usd(line.unitPriceUsd)}</Td>
              <Td className="whitespace-nowrap tabular-nums">{usd(figures.lineUsd[i] ?? 0)}</Td>
            </tr>
          ))}
        </DataTable>
      )}
      <div className="mt-4">
        <DefinitionList items={items} />
      </div>
    </Card>
  );
}

/** Who it is for and what became of it. */
export function QuoteDetails({
  quote,
  supersedes,
  revisions,
}: {
  quote: Quote;
  supersedes: QuoteLink | null;
  revisions: QuoteLink[];
}) {
  const items: [string, ReactNode][] = [
    ["Status", <StatusBadge key="s" status={shownQuoteStatus(quote)} />],
    ["Number", quote.quoteNumber ? <code key="n">{quote.quoteNumber}</code> : "Given when sent"],
    ["Recipient", `${quote.name}${quote.company ? ` (${quote.company})` : ""} <${quote.email}>`],
    [
      "Client account",
      quote.clientId ? (
        <Link key="c" className="text-brand-700 underline" to={`/admin/clients/${quote.clientId}`}>
          Open the client
        </Link>
      ) : (
        "None yet: invited to register"
      ),
    ],
    ["Valid until", formatDate(quote.validUntil)],
    ["Sent", formatDateTime(quote.sentAt)],
  ];
  if (supersedes) items.push(["Revises", quoteLink(supersedes)]);
  if (revisions.length > 0)
    items.push([
      "Revised by",
      <span key="r" className="flex flex-wrap gap-x-3">
        {revisions.map(quoteLink)}
      </span>,
    ]);
  if (quote.acceptedAt) {
    items.push(
      ["Accepted", formatDateTime(quote.acceptedAt)],
      ["Signed by", quote.acceptedName ?? "—"],
      ...(quote.acceptedForCompany
        ? ([["For the company", quote.acceptedForCompany]] as [string, string][])
        : []),
      ["Signed from", quote.acceptedIp ?? "unknown address"],
      ["Browser", quote.acceptedUserAgent ?? "—"],
    );
  }
  if (quote.orderId) {
    items.push([
      "Order",
      <Link key="o" className="text-brand-700 underline" to={`/admin/orders/${quote.orderId}`}>
        Open the order
      </Link>,
    ]);
  }
  if (quote.declinedAt) {
    items.push(
      ["Declined", formatDateTime(quote.declinedAt)],
      ["Reason", quote.declineReason ?? "No reason given"],
    );
  }
  if (quote.expiredAt) items.push(["Expired", formatDateTime(quote.expiredAt)]);
  return (
    <Card title="Quote">
      <DefinitionList items={items} />
    </Card>
  );
}

export function QuoteTerms({ terms }: { terms: string }) {
  return (
    <Card title="Terms">
      <p className="whitespace-pre-line text-sm text-ink">{terms}</p>
    </Card>
  );
}

/** Revise: a new draft copying the quote, which supersedes it once sent. */
export function ReviseForm() {
  return (
    <Card title="Revise">
      <Form method="post" className="space-y-3">
        <p className="text-sm text-slate-600">
          A sent quote is never edited. A revision is a new draft with the same lines; sending it replaces
          this quote, which the client can then no longer accept.
        </p>
        <Button type="submit" name="intent" value="revise">
          Revise
        </Button>
      </Form>
    </Card>
  );
}
